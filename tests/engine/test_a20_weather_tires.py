"""RULES A20 weather and tires: A20.1 the weather roll (module `weather`, OPEN-13, AMB-16), A20.2
the tire choice, A20.3 asphalt tires on snow (AMB-8), A20.4 snow tires on asphalt (AMB-9); a
3-special rally with the Rules+ modules on, driven by the AI and replayed from its log."""

from __future__ import annotations

import json

import pytest
from rules_helpers import (
    CLEAN,
    act,
    event,
    kinds,
    make_game,
    play,
    put_car,
    refused,
    rules_with,
    seats,
    space_at,
    stage_from,
)

from bot.engine.core.dice import ScriptedDice
from bot.engine.core.errors import CannotParse, RallyError
from bot.engine.rallyman.actions import Roll, Spare, Tires
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.ruleset import load_ruleset
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.specials import advance_course
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import Surface
from bot.engine.rallyman.state import FINISHED, Card, GameState
from bot.engine.rallyman.weather import default_tires, weather_die

WEATHER = {"weather": True}

#: Five zone boards, zone A crossed twice (A then B then A again, C, D, E).
FIVE_ZONES = """straight 2 [grass|grass]
zone B
straight 2 [grass|grass]
zone A
straight 2 [grass|grass]
zone C
straight 2 [grass|grass]
zone D
straight 2 [grass|grass]
zone E
straight 2 [grass|grass]"""

#: Zone A on its snow side (fixed weather): spaces 1-2 snow, 3-4 cleared (asphalt), 5-12 snow.
MIXED = """snow: A
start
zone A
straight 2 [grass|grass]
straight 2 clear [grass|grass]
straight 8 [grass|grass]
finish"""


class RecordingDice(ScriptedDice):
    """Scripted faces that also note which die was rolled."""

    __slots__ = ("seen",)

    def __init__(self, faces: list[bool]) -> None:
        super().__init__(faces)
        self.seen: list[str] = []

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        self.seen.append(die)
        return super().roll(die, faces, hazard_faces)


def surface_at(state: GameState, index: int) -> Surface:
    space = state.stage.spaces[space_at(state.stage, index)]
    return space.surface(space.zone in state.stage.snow_zones)


# -- A20.1 weather -----------------------------------------------------------------------------------

def test_A20_1_uncertain_weather_rolls_one_gear_die_per_zone_in_route_order_before_the_first_car():
    """A20.1: one gear die per zone in route order (1st die for the 1st zone …); ⚠ turns the zone
    to its snow side; zone A, crossed twice, is rolled once at its first appearance. The `weather`
    event comes before the first turn."""
    dice = RecordingDice([True, False, False, True, False] + CLEAN)
    events: list = []
    state = new_game(stage_from(FIVE_ZONES), seats(2), modules=WEATHER, dice=dice, events=events)
    assert dice.seen == ["1", "2", "3", "4", "5"]
    assert state.weather == ("A", "D") and state.stage.snow_zones == {"A", "D"}
    assert kinds(events) == ["weather", "turn"]
    assert event(events, "weather").params["zones"] == "A, D"
    assert event(events, "weather").params["dry"] == "B, C, E"
    # route A B A C D E, two spaces each: both passages on zone A are snow, and zone D
    snow, dry = Surface.SNOW, Surface.ASPHALT
    assert [surface_at(state, i) for i in (1, 3, 5, 7, 9, 11)] == [snow, dry, snow, dry, snow, dry]


def test_OPEN_13_the_weather_die_of_zones_beyond_the_fourth():
    """OPEN-13: zone 5 uses die 5; zone i ≥ 6 uses die ((i−1) mod 5)+1 (ruleset `weather_dice`)."""
    rules = load_ruleset()
    assert [weather_die(rules, i - 1) for i in range(1, 12)] == ["1", "2", "3", "4", "5", "1", "2", "3", "4", "5", "1"]


