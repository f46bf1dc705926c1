"""The outcome of a one-driver rally (a championship run, issue 11): time, power-stage time, or why
it did not finish. Pure, so the verifier and the services read a run the same way.

A single special: the car's stage time (A15.2). A course of specials: the rally total (A17) and
the last special's time (the power stage); out of any special is out of the rally (A3).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.state import FINISHED, GameState


@dataclass(frozen=True)
class RunOutcome:
    finished: bool
    time_s: int | None
    power_s: int | None  # time on the last special
    reason: str | None  # why not finished: knocked_out | retired | ...


def run_outcome(state: GameState) -> RunOutcome:
    """The outcome of the first (only) driver of a finished rally."""
    if state.course is not None and state.course.results:
        rows = [r for r in rally_classification(state.course)]
        row = rows[0]
        if row.total is None:
            return RunOutcome(False, None, None, row.reason or "retired")
        return RunOutcome(True, row.total, row.times[-1], None)
    car = state.cars[0]
    if car.status == FINISHED:
        return RunOutcome(True, car.time, car.time, None)
    return RunOutcome(False, None, None, car.out_reason or "retired")
