"""Helpers of the DIRT rally tests: hand-written stages under a test name, scripted dice, putting a
car where a rule needs it, and checking a refusal leaves the state as it was."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from bot.engine.core.dice import ScriptedDice
from bot.engine.core.errors import NotAllowed, RallyError
from bot.engine.dirt import course, rally
from bot.engine.dirt.rally import Action, DirtState
from bot.engine.dirt.stages.loader import parse_stage
from bot.engine.dirt.stages.model import DirtStage, SpaceKind

#: straight, a left corner (inside 2, outside 4) with a shortcut limited to 2, a jump at gear 3
CORNER = """title: Test corner
straight
start
straight
left 2/4 shortcut 2
straight jump 3
straight
finish
straight
"""

STRAIGHT = """title: Test straight
straight
start
straight
straight
finish
straight
"""

#: a slide pair on the row after a right corner
SLIDE = """title: Test slide
straight
start
straight
right 3/5
straight slide 1
straight
finish
straight
"""

NARROW = """title: Test narrow
straight
start
straight narrow
straight narrow
finish
straight
"""

TEXTS = {"t-corner": CORNER, "t-straight": STRAIGHT, "t-slide": SLIDE, "t-narrow": NARROW}


def load_test_stage(real: Callable[[str], DirtStage]) -> Callable[[str], DirtStage]:
    """A stage loader that knows the hand-written stages by their test names (tests/dirt/conftest.py)."""

    def load(name: str) -> DirtStage:
        return parse_stage(TEXTS[name], f"{name}.stage", name) if name in TEXTS else real(name)

    return load


def start(stage: str = "t-corner", seats: Sequence[str] = ("a",), faces: Sequence[bool] = (),
          draws: Sequence[str] = (), stages: Sequence[str] = (), **options: object) -> DirtState:
    """A rally on `stage` (then `stages`) with dice that show ⚠ as `faces` says, then clean ones."""
    dice = ScriptedDice(list(faces) + [False] * 200, list(draws))
    state, _ = rally.new_rally([(s, s.upper()) for s in seats], [stage, *stages], dice=dice, **options)  # type: ignore[arg-type]
    return state


def space(stage: DirtStage, tile: int, lane: int, row: int) -> int:
    return next(x.id for x in stage.spaces if x.kind is SpaceKind.NORMAL and x.tile == tile
                and lane in x.lanes and x.row == row)


def put(state: DirtState, seat: str, where: int, gear: int) -> None:
    """Set a car on a space in a gear, and fix a new round's order (test set-up, not a rule)."""
    car = state.cars[seat]
    car.space, car.gear, car.status = where, gear, "racing"
    lanes = state.stage.spaces[where].lanes
    car.lane = lanes[0] if len(lanes) == 1 else car.lane
    state.round = len(state.seats)
    course.clear_turn(state)
    course.start_round(state, [])


def go(state: DirtState, *texts: str) -> tuple[DirtState, list]:
    """Apply what the seat to act types, one text after another."""
    events: list = []
    for text in texts:
        seat = rally.to_act(state)
        assert seat is not None
        state, new = rally.apply(state, seat, rally.parse(text, state, seat))
        events += new
    return state, events


def refused(state: DirtState, seat: str | None, action: Action, key: str) -> RallyError:
    """The action is refused with `key`, and the state is unchanged."""
    before = state.to_dict()
    with pytest.raises(NotAllowed) as caught:
        rally.apply(state, seat, action)
    assert caught.value.message.key == key, str(caught.value)
    assert state.to_dict() == before
    return caught.value


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]
