"""The one ranking rule of the house (RULES OPEN-5 default, A17): equal results share a rank.

Every place that turns times (or points) into positions calls `shared_ranks`: a special's
classification, the rally classification, a league round and its standings, the world scratch
ranking, its weekly closing post and the result images. Ranks are "competition" ranks: two
drivers tied for first are both 1st and the next one is 3rd ("1, 1, 3"), never "1, 2".
"""

from __future__ import annotations

from collections.abc import Sequence


def shared_ranks(keys: Sequence[object], first_place: int = 1, first_rank: int | None = None) -> list[int]:
    """The ranks of rows already in order, whose comparable result is `keys[i]` (a time, a total,
    a tuple of tie-breaks): a row whose key equals the one before shares its rank, any other row is
    ranked by its place. `first_place` is the place of the first row (a window of a longer
    ranking); `first_rank` is the first row's rank when rows tied with it come before the window."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        if i and key == keys[i - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(first_rank if i == 0 and first_rank is not None else first_place + i)
    return ranks
