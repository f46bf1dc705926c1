"""How a league round of a table game (a game without solo runs: Road Rally USA) seats its
entrants: tables of the game's seat range, as even as possible, in an order drawn from the
round's secret seed.

The entrants are sorted by SHA-256(`seed:user id`), then cut into the fewest tables of at most
`largest` seats (7 → 4+3, 8 → 4+4, 11 → 4+4+3, 6 → 3+3), the larger tables first; a table's seats
are in that order. Anybody can check a grouping once the seed is revealed at the close. Fewer
entrants than `smallest`: no table (the round cannot be played).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def table_sizes(entrants: int, smallest: int, largest: int) -> list[int]:
    """The tables' sizes, largest first: the fewest tables of at most `largest` seats, their sizes
    differing by one at most; [] when the entrants cannot fill one table of `smallest` seats."""
    if entrants < smallest or entrants <= 0:
        return []
    count = -(-entrants // largest)
    base, extra = divmod(entrants, count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    if sizes[-1] < smallest:  # only when the range is narrower than the evening-out needs
        return []
    return sizes


def draw_order(seed: str, user_id: int) -> str:
    """An entrant's place in the draw: the SHA-256 of the round's seed and their id."""
    return hashlib.sha256(f"{seed}:{user_id}".encode()).hexdigest()


def group_tables(entrants: Sequence[tuple[int, T]], seed: str, smallest: int,
                 largest: int) -> list[list[tuple[int, T]]]:
    """`entrants` ((user id, anything)) grouped into tables (`table_sizes`) in the seed's draw order."""
    drawn = sorted(entrants, key=lambda e: (draw_order(seed, e[0]), e[0]))
    tables: list[list[tuple[int, T]]] = []
    start = 0
    for size in table_sizes(len(drawn), smallest, largest):
        tables.append(list(drawn[start:start + size]))
        start += size
    return tables
