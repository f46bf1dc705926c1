"""RULES A11: loss of control (triggers, card back, events, damage, shortcut and skid cases, resuming)."""

from __future__ import annotations

import pytest
from rules_helpers import (
    CORNER,
    LONG,
    act,
    corner_ids,
    damage_of,
    event,
    kinds,
    make_game,
    play,
    put_car,
    rules_with,
    space_at,
)

from bot.engine.rallyman.dice_rules import dice_allowed
from bot.engine.rallyman.stages.loader import load_stage
from bot.engine.rallyman.stages.model import Terrain

HAZ3 = [True, True, True] + [False] * 50


def crash_on_straight(event_name: str, stage: str = "straight 12 [grass|forest]", **kw):
    """Ada: `1 stop`, then three ⚠ on 2, 3, white: loss of control on space 4. With a second
    driver, Bea enters after her in that round, so Ada's car stays where it crashed meanwhile."""
    state = make_game(stage, faces=[False] + HAZ3, events=[event_name], **kw)
    state, _ = act(state, "1 stop")
    state, events = act(state, "2 3 W")
    return state, events


# -- A11.1 triggers ------------------------------------------------------------------------------

def test_A11_1_three_hazards_trigger_a_loss_of_control():
    """A11.1.1: ⚠ used this turn reaches 3."""
    state, events = crash_on_straight("spin")
    assert event(events, "loss_of_control").params["cause"] == "hazards"


def test_A11_1_corner_overspeed_triggers_a_loss_of_control():
    """A11.1.2: corner over-speed by 1 or 2 gears (A8.6)."""
    state = make_game(CORNER, events=["spin"])
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"


def test_A11_1_bump_triggers_a_loss_of_control():
    """A11.1.3: bump at N+1 with ⚠ on that die, or bump at N+2 (A10)."""
    state = make_game("straight 3\nbump 3\nstraight 5", faces=[False], events=["spin"])
    put_car(state, 0, space_at(state.stage, 3), 5)
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "bump"


# -- A11.2 resolution ----------------------------------------------------------------------------

def test_A11_2_the_triggering_die_moves_the_car_and_the_turn_ends():
    """A11.2.1: the triggering die still moves the car; the turn ends; unused dice are lost."""
    state = make_game(LONG, drivers=2, faces=HAZ3, events=["spin"])
    state, events = act(state, "1 2 3 4 5")
    assert state.last_path[-1][0] == space_at(state.stage, 3)
    assert [p[1] for p in state.last_path] == ["1", "2", "3"]
    assert event(events, "dice_cancelled").params["dice"] == "4 5"
    assert state.cars[state.turn.car].name == "Ada" and not state.turn.started  # a new turn (round 2)


def test_A11_2_a_solo_driver_loses_the_rest_of_the_dice_and_the_stop():
    """A11.2.1: "The turn ends; unused dice are lost for this turn" — also when the same driver
    plays the next turn at once (solo time trial): neither the remaining die nor `stop` carries
    into the new turn, and the roll is not refused."""
    state = make_game(LONG, faces=HAZ3, events=["spin"])
    state, events = act(state, "1 2 3 4 stop")
    assert [p[1] for p in state.last_path] == ["1", "2", "3"]
    assert event(events, "dice_cancelled").params["dice"] == "4"
    assert "stop" not in kinds(events)
    assert state.cars[0].pile[-1].kind == "loc"
    assert not state.turn.started and state.cars[0].position == space_at(state.stage, 3)


def test_A11_2_card_back_of_the_last_engaged_gear_worth_60s_leaves_the_car_in_gear_0():
    """A11.2.2 / OPEN-2: a card of the last engaged gear, turned to its back (60 s by default),
    goes on the chrono pile; the car is in gear 0."""
    state, events = crash_on_straight("spin")
    card = state.cars[0].pile[-1]
    assert (card.kind, card.gear, card.seconds, card.event) == ("loc", 0, 60, "spin")
    assert state.cars[0].gear == 0
    assert event(events, "loss_of_control").params["gear"] == 3


