"""A one-driver rally's result as a run and its result card keep it, read from the game's outcome,
so the services and the offline verifier read a run the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.engine.core.game import Game
from bot.services.work import State


@dataclass(frozen=True)
class RunResult:
    """A one-driver rally's result as a run stores it: its score (seconds), the tie-break the game
    ranks equal scores by (classic: the last special's time, the power stage), or why it is out."""

    finished: bool
    time_s: int | None
    power_s: int | None
    reason: str | None


def run_result(game: Game[Any, Any, Any, Any], state: State) -> RunResult:
    """The result of the first (only) seat of a finished one-driver rally, from the game's outcome."""
    outcome = game.rules.outcome(state)
    if outcome is None or not outcome.seats:
        return RunResult(False, None, None, "retired")
    seat = outcome.seats[0]
    if seat.status != "finished":
        return RunResult(False, None, None, seat.reason or "retired")
    return RunResult(True, seat.score, seat.tiebreak[0] if seat.tiebreak else seat.score, None)
