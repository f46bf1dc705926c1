"""Career counters an action's events add, per seat (`Game.career.tally`).

A game tells, from the events of one action, what each seat did that a career counts: the keys
are a closed set so that the services, the store and the career card read them without knowing
the game. A game that has no such fact omits the key (Road Rally USA has no gears); a game that
has it gives it, 0 included, for every seat that began a turn (so "no loss of control" and "this
game does not count them" differ):

- `turns`: turns begun;
- `losses`: losses of control (a toy game: a bust);
- `stages`: specials (stages) the seat crossed the finish line of;
- `top`: turns ended in the game's top gear (classic: 5th, DIRT: 6th);
- `crossed`: the seat crossed the rally's finish line, given by a game whose classification also
  ranks a car that did not (Road Rally USA: by victory points; 0 for a seat that played and did
  not): a career's "finish" is a classified result that crossed it;
- `gear.<n>`: turns ended in gear n (n from 0 to MAX_GEAR).

Pure, like every engine module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.core.events import Event

#: the counters every game may give, besides `gear.<n>`
FIXED_KEYS = ("turns", "losses", "stages", "top", "crossed")
#: the highest gear a counter may name (DIRT has 6)
MAX_GEAR = 9
GEAR_PREFIX = "gear."

Counters = dict[str, dict[str, int]]


def gear_key(gear: int) -> str:
    """The counter of turns ended in `gear` (a gear out of 0..MAX_GEAR is refused: never a free key)."""
    if not 0 <= int(gear) <= MAX_GEAR:
        raise ValueError(f"gear {gear}: a counter names gears 0..{MAX_GEAR}")
    return f"{GEAR_PREFIX}{int(gear)}"


def is_key(key: str) -> bool:
    """Whether `key` is a counter a game may give (the store refuses any other)."""
    if key in FIXED_KEYS:
        return True
    suffix = key[len(GEAR_PREFIX):] if key.startswith(GEAR_PREFIX) else ""
    return suffix.isdigit() and len(suffix) == 1 and int(suffix) <= MAX_GEAR


def add(out: Counters, seat: str | None, key: str, n: int = 1) -> None:
    """Count `n` of `key` for `seat` (events about nobody count for nobody)."""
    if seat is None:
        return
    row = out.setdefault(seat, {})
    row[key] = row.get(key, 0) + n


def merge(total: Counters, more: Mapping[str, Mapping[str, int]]) -> Counters:
    """`total` with the counters of `more` added (one action's tally into a rally's)."""
    for seat, counters in more.items():
        for key, n in counters.items():
            add(total, seat, key, n)
    return total


def favourite_gear(counters: Mapping[str, int]) -> int | None:
    """The gear most turns ended in (the higher one on a tie; gear 0, a loss of control, never);
    None without gears."""
    best: tuple[int, int] | None = None
    for key, n in counters.items():
        if key.startswith(GEAR_PREFIX) and is_key(key) and n > 0:
            gear = int(key[len(GEAR_PREFIX):])
            if gear > 0 and (best is None or (n, gear) > best):
                best = (n, gear)
    return best[1] if best is not None else None


def gear_tally(events: Sequence[Event], *, turn: str, lost: str, ends: tuple[str, ...], finish: str,
               top: int) -> Counters:
    """The counters of a game of gears (classic, DIRT) from its events' kinds: `turn` begins a
    turn (and gives the seat every fact of the game, 0 included), `lost` is a loss of control,
    `ends` end a turn in the gear of their `gear` param (its card; `top` is the highest gear), and
    `finish` (one of `ends`) finishes a stage."""
    out: Counters = {}
    for e in events:
        if e.kind == turn:  # the facts this game has, 0 included, for every seat that drove
            add(out, e.driver, "turns")
            add(out, e.driver, "losses", 0)
            add(out, e.driver, "top", 0)
        elif e.kind == lost:
            add(out, e.driver, "losses")
        elif e.kind in ends:
            gear = int(e.params.get("gear", 0))
            if gear > 0:
                add(out, e.driver, gear_key(gear))
            if gear == top:
                add(out, e.driver, "top")
            if e.kind == finish:
                add(out, e.driver, "stages")
    return out