@pytest.mark.parametrize("dice, gear", [("1 2 3", 3), ("1 2 W", 2), ("1 W 2", 2)])
def test_A11_2_the_card_comes_from_the_deck_of_the_last_engaged_gear(dice, gear):
    """A11.2.2: "Take a card from the deck of the last engaged gear (the gear of the triggering
    move)": with per-gear back times the time shows which deck (a white die moves in the gear of
    the last gear die)."""
    rules = rules_with(loc_card_seconds={"1": 61, "2": 62, "3": 63, "4": 64, "5": 65})
    state = make_game(LONG, faces=HAZ3, events=["spin"], ruleset=rules)
    state, _ = act(state, dice)
    assert state.cars[0].pile[-1].seconds == 60 + gear


def test_A11_2_spin_turns_the_car_round_without_damage():
    """A11.2.2: "Spin: the car is turned to face backwards on the loss-of-control space. No damage"."""
    state, events = crash_on_straight("spin", drivers=2)
    assert state.cars[0].pose == "spun"
    assert state.cars[0].position == space_at(state.stage, 4)
    assert state.cars[0].lost_black == 0 and "damage" not in kinds(events)


@pytest.mark.parametrize("event_name, side", [("off_left", "left"), ("off_right", "right")])
def test_A11_2_off_road_damage_comes_from_the_zone_legend_of_that_side(event_name, side):
    """A11.2.2 / A12.1: off-road left/right: damage from the terrain bordering that side of the
    loss-of-control space, per the zone legend (grass left, rocks right here)."""
    state, events = crash_on_straight(event_name, stage="straight 12 [grass|rocks]", drivers=2)
    space = space_at(state.stage, 4)
    expected = damage_of(state.stage, space, side)
    assert state.cars[0].pose == event_name
    assert state.cars[0].lost_black == expected
    assert event(events, "damage").params["lost"] == expected
    assert expected == (0 if side == "left" else 2)  # zone A: grass 0, rocks 2


def test_A11_2_left_and_right_follow_the_stage_text_per_space():
    """A11.2.2: the terrain on each side is per space: forest on the right of space 4 only."""
    stage = "straight 5 [grass|grass, grass, grass, forest, grass]"
    state, events = crash_on_straight("off_right", stage=stage, drivers=2)
    assert state.cars[0].lost_black == damage_of(state.stage, space_at(state.stage, 4), "right") == 1


# -- A11.4 shortcut cases (AMB-5) -----------------------------------------------------------------

