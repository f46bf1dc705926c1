"""Helpers for the rules tests: tiny stages written inline, scripted dice, one-line actions.

Stages are written in the stage text format and built by the real loader, so every test drives
the same space graph the bot drives. Zone A (data/rallyman/zones/A.zone) is used throughout; its legend is
read from the zone file by `damage_of`, never hard-coded in a test.

A few tests put a car on a given space in a given gear with `put_car` instead of driving there
turn by turn; it writes exactly what a finished turn leaves behind (position, arrival stamp, the
gear card on the chrono pile) so the rule under test starts from a legal position.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from bot.engine.core.dice import ScriptedDice
from bot.engine.core.errors import RallyError
from bot.engine.core.events import Event
from bot.engine.rallyman.game import Seat, apply, new_game
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.ruleset import Ruleset, load_ruleset
from bot.engine.rallyman.stages.loader import load_zones, parse_stage
from bot.engine.rallyman.stages.model import Stage, Terrain
from bot.engine.rallyman.state import RACING, Card, GameState, TurnState

CLEAN = [False] * 300  # plenty of faces without ⚠
NAMES = ("Ada", "Bea", "Cy", "Dee")


@lru_cache(maxsize=1)
def zones():
    return load_zones()


def stage_from(text: str) -> Stage:
    """A stage from pace notes; `start`, `zone A` and `finish` are added when missing."""
    lines = [ln for ln in text.strip().splitlines()]
    if not any(ln.strip() == "start" for ln in lines):
        lines = ["start", "zone A", *lines, "finish"]
    return parse_stage("\n".join(lines) + "\n", "test.stage", zones())


def seats(n: int) -> list[Seat]:
    return [Seat(f"d{i + 1}", NAMES[i]) for i in range(n)]


def make_game(stage_text: str | Stage, drivers: int = 1, faces: list[bool] | None = None,
              events: list[str] | None = None, deck: list[str] | None = None,
              ruleset: str | Ruleset = "classic", modules: dict[str, bool] | None = None) -> GameState:
    """A special on an inline stage with scripted dice (⚠ faces in order, loss-of-control events in
    order) and, if given, a scripted shortcut deck (top card first)."""
    stage = stage_text if isinstance(stage_text, Stage) else stage_from(stage_text)
    dice = ScriptedDice(list(faces) if faces is not None else list(CLEAN), list(events or []))
    state = new_game(stage, seats(drivers), ruleset=ruleset, modules=modules, dice=dice)
    if deck is not None:
        state.deck = list(deck)
    return state


def rules_with(base: str = "classic", **changes) -> Ruleset:
    """A shipped ruleset with some settings changed (how a house rule would be written)."""
    rules = load_ruleset(base)
    dice = changes.pop("dice", None)
    if dice is not None:
        changes["dice"] = rules.dice.model_copy(update=dice)
    return rules.model_copy(update=changes)


def act(state: GameState, text: str, driver: str | None = None) -> tuple[GameState, list[Event]]:
    """Parse a driver's text and apply it (as a user would)."""
    return apply(state, parse(text, state, driver=driver))


def play(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state, _ = act(state, text)
    return state


def refused(state: GameState, text: str, driver: str | None = None, *fragments: str) -> RallyError:
    """Assert that the text is refused with a RallyError whose message holds every fragment, and
    that the state is exactly as before."""
    before = state.to_dict()
    with pytest.raises(RallyError) as info:
        act(state, text, driver)
    assert state.to_dict() == before, "a refused action changed the state"
    message = str(info.value)
    assert message.strip(), "the refusal has no message"
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    return info.value


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def event(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {kinds(events)}"
    return found[0]


def space_at(stage: Stage, index: int) -> int:
    """Id of the road space numbered `index` (1-based along the road, straights and interiors)."""
    for s in stage.spaces:
        if s.index == index:
            return s.id
    raise KeyError(index)


def put_car(state: GameState, ci: int, space: int, gear: int, top: Card | None = None) -> GameState:
    """Put car `ci` on `space` as if a turn had just ended there in `gear` (its gear card on the
    pile). If it is the car to play, its turn starts again from there."""
    car = state.cars[ci]
    car.status = RACING
    car.position = space
    state.arrival += 1
    car.arrived = state.arrival
    car.pile.append(top or Card("gear", gear, state.rules.card_seconds(gear) if gear else 60))
    if state.turn is not None and state.turn.car == ci:
        state.turn = TurnState(car=ci, gear=car.gear)
    return state


def damage_of(stage: Stage, space: int, side: str) -> int:
    """Black dice the zone legend takes for going off `side` of `space` (dry side)."""
    sp = stage.spaces[space]
    border = sp.border(side)
    assert border.kind == "terrain"
    return stage.zones[sp.zone].damage(border.terrain, False)


def terrain_of(stage: Stage, space: int, side: str) -> Terrain:
    return stage.spaces[space].border(side).terrain


def gear_cards(state: GameState, ci: int = 0) -> list[tuple[str, int, int]]:
    return [(c.kind, c.gear, c.seconds) for c in state.cars[ci].pile]


# -- stages used by several modules ------------------------------------------------------------

#: A long straight road with room for everybody.
LONG = "straight 30 cap 4 [grass|forest]"

#: The worked example of A8.6: interior 3 (2 spaces), skid 4-4-4, shortcut K4, rocks inside.
CORNER = """straight 4 [grass|forest]
left 3 skid 4x3 K4 [rocks|forest]
straight 6 [grass|forest]"""


def corner_ids(stage: Stage, n: int = 0) -> dict[str, object]:
    """Ids of corner `n`: interior/skid/shortcut tuples and the space before and after it."""
    c = stage.corners[n]
    before = next(s.id for s in stage.spaces if set(c.spaces()) & set(s.next) and s.corner is None)
    after = next(s.id for s in stage.spaces if s.corner is None and s.id > max(c.spaces()))
    return {"interior": c.interior, "skid": c.skid, "shortcut": c.shortcut, "before": before, "after": after,
            "id": c.id}