def test_A20_1_AMB_16_certain_forecast_keeps_the_stage_snow_zones_and_rolls_nothing():
    """AMB-16 (DE): with a certain forecast the snowy zones are fixed before the rally."""
    state = make_game(MIXED, modules=WEATHER, ruleset=rules_with(weather_forecast="certain"))
    assert state.weather == ("A",) and state.dice.to_dict()["fi"] == 0


def test_A20_1_the_weather_module_is_off_by_default_and_the_snapshot_is_unchanged():
    """A20 is a Rules+ module: off, the stage's fixed weather stays, no die is rolled, no
    `weather` entry is written in the state."""
    state = make_game(MIXED)
    assert state.weather is None and "weather" not in state.to_dict()
    assert state.dice.to_dict()["fi"] == 0 and state.stage.snow_zones == {"A"}


def test_A20_1_the_weather_survives_a_json_round_trip():
    """The roll is part of the state: `from_dict` rebuilds the same snowy stage from the cached one."""
    base = stage_from(FIVE_ZONES)
    state = new_game(base, seats(2), modules=WEATHER, dice=ScriptedDice([False, True, False, False, True] + CLEAN))
    state = play(state, "1 2 stop")
    data = json.loads(json.dumps(state.to_dict()))
    assert data["weather"] == ["B", "E"]
    again = GameState.from_dict(data, stage=base)
    assert again.to_dict() == state.to_dict()
    assert again.stage.snow_zones == {"B", "E"} and base.snow_zones == frozenset()
    assert [surface_at(again, i) for i in (3, 11)] == [Surface.SNOW] * 2


def test_A20_1_each_special_of_a_rally_gets_its_own_weather_announced_before_its_first_turn():
    """A2.5 / A20.1: the weather of the next special is rolled when it is set up, and announced
    after its start and before its first turn."""
    course = course_of(["pinewood-sprint", "hollowell-winter"], [True, True])
    state = new_game("pinewood-sprint", ai_seats(2), seed=5, modules=WEATHER, course=course)
    while state.course is not None and state.course.index == 0:
        state, events = apply(state, choose_action(state))
    order = kinds(events)
    assert order.index("special_start") < order.index("weather") < order.index("turn")
    assert event(events, "weather").params["number"] == 2
    assert state.stage.snow_zones == set(state.weather or ())
    assert load_stage("hollowell-winter").snow_zones == {"D"}  # the cached stage is never changed


# -- A20.2 tire choice --------------------------------------------------------------------------------

def test_A20_2_tires_are_chosen_before_the_first_die_and_refused_after_it():
    state = make_game(MIXED, drivers=2, modules=WEATHER, faces=[False] + CLEAN)
    state.cars[0].tires = "asphalt"
    assert Tires("snow", driver="d1") in legal_actions(state)
    state, events = act(state, "tires snow")
    assert kinds(events) == ["tires"] and state.cars[0].tires == "snow"
    assert state.turn is not None and state.turn.car == 0 and not state.turn.started  # still to roll
    state = play(state, "1")
    assert not any(isinstance(a, Tires) for a in legal_actions(state))
    refused(state, "tires asphalt", None, "before your first die", "(rulebook ART.15)")  # A20.2 cited


def test_A20_2_a_driver_waiting_to_start_may_choose_while_another_drives():
    state = make_game(MIXED, drivers=2, modules=WEATHER)
    state.cars[1].tires = "asphalt"
    assert legal_actions(state, "d2") == [Tires("snow", driver="d2")]
    state, events = act(state, "pneus neige", driver="d2")
    assert state.cars[1].tires == "snow" and state.turn is not None and state.turn.car == 0


def test_A20_2_without_the_module_tires_are_not_chosen():
    state = make_game(MIXED)
    assert not any(isinstance(a, Tires) for a in legal_actions(state))
    refused(state, "tires asphalt", None, "weather and tires module")


