"""Classic's ghost marks (issue 27 §5): where each car stands and its time so far, as a ghost car
of a later run would be drawn from it. Only what spectators see (the board's space and time).

Pure, like every engine module.
"""

from __future__ import annotations

from bot.engine.core.game import GhostMark
from bot.engine.rallyman.state import OUT, GameState


def ghost_marks(state: GameState) -> dict[str, GhostMark]:
    """Each seat's space id on the special being driven (START / FINISH as the board draws them;
    None once out) and its time so far: the finished specials' times, then this special's chrono
    cards less the second markers held (what the board's table shows as the car's time)."""
    before: dict[str, int] = {}
    course = state.course
    if course is not None:
        for rows in course.results[:course.index]:
            for row in rows:
                before[row.id] = before.get(row.id, 0) + (row.time or 0)
    return {car.id: GhostMark(None if car.status == OUT else car.position, before.get(car.id, 0) + car.time)
            for car in state.cars}
