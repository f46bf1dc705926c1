"""DIRT's ghost marks: where each car stands and its time so far, as a ghost car of a
later run would be drawn from it. Only what spectators see (the board's space and time).

Pure, like every engine module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.core.game import GhostMark
from bot.engine.dirt.pictures import stage_seconds
from bot.engine.dirt.public import Shown

if TYPE_CHECKING:  # the view is the rules' (which import nothing of this module's)
    from bot.engine.dirt.rules import DirtView


def ghost_marks(state: Shown) -> dict[str, GhostMark]:
    """Each seat's hex space (None while waiting behind the grid or once out) and its time so far:
    the finished stages' times, then this stage's time cards less its second tokens (the board's);
    and its distance along the rally: the stages done plus the share of this one driven (its
    space's front edge between the start and finish lines; 0 on the grid, 1 once finished)."""
    marks = {}
    stage = state.stage
    span = (stage.finish_line - stage.start_line) or 1.0
    for seat, _ in state.seats:
        car = state.cars[seat]
        on_track = car.space is not None and car.status in ("racing", "finished")
        before = sum(t or 0 for t in car.stage_times[:state.stage_index])
        if car.status == "finished":
            share: float | None = 1.0
        elif car.status == "waiting" or (car.status == "racing" and car.space is None):
            share = 0.0
        elif car.status == "racing" and car.space is not None:
            share = min(max((stage.spaces[car.space].front - stage.start_line) / span, 0.0), 1.0)
        else:  # out
            share = None
        marks[seat] = GhostMark(car.space if on_track else None, before + stage_seconds(state, seat),
                                None if share is None else state.stage_index + share)
    return marks


class DirtGhosts:
    """Where each DIRT car stands, as a ghost is drawn from it (bot.engine.core.game `Ghosts`)."""

    def ghost_marks(self, view: DirtView) -> dict[str, GhostMark]:
        """Each car's hex space (None off the track) and its time so far over the rally: the
        finished stages' times plus this stage's time cards less its second tokens."""
        return ghost_marks(view.state)


GHOSTS = DirtGhosts()