def test_A11_4_excursion_towards_the_shortcut_lands_on_it_and_draws_a_card():
    """A11.4: an off-road excursion whose side borders the corner's shortcut lands on the
    shortcut instead of the terrain: no terrain damage, but a shortcut card; next turn it
    continues from the shortcut."""
    state = make_game(CORNER, drivers=2, events=["off_left"], deck=["dirty", "good"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 5)
    state, events = act(state, "5")  # H+1 on the interior of a left corner: inside = shortcut
    assert "lands_on_shortcut" in kinds(events) and "shortcut_dirty" in kinds(events)
    assert "damage" not in kinds(events) and state.cars[0].lost_black == 0
    assert state.cars[0].position == ids["shortcut"][0]
    while state.cars[state.turn.car].name != "Ada":
        state, _ = act(state, "1 stop")
    assert state.cars[0].position == ids["shortcut"][0]
    state, _ = act(state, "1")
    assert state.cars[0].position == ids["after"]


def test_A11_4_car_on_the_shortcut_thrown_towards_the_road_resumes_on_the_interior():
    """A11.4 (DE): a car on the shortcut whose excursion side borders the road is put on the
    corner's interior space; next turn it continues from there."""
    state = make_game(CORNER, events=["off_right"], deck=["good"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 5)
    state, events = act(state, "5 cut")  # K4: one over, on the shortcut
    assert "shortcut_good" in kinds(events)  # entering draws the card (A11.4 third case)
    assert "loss_of_control" in kinds(events) and state.cars[0].lost_black == 0
    # single driver: the next turn has started, back on the road
    assert state.cars[0].position == state.stage.spaces[ids["shortcut"][0]].right.link
    assert state.cars[0].position in ids["interior"]


def test_A11_4_loss_of_control_entering_the_shortcut_draws_the_card_then_the_event():
    """A11.4 (EN): loss of control on the die that enters the shortcut: the car is on the
    shortcut and draws the card like any entry; then the event: off to the inside of a left
    corner's shortcut is the terrain (rocks)."""
    state = make_game(CORNER, drivers=2, events=["off_left"], deck=["flat", "good"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 5)
    state, events = act(state, "5 cut")
    ks = kinds(events)
    assert ks.index("shortcut_flat") < ks.index("loss_of_control")
    assert state.cars[0].flats == 1
    assert state.cars[0].lost_black == damage_of(state.stage, ids["shortcut"][0], "left") == 2


# -- A11.5 / A11.6 resuming ------------------------------------------------------------------------

def test_A11_5_a_loss_of_control_while_skidding_resumes_from_the_interior():
    """A11.5: "While skidding: the car resumes from the corner's interior space"."""
    state = make_game(CORNER, events=["spin"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    state, events = act(state, "4 5")  # skid 1, then 5 into skid 2: one over
    assert state.last_path[-1][0] == ids["skid"][1]
    assert "back_on_road" in kinds(events)
    assert state.cars[0].position in ids["interior"]
    assert state.cars[0].pose == "normal"


def test_A11_6_resume_in_gear_0_with_the_1st_gear_die():
    """A11.6: at the start of the next turn the car is back on the road at the loss-of-control
    space, facing forward, in gear 0: phase 1 is the 1st-gear die."""
    state, events = crash_on_straight("spin")
    assert "back_on_road" in kinds(events)
    car = state.cars[0]
    assert car.position == space_at(state.stage, 4) and car.pose == "normal" and car.gear == 0
    assert dice_allowed(state, car, state.turn) == ["1"]
    state, _ = act(state, "1")
    assert state.cars[0].position == space_at(state.stage, 5)


def test_A11_6_resuming_on_a_full_space_places_the_car_anyway_as_arrived_last():
    """A11.6: "If the space is full, it is placed anyway and counts as arrived last"; A13.2: a
    car off the road does not occupy its space, so another car may stop there meanwhile."""
    faces = [False] + [True, True, True] + [False, True, True, True] + [False] * 10
    state = make_game("straight 12 cap 1 [grass|grass]", drivers=2, faces=faces,
                      events=["off_left", "spin"])
    state = play(state, "1 stop")        # round 1: Ada on 1
    state, _ = act(state, "2 3 W")       # round 2: Ada crashes on 4, off the road (left)
    assert state.cars[0].pose == "off_left"
    state, _ = act(state, "1 2 3 4")     # Bea drives onto 4 (Ada is off the road) and spins there
    assert state.cars[1].position == state.cars[0].position == space_at(state.stage, 4)
    # round 3: both in gear 0 on space 4, Ada arrived first: she plays first and is put back
    assert state.cars[state.turn.car].name == "Ada"
    ada, bea = state.cars
    assert ada.pose == "normal" and ada.position == bea.position
    assert ada.arrived > bea.arrived


# -- A11.3 / AMB-20: off the road toward the other lane crosses the road ---------------------------

#: Left corner, no shortcut: grass inside (left), rocks outside (right, beside the skid).
ROCKS_OUTSIDE = """straight 4 [grass|grass]
left 3 skid 4x3 [grass|rocks]
straight 6 [grass|grass]"""

#: Right corner, no shortcut: rocks inside (right, beside the interior), grass outside.
ROCKS_INSIDE = """straight 4 [grass|grass]
right 3 skid 4x3 [grass|rocks]
straight 6 [grass|grass]"""

#: Right corner with a shortcut inside: rocks beyond the shortcut, grass outside.
SHORTCUT_INSIDE = """straight 4 [grass|grass]
right 3 skid 4x3 K4 [grass|rocks]
straight 6 [grass|grass]"""


def test_A11_3_AMB_20_interior_thrown_toward_the_skid_crosses_the_road_into_the_outside_terrain():
    """A11.3 / AMB-20: a car on the interior thrown toward the skid lane is not left on the road
    with no damage: it crosses the road and takes the terrain beyond the road's edge on that side
    (rocks beside the skid: 2 dice in zone A). An over-speed at corner entry puts the car on the
    interior (A8.6), so this is how going off to the outside of a corner hurts."""
    state = make_game(ROCKS_OUTSIDE, drivers=2, events=["off_right"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 5)
    state, events = act(state, "5")  # note 3, H = 4 (skid): one over, on the interior
    interior = ids["interior"][0]
    assert event(events, "loss_of_control").params["space"] == state.stage.label(interior)
    beyond = state.stage.spaces[interior].right.link  # the skid lane beside it ...
    expected = damage_of(state.stage, beyond, "right")  # ... and the rocks beyond its edge
    assert expected == 2
    assert state.cars[0].lost_black == expected
    assert event(events, "damage").params["terrain"] == "rocks"
    assert "off_onto_road" not in kinds(events)
    assert event(events, "off_across_road").params["side"] == "right"
    assert state.cars[0].position == interior  # off the road at the same progress, back on it next turn


def test_A11_3_AMB_20_skid_thrown_toward_the_interior_crosses_the_road_into_the_inside_terrain():
    """A11.3 / AMB-20: a car on the skid thrown toward the interior crosses the interior lane and
    takes the terrain beside it (rocks inside the right corner); it resumes from the interior
    (A11.5)."""
    state = make_game(ROCKS_INSIDE, drivers=2, events=["off_right"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    state, events = act(state, "4 5")  # skid 1, then 5 into skid 2: one over, on the skid
    assert state.last_path[-1][0] == ids["skid"][1]
    interior = state.stage.spaces[ids["skid"][1]].right.link
    assert interior in ids["interior"]
    assert state.cars[0].lost_black == damage_of(state.stage, interior, "right") == 2
    assert event(events, "damage").params["terrain"] == "rocks"
    assert "off_onto_road" not in kinds(events)
    assert "back_on_road" in kinds(events) and state.cars[0].position == interior  # Ada plays on at once


def test_A11_4_AMB_20_skid_thrown_across_the_interior_lands_on_the_shortcut():
    """AMB-20 with A11.4: crossing the interior from the skid, the first thing beyond the road on
    the inside is the corner's shortcut, "the only exception": the car lands on it (no terrain
    damage) and draws a shortcut card, as an excursion from the interior would."""
    state = make_game(SHORTCUT_INSIDE, drivers=2, events=["off_right"], deck=["dirty", "good"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    state, events = act(state, "4 5")
    assert "lands_on_shortcut" in kinds(events) and "shortcut_dirty" in kinds(events)
    assert "damage" not in kinds(events) and state.cars[0].lost_black == 0
    assert state.cars[0].position == ids["shortcut"][0]  # and next turn it continues from there


def test_A11_3_AMB_20_on_greystone_col_going_off_outside_a_corner_hurts():
    """The case seen in real play on Col de Greystone: over-speed into the crest hairpin (rocks
    on both sides, `right 1x2 skid 2x4 [rocks|rocks]`) and off toward its skid: the car crosses
    the road into the rocks instead of sliding onto the skid lane for free."""
    stage = load_stage("greystone-col")
    hairpin = next(c for c in stage.corners if c.direction == "right" and c.interior_note == 1)
    skid = stage.spaces[hairpin.skid[0]]
    assert skid.left.kind == "terrain" and skid.left.terrain is Terrain.ROCKS  # outside of a right corner
    state = make_game(stage, drivers=2, events=["off_left"])
    before = next(s.id for s in stage.spaces if hairpin.interior[0] in s.next and s.corner is None)
    put_car(state, 0, before, 3)
    state, events = act(state, "3")  # H = 2 (skid): one over, on the interior
    assert event(events, "loss_of_control").params["cause"] == "overspeed"
    assert event(events, "damage").params["terrain"] == "rocks"
    assert state.cars[0].lost_black == stage.zones[skid.zone].damage(Terrain.ROCKS, skid.zone in stage.snow_zones) > 0