def test_A20_2_the_tires_are_preset_for_the_weather_rolled():
    """A20.2: the choice made for the driver (and by the AI) follows the weather roll: all snow →
    snow tires, all dry → asphalt tires."""
    all_snow = make_game(FIVE_ZONES, modules=WEATHER, faces=[True] * 5 + CLEAN)
    dry = make_game(FIVE_ZONES, modules=WEATHER, faces=[False] * 5 + CLEAN)
    assert (all_snow.cars[0].tires, dry.cars[0].tires) == ("snow", "asphalt")


def _end_special(state: GameState) -> GameState:
    """Every car across the line: the special is over (then `advance_course` sets up the next)."""
    for car in state.cars:
        car.status, car.pile, car.position = FINISHED, [Card("gear", 1, 50)], -2
    state.turn, state.queue = None, []
    return state


@pytest.mark.parametrize("assisted", [True, False])
def test_A20_2_tires_change_only_before_a_special_preceded_by_an_assistance(assisted):
    course = course_of(["pinewood-sprint", "hollowell-winter"], [assisted, True])
    state = new_game("pinewood-sprint", ai_seats(2), seed=3, modules=WEATHER, course=course)
    state.cars[0].tires = state.cars[1].tires = "snow"
    events: list = []
    state = advance_course(_end_special(state), events)
    assert state.course is not None and state.course.index == 1
    if assisted:
        assert [c.tires for c in state.cars] == [default_tires(state.stage)] * 2  # chosen again
        wanted = "asphalt" if state.cars[0].tires == "snow" else "snow"
        assert Tires(wanted, driver=state.cars[0].id) in legal_actions(state)
    else:
        assert [c.tires for c in state.cars] == ["snow", "snow"]  # carried over
        assert not any(isinstance(a, Tires) for a in legal_actions(state))
        refused(state, "tires asphalt", state.cars[0].id, "carry over", "SS2", "(rulebook ART.15)")


@pytest.mark.parametrize(("text", "tires"), [("tires snow", "snow"), ("snow tires", "snow"), ("pneus neige", "snow"),
                                             ("Winterreifen", "snow"), ("tyres tarmac", "asphalt"),
                                             ("reifen asphalt", "asphalt"), ("pneus asphalte", "asphalt")])
def test_A20_2_D1_the_tire_choice_in_english_french_and_german(text, tires):
    action = parse(text)
    assert action == Tires(tires) and parse(str(action)) == action


def test_A20_2_tire_alone_is_still_the_spare_and_tires_alone_asks_which():
    assert parse("tire") == Spare()
    with pytest.raises(CannotParse, match="tires snow"):
        parse("tires")


def test_A20_2_the_ai_drives_on_the_tires_chosen_for_the_weather_and_keeps_a_drivers_choice():
    """The AI's choice is the preset (snow tires when most of the special is snow); driving a
    turn for a driver who chose otherwise (a timed-out turn), it does not undo that choice."""
    state = make_game(FIVE_ZONES, modules=WEATHER, faces=[True] * 5 + CLEAN)  # all snow
    assert state.cars[0].tires == "snow"
    state, _ = act(state, "tires asphalt")
    action = choose_action(state)
    assert isinstance(action, Roll) and action in legal_actions(state)
    state, _ = apply(state, action)
    assert state.cars[0].tires == "asphalt"


# -- A20.3 asphalt tires on snow (AMB-8) ---------------------------------------------------------------

def asphalt_on(faces, gear_at: tuple[int, int] | None = None, **kw):
    state = make_game(MIXED, faces=faces + CLEAN, events=["spin"], **kw)
    state.cars[0].tires = "asphalt"
    if gear_at:
        put_car(state, 0, space_at(state.stage, gear_at[0]), gear_at[1])
    return state


def test_A20_3_AMB_8_asphalt_tires_lose_control_at_two_hazards_on_snow_spaces():
    """The cause is the snow limit (2 ⚠ on snow with asphalt tires), not the general 3 ⚠."""
    state, events = act(asphalt_on([True, True]), "1 2 3")
    loss = event(events, "loss_of_control")
    assert (loss.params["cause"], loss.params["limit"]) == ("snow_hazards", 2)
    assert state.cars[0].position == space_at(state.stage, 2)  # the 2nd die, into snow space 2


