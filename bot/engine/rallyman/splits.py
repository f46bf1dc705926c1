"""Split times shown to all, the Rules+ module `splits` (RULES A21, AMB-10).

A split point is a `split` line of the stage: it marks the first space of every line of the
section after it (one space on a straight; the interior, skid and shortcut entries of a corner),
so the spaces of one corner count as one point. Points are numbered 1, 2 … along the road.

A car has passed a point once it stands on one of its spaces or anywhere the road leads from
them (so a bump jump that flies over the point passes it too), or has finished. At the end of
the turn in which it passed, its split time is recorded — the chrono pile, that turn's card
included, minus the second markers held (A21, DE formula of AMB-10) — and the `split` event
tells everybody the time and how it compares with the best time at that point so far. A
knocked-out car is unclassified (A12.5): no split for it.

Without the module the engine records split times as it always did (`turn.end_turn`), silently.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core.events import Event
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.state import FINISHED, OUT, Car, GameState


@dataclass(frozen=True, slots=True)
class SplitPoint:
    number: int  # 1, 2 … along the road
    space: int  # the space recorded in `Car.splits` (the point's first space)
    spaces: frozenset[int]  # the spaces marked by this point
    reach: frozenset[int]  # spaces from which the point is behind the car (its spaces included)


_POINTS: dict[int, tuple[Stage, tuple[SplitPoint, ...]]] = {}


def split_points(stage: Stage) -> tuple[SplitPoint, ...]:
    """The stage's split points in road order (memoised per stage object)."""
    entry = _POINTS.get(id(stage))
    if entry is None or entry[0] is not stage:  # the entry keeps its stage alive: ids stay unique
        if len(_POINTS) > 2_000:
            _POINTS.clear()
        entry = _POINTS[id(stage)] = (stage, _compute(stage))
    return entry[1]


def _compute(stage: Stage) -> tuple[SplitPoint, ...]:
    groups: dict[tuple[str, int], list[int]] = {}
    for space in stage.spaces:
        if space.split:
            key = ("corner", space.corner) if space.corner is not None else ("space", space.id)
            groups.setdefault(key, []).append(space.id)
    ordered = sorted(groups.values(), key=lambda ids: (min(stage.spaces[i].progress for i in ids), min(ids)))
    points = []
    for n, ids in enumerate(ordered, start=1):
        reach: set[int] = set()
        todo = list(ids)
        while todo:
            sid = todo.pop()
            if sid < 0 or sid in reach:
                continue
            reach.add(sid)
            space = stage.spaces[sid]
            todo.extend(space.next)
            if space.bailout is not None:
                todo.append(space.bailout)
        points.append(SplitPoint(n, min(ids), frozenset(ids), frozenset(reach)))
    return tuple(points)


def _number_of(points: tuple[SplitPoint, ...], space_id: int) -> int | None:
    return next((p.number for p in points if space_id in p.spaces), None)


def split_time_at(state: GameState, car: Car, number: int) -> int | None:
    """The split time `car` recorded at point `number`, if it has one."""
    points = split_points(state.stage)
    return next((time for space, time in car.splits if _number_of(points, space) == number), None)


def record_splits(state: GameState, car: Car, events: list[Event]) -> None:
    """End of `car`'s turn: record (and announce) every split point it has passed since."""
    if car.status == OUT:  # knocked out or retired: unclassified (A12.5)
        return
    points = split_points(state.stage)
    if not points:
        return
    done = {_number_of(points, space) for space, _ in car.splits}
    for point in points:
        if point.number in done:
            continue
        if car.status != FINISHED and (car.position < 0 or car.position not in point.reach):
            continue
        time = car.time
        others = [t for other in state.cars if other is not car
                  for t in [split_time_at(state, other, point.number)] if t is not None]
        best = min(others) if others else None
        car.splits.append([point.space, time])
        events.append(Event("split", car.id, {
            "name": car.name, "number": point.number, "time": _clock(time), "seconds": time,
            "best": _clock(min(time, best) if best is not None else time),
            "gap": _gap(time, best)}))


def _gap(time: int, best: int | None) -> str:
    """`+0:10` behind the best split so far of the others, or `fastest` (a word of the catalogue)."""
    if best is None or time < best:
        return "fastest"
    return "+" + _clock(time - best)


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"
