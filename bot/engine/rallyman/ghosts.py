"""Classic's ghost marks: where each car stands and its time so far, as a ghost car
of a later run would be drawn from it. Only what spectators see (the board's space and time).

Pure, like every engine module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine.core.game import GhostMark
from bot.engine.rallyman.public import Shown
from bot.engine.rallyman.stages.model import FINISH, START, Stage
from bot.engine.rallyman.state import OUT

if TYPE_CHECKING:  # the view is the rules' (which import nothing of this module's)
    from bot.engine.rallyman.rules import RallymanView


def share_of(stage: Stage, position: int) -> float:
    """How much of the special a car at `position` has driven: 0 at the start line, 1 over the
    finish line, a space its distance along the road (`Space.progress`) over the stage's length."""
    if position == START:
        return 0.0
    if position == FINISH:
        return 1.0
    length = max(s.progress for s in stage.spaces) + 1
    return min(max(stage.spaces[position].progress / length, 0.0), 1.0)


def ghost_marks(state: Shown) -> dict[str, GhostMark]:
    """Each seat's space id on the special being driven (START / FINISH as the board draws them;
    None once out) and its time so far: the finished specials' times, then this special's chrono
    cards less the second markers held (what the board's table shows as the car's time); and its
    distance along the rally (the specials done plus `share_of` this one)."""
    before: dict[str, int] = {}
    course = state.course
    if course is not None:
        for rows in course.results[:course.index]:
            for row in rows:
                before[row.id] = before.get(row.id, 0) + (row.time or 0)
    done = course.index if course is not None else 0
    return {car.id: GhostMark(None if car.status == OUT else car.position, before.get(car.id, 0) + car.time,
                              None if car.status == OUT else done + share_of(state.stage, car.position))
            for car in state.cars}


class ClassicGhosts:
    """Where each classic car stands, as a ghost is drawn from it."""

    def ghost_marks(self, view: RallymanView) -> dict[str, GhostMark]:
        """Each car's space id on the special being driven (START / FINISH as the board has them;
        None once knocked out) and its time so far: the chrono cards less the second markers
        held, as the board's table shows it, plus the times of the specials already finished."""
        return ghost_marks(view.state)


GHOSTS = ClassicGhosts()