def test_A20_3_AMB_8_a_hazard_belongs_to_the_surface_of_the_space_the_die_entered():
    """AMB-8: ⚠ into snow space 2, ⚠ into cleared (asphalt) space 3: one ⚠ on snow, no loss of
    control; a third ⚠ anywhere reaches the general limit of 3."""
    state, events = act(asphalt_on([True, True, False], gear_at=(1, 1)), "2 3 4")
    assert "loss_of_control" not in kinds(events) and state.cars[0].position == space_at(state.stage, 4)
    state, events = act(asphalt_on([True, True, True], gear_at=(1, 1)), "2 3 4")
    assert "loss_of_control" in kinds(events) and state.cars[0].position == space_at(state.stage, 4)
    loss = event(events, "loss_of_control")
    assert (loss.params["cause"], loss.params["limit"]) == ("hazards", 3)  # the general limit, not the snow one


def test_A20_3_AMB_8_option_turn_scope_counts_every_hazard_once_on_snow():
    """AMB-8 option `snow_threshold_scope: turn`: 2 ⚠ in all once the car met snow."""
    state = asphalt_on([True, True], gear_at=(1, 1), ruleset=rules_with(snow_threshold_scope="turn"))
    state, events = act(state, "2 3")
    loss = event(events, "loss_of_control")
    assert (loss.params["cause"], loss.params["limit"]) == ("snow_turn_hazards", 2)  # its own cause


def test_A20_3_snow_tires_on_snow_keep_the_normal_limit_of_three():
    state = make_game(MIXED, faces=[True, True] + CLEAN)
    state.cars[0].tires = "snow"
    state, events = act(state, "1 2")
    assert "loss_of_control" not in kinds(events)


# -- A20.4 snow tires on asphalt (AMB-9) ---------------------------------------------------------------

def snow_tires_at(index: int, gear: int = 2, flats: int = 0):
    state = make_game(MIXED, drivers=1)
    state.cars[0].tires = "snow"
    state.cars[0].flats = flats
    return put_car(state, 0, space_at(state.stage, index), gear)


def test_A20_4_snow_tires_use_at_most_one_white_die_on_asphalt_per_turn():
    refused(snow_tires_at(2), "W W", None, "2nd die", "snow tires")  # spaces 3 and 4: both asphalt
    state = play(snow_tires_at(3), "W W")  # space 4 (asphalt) then 5 (snow): one on each (DE)
    assert state.cars[0].position == space_at(state.stage, 5)


def test_A20_4_asphalt_tires_on_asphalt_use_both_white_dice():
    state = snow_tires_at(2)
    state.cars[0].tires = "asphalt"
    state = play(state, "W W")
    assert state.cars[0].position == space_at(state.stage, 4)


def test_A20_4_AMB_9_flats_cap_the_white_dice_as_a_minimum_not_a_subtraction():
    """AMB-9: white dice = 2 − flats, of which at most 1 on asphalt: 1 flat → 1 white die, usable
    on asphalt; 2 flats → none."""
    state = play(snow_tires_at(2, flats=1), "W")
    assert state.cars[0].position == space_at(state.stage, 3)
    refused(snow_tires_at(3, flats=1), "W W", None, "2nd die", "no white die")
    refused(snow_tires_at(2, flats=2), "W", None, "No white die left")


# -- a rally of 3 specials with the Rules+ modules on ---------------------------------------------------

COURSE = ["pinewood-sprint", "hollowell-winter", "frozen-lakes"]
MODULES = {"weather": True, "splits": True}


def _rally_start(seed: int, events: list) -> GameState:
    course = course_of(COURSE, [True, False, True])
    return new_game(COURSE[0], ai_seats(3), seed=seed, modules=MODULES, course=course, events=events)


