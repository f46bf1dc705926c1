"""Classification of a special (RULES A17 for one stage): by stage time, knocked out last."""

from __future__ import annotations

from bot.engine.core.ranking import shared_ranks
from bot.engine.rallyman.public import Shown
from bot.engine.rallyman.state import FINISHED, OUT


def classification(state: Shown) -> list[dict]:
    """Rows in order: finished drivers by time (ties share a rank, OPEN-5, in start order),
    then drivers still racing by distance, then knocked-out drivers (DNF)."""
    finished = sorted((c for c in state.cars if c.status == FINISHED), key=lambda c: (c.time, c.seat))
    rows: list[dict] = []
    best = finished[0].time if finished else 0  # read only when someone finished
    for car, rank in zip(finished, shared_ranks([c.time for c in finished])):
        rows.append(_row(car, rank, FINISHED, car.time - best))
    racing = [c for c in state.cars if c.status not in (FINISHED, OUT)]
    racing.sort(key=lambda c: (-(state.stage.spaces[c.position].progress if c.position >= 0 else 0), c.seat))
    rows += [_row(c, None, "racing", None) for c in racing]
    rows += [_row(c, None, OUT, None) for c in sorted((c for c in state.cars if c.status == OUT), key=lambda c: c.seat)]
    return rows


def _row(car, rank, status, gap) -> dict:
    return {"driver": car.id, "name": car.name, "seat": car.seat, "rank": rank, "status": status,
            "time": car.time, "gap": gap, "reason": car.out_reason}