@pytest.mark.parametrize("seed", [1, 7])
def test_A2_A20_A21_a_three_special_rally_with_weather_and_splits_is_driven_and_replayed(seed):
    events: list = []
    state = _rally_start(seed, events)
    log: list[tuple[str, str | None]] = []
    # the last driver to start swaps tires while waiting (A20.2), the AI drives everything else
    other = "asphalt" if state.cars[2].tires == "snow" else "snow"
    tires = Tires(other, driver=state.cars[2].id)
    assert tires in legal_actions(state, tires.driver)
    for action in [tires] + [None] * 5000:
        if state.turn is None:
            break
        action = action or choose_action(state)
        log.append((str(action), action.driver))
        state, new_events = apply(state, action)
        events += new_events
        assert state.weather is not None and state.stage.snow_zones == set(state.weather)
    assert state.finished and state.course is not None and len(state.course.results) == 3
    assert kinds(events).count("weather") == 3  # SS1 (from new_game), SS2, SS3
    assert kinds(events).count("tires") == 1
    assert any(e.kind == "split" for e in events)
    # the log is the truth: the same texts from the same start give the same state
    replay = _rally_start(seed, [])
    for i, (text, driver) in enumerate(log):
        replay, _ = apply(replay, parse(text, driver=driver))
        assert replay.moves == i + 1
    assert json.dumps(replay.to_dict(), sort_keys=True) == json.dumps(state.to_dict(), sort_keys=True)
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict() and again.stage.snow_zones == state.stage.snow_zones


@pytest.mark.parametrize("scope, faces, gear_at, dice, said", [
    ("surface", [True, True], None, "1 2 3", "2 ⚠ on snow with asphalt tires"),
    ("turn", [True, True], (1, 1), "2 3", "2 ⚠ this turn, on snow with asphalt tires"),
    ("surface", [True, True, True], (1, 1), "2 3 4", "3 ⚠ this turn"),
])
def test_A20_3_AMB_8_each_loss_of_control_trigger_is_announced_in_its_own_words(scope, faces, gear_at, dice, said):
    """The narration of the loss of control names what triggered it, in every language:
    2 ⚠ on snow with asphalt tires (A20.3), the `turn` option's count (AMB-8), the general 3 ⚠
    (A11.1). Before, all three read "three ⚠"."""
    from bot.engine.rallyman.narrate import narrate
    from bot.i18n import render, t

    state = asphalt_on(faces, gear_at=gear_at, ruleset=rules_with(snow_threshold_scope=scope))
    state, events = act(state, dice)
    line = next(line for line in narrate(events, state) if "LOSES CONTROL" in line)
    assert f"({said})" in line
    cause = event(events, "loss_of_control").params["cause"]
    for lang in ("fr", "de"):
        words = t(f"word.cause_{cause}", lang, n=faces.count(True))
        assert words in render(line, lang) and words != said


@pytest.mark.parametrize("scope, placed", [("turn", True), ("surface", False)])
def test_A19_2_AMB_7_AMB_8_after_a_hazard_on_snow_a_die_onto_asphalt_may_be_placed_in_turn_scope(scope, placed):
    """AMB-7 with AMB-8: a die may be placed when one more ⚠ would lose control. With the option
    `snow_threshold_scope: turn`, after one ⚠ on snow one more ⚠ anywhere does, so the next die may
    be placed even onto cleared asphalt (it was refused as "too early", though the turn
    itself would lose control there); counting ⚠ by space, it may not."""
    rules = rules_with(snow_threshold_scope=scope, spend_seconds_anytime=False)
    state = asphalt_on([True], gear_at=(1, 1), ruleset=rules, modules={"seconds": True})
    state.cars[0].seconds = 1
    state, _ = act(state, "2")  # ⚠ into snow space 2
    assert state.stage.spaces[space_at(state.stage, 3)].surface(True) is not Surface.SNOW
    if placed:
        state, events = act(state, "place 3")  # onto cleared space 3
        assert "placed" in kinds(events)
    else:
        with pytest.raises(RallyError) as err:
            act(state, "place 3")
        assert "one more ⚠" in str(err.value)
