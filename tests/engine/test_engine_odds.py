"""The risk preview: exact odds of losing control for a planned roll (RULES A1 OPEN-1 faces,
A11.1 triggers)."""

from __future__ import annotations

import itertools
import math

import pytest
from rules_helpers import CLEAN, CORNER, LONG, act, corner_ids, event, kinds, make_game, put_car, rules_with, space_at

from bot.engine.rallyman.actions import Attack, Roll
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.moves.move import resolve
from bot.engine.rallyman.odds import die_risk, odds
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.model import SpaceKind


def test_A11_1_odds_hand_calculation_three_dice_one_hazard_already():
    """Dice with 1/6, 1/6 and 2/6 ⚠ faces and one ⚠ already counted: loss of control needs two
    more ⚠ among the three: p1p2 + p1p3 + p2p3 - 2·p1p2p3 = (3 + 6 + 6 - 2)/108 = 13/108."""
    state = make_game(LONG, faces=[True])
    state, _ = act(state, "1")
    assert state.turn.hazards == 1
    result = odds(state, Roll(("2", "3", "4")))
    assert result.loss_of_control == pytest.approx(13 / 108)
    assert result.knocked_out == 0.0
    assert result.percent == "12.0%"


def test_OPEN_1_odds_with_no_hazard_counted_yet():
    """No ⚠ yet: all three dice must show ⚠: 1/6·1/6·1/6 = 1/216 for dice 1-2-3, and
    1/6·1/6·2/6 = 1/108 for dice 2-3-4."""
    state = make_game(LONG)
    assert odds(state, Roll(("1", "2", "3"))).loss_of_control == pytest.approx(1 / 216)
    state = play_first(state)
    assert odds(state, Roll(("2", "3", "4"))).loss_of_control == pytest.approx(1 / 108)


def play_first(state):
    state, _ = act(state, "1")
    return state


def test_A8_6_odds_of_a_certain_overspeed_is_one():
    """A8.6: an over-speed is certain, whatever the dice show."""
    state = make_game(CORNER)
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    result = odds(state, Roll(("5",)))
    assert result.loss_of_control == 1.0 and result.knocked_out == 0.0


def test_A8_6_odds_of_a_certain_knock_out_is_one():
    """A8.6: three over H is a certain knock-out."""
    state = make_game("straight 3\nleft 1 skid 2x3\nstraight 3")
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    result = odds(state, Roll(("5",)))
    assert result.loss_of_control == 1.0 and result.knocked_out == 1.0


def test_A10_1_odds_bump_at_one_over_is_the_hazard_chance_of_that_die():
    """A10.1: bump at N+1: loss of control exactly when that die shows ⚠ (die 4: 2/6)."""
    state = make_game("straight 3\nbump 3\nstraight 4")
    put_car(state, 0, 2, 4)
    assert odds(state, Roll(("4",))).loss_of_control == pytest.approx(2 / 6)


def test_A11_1_odds_change_nothing():
    """The risk preview rolls nothing and changes nothing: the dice to come stay unknown."""
    state = make_game(LONG, faces=[True])
    state, _ = act(state, "1")
    before = state.to_dict()
    odds(state, Roll(("2", "3", "4", "5", "W", "W")))
    assert state.to_dict() == before


@pytest.mark.parametrize("stage, seed", [("pinewood-sprint", 1), ("frozen-lakes", 2), ("hollowell-winter", 3)])
def test_A11_1_die_risk_equals_odds_for_every_single_die_plan(stage, seed):
    """`die_risk` (the AI's quick one-die risk) is the one-die case of `odds`, in every position
    of an AI special (⚠ counts 0-2, corners, bumps, snow)."""
    state = new_game(stage, ai_seats(3), seed=seed)
    compared = 0
    while state.turn is not None:
        ci = state.turn.car
        for action in legal_actions(state):
            if not isinstance(action, Roll):
                continue
            die = action.dice[0]
            g = int(die) if die != "W" else state.turn.gear
            move = resolve(state, ci, g, action.line, die != "W")
            assert die_risk(state, die, move) == pytest.approx(odds(state, action).loss_of_control), str(action)
            compared += 1
        state, _ = apply(state, choose_action(state))
    assert compared > 100


# -- what a user's complaint would have led to: SISU, shakedown, snow on asphalt tires, time attack --

SISU = {"sisu": True}
SHAKE = {"shakedown": True}
BUMP = "straight 3\nbump 3\nstraight 8"
#: Zone A on its snow side: road spaces 1-2 snow, 3-4 cleared (asphalt), 5-12 snow (as in A20 tests).
MIXED = """snow: A
start
zone A
straight 2 [grass|grass]
straight 2 clear [grass|grass]
straight 8 [grass|grass]
finish"""
#: A hairpin (H = 2 on its skid) after four spaces: a 5 into it is three over, a knock-out (A8.6).
HAIRPIN = "straight 4\nleft 1 skid 2x3\nstraight 3"


def sisu_saved(stage: str, ruleset=None):
    """Three ⚠ on dice 1 2 3: SISU (A22) cancels the loss of control; the turn goes on."""
    state = make_game(stage, faces=[True] * 3, ruleset=ruleset or "classic", modules=None if ruleset else SISU)
    state, events = act(state, "1 2 3")
    assert "sisu" in kinds(events) and "loss_of_control" not in kinds(events)
    return state


def before_bump(gear: int, **kw):
    state = make_game(BUMP, **kw)
    bump = next(s for s in state.stage.spaces if s.kind is SpaceKind.BUMP)
    return put_car(state, 0, space_at(state.stage, bump.index - 1), gear)


def asphalt_tires(state):
    state.cars[0].tires = "asphalt"
    return state


def test_A22_AMB_11_after_sisu_the_odds_of_the_rest_of_the_turn_count_no_hazard():
    """A22 / AMB-11 (default scope: the rest of the turn): once SISU is played, ⚠ no longer count,
    so `/odds 4 5 W W` is 0 % — with two ⚠ counted and no SISU it would be
    1 − 4/6 · 4/6 · 5/6 · 5/6 = 44 %. With the option `sisu_scope: die` the card saved only the
    triggering die: two ⚠ are still counted and the 4 alone loses control on ⚠: 2/6."""
    state = sisu_saved(LONG)
    assert state.turn.sisu_active and state.turn.hazards == 2
    assert odds(state, Roll(("4", "5", "W", "W"))).loss_of_control == 0.0
    state.turn.sisu_active = False  # the same position without the card played
    assert odds(state, Roll(("4", "5", "W", "W"))).loss_of_control == pytest.approx(1 - (4 * 4 * 5 * 5) / 6 ** 4)
    by_die = sisu_saved(LONG, rules_with(sisu_scope="die").with_modules(sisu=True))
    assert not by_die.turn.sisu_active
    assert odds(by_die, Roll(("4",))).loss_of_control == pytest.approx(2 / 6)


def test_A22_sisu_does_not_save_a_corner_taken_too_fast_in_the_odds_either():
    """A22: SISU "cannot save a corner taken too fast": after it, a plan into the corner in 5th
    (interior 3: two over) is a certain loss of control, not a knock-out; into a hairpin (three
    over, A8.6) a certain knock-out. The private preview shows the second line only then."""
    state = sisu_saved(CORNER)
    result = odds(state, Roll(("4", "5")))
    assert (result.loss_of_control, result.knocked_out, result.percent) == (1.0, 0.0, "100.0%")
    assert odds(state, Roll(("4",))).loss_of_control == 0.0
    ko = odds(sisu_saved(HAIRPIN), Roll(("4", "5")))
    assert (ko.loss_of_control, ko.knocked_out) == (1.0, 1.0)


def test_A23_in_a_shakedown_the_odds_count_no_hazard_only_certain_losses():
    """A23: in a shakedown ⚠ are ignored: seven dice of one turn are 0 % (outside a shakedown the
    same plan is lost on any three ⚠ among faces of chance 1/6, 1/6, 1/6, 1/6, 2/6, 1/6, 2/6:
    counted here pattern by pattern); before a bump 3 in 4th the 4 (N+1) is 0 % instead of its
    ⚠ chance 2/6, while the 5 (N+2, A10.1) is still a certain loss of control."""
    plan = Roll(("1", "2", "W", "3", "4", "W", "5"))
    assert odds(make_game(LONG, modules=SHAKE), plan).loss_of_control == 0.0
    chances = [1 / 6, 1 / 6, 1 / 6, 1 / 6, 2 / 6, 1 / 6, 2 / 6]
    three = sum(math.prod(p if face else 1 - p for p, face in zip(chances, faces))
                for faces in itertools.product([False, True], repeat=7) if sum(faces) >= 3)
    assert odds(make_game(LONG), plan).loss_of_control == pytest.approx(three)
    bump = before_bump(4, modules=SHAKE)
    assert odds(bump, Roll(("4",))).loss_of_control == 0.0
    assert odds(before_bump(4), Roll(("4",))).loss_of_control == pytest.approx(2 / 6)
    result = odds(bump, Roll(("5",)))
    assert (result.loss_of_control, result.knocked_out) == (1.0, 0.0)


def test_A20_3_AMB_8_odds_of_a_plan_across_snow_and_asphalt_on_asphalt_tires():
    """A20.3 / AMB-8: on asphalt tires 2 ⚠ on snow spaces lose control, 3 anywhere too; each ⚠
    belongs to the space its die entered. `1 2 3 4` from the start enters snow, snow, asphalt,
    asphalt (⚠ chances 1/6, 1/6, 1/6, 2/6): lost when dice 1 and 2 both show ⚠ (36/1296), or when
    one of them and both dice 3 and 4 do (2 · 5 · 1 · 2 = 20/1296): 56/1296. On snow tires only
    the 3-⚠ limit counts: 1·1·1·2 + 3 · 5·1·1·2 + 1·1·1·4 = 36/1296."""
    state = asphalt_tires(make_game(MIXED))
    assert odds(state, Roll(("1", "2", "3", "4"))).loss_of_control == pytest.approx(56 / 1296)
    state.cars[0].tires = "snow"
    assert odds(state, Roll(("1", "2", "3", "4"))).loss_of_control == pytest.approx(36 / 1296)


def test_A20_3_AMB_8_odds_after_a_hazard_on_snow_back_into_snow_after_asphalt():
    """A20.3 / AMB-8: one ⚠ already on snow (space 1). `2 3 4 5` enters snow, asphalt, asphalt,
    snow: any ⚠ on the 2 or the 5 is the second on snow; on the asphalt dice two ⚠ reach 3 in all.
    Safe: 5/6 (die 2) · 4/6 (die 5) · (1 − 1/6 · 2/6) (not both 3 and 4) = 680/1296, so the odds
    are 616/1296 = 47.5 %."""
    state = asphalt_tires(make_game(MIXED, faces=[True] + CLEAN))
    state, _ = act(state, "1")
    assert (state.turn.hazards, state.turn.snow_hazards) == (1, 1)
    result = odds(state, Roll(("2", "3", "4", "5")))
    assert result.loss_of_control == pytest.approx(616 / 1296)
    assert result.percent == "47.5%"


def test_A20_3_AMB_8_option_turn_scope_odds_count_every_hazard_once_the_car_met_snow():
    """AMB-8 option `snow_threshold_scope: turn`: once a ⚠ was counted on snow, 2 ⚠ in all lose
    control on asphalt tires, whatever the surface. After a ⚠ on snow space 1, `2 3` (snow, then
    asphalt) loses control if either die shows ⚠: 1 − 5/6 · 5/6 = 11/36 (11/36 by the engine too,
    see test_a20_weather_tires); without the option only the 2 counts: 1/6. The AI's one-die risk
    agrees: the 3 alone, on asphalt, is 1/6 with the option."""
    turn_scope = asphalt_tires(make_game(MIXED, faces=[True] + CLEAN, ruleset=rules_with(snow_threshold_scope="turn")))
    turn_scope, _ = act(turn_scope, "1")
    assert odds(turn_scope, Roll(("2", "3"))).loss_of_control == pytest.approx(11 / 36)
    surface = asphalt_tires(make_game(MIXED, faces=[True] + CLEAN))
    surface, _ = act(surface, "1")
    assert odds(surface, Roll(("2", "3"))).loss_of_control == pytest.approx(1 / 6)
    put_car(turn_scope, 0, space_at(turn_scope.stage, 2), 2)
    turn_scope.turn.hazards = turn_scope.turn.snow_hazards = 1  # a ⚠ counted on snow this turn
    move = resolve(turn_scope, 0, 3, None, True)
    assert die_risk(turn_scope, "3", move) == pytest.approx(1 / 6)
    assert odds(turn_scope, Roll(("3",))).loss_of_control == pytest.approx(1 / 6)


def test_A8_6_a_plan_ending_too_fast_into_a_corner_is_certain_whatever_comes_before():
    """A8.6 / A11.1: two ⚠ counted, `3 4 5`: the 3 or the 4 may lose control on ⚠ first, and if
    neither does the 5 takes the corner two over: 100 % in all (not just the 5/6 · 4/6 left)."""
    state = make_game(CORNER, faces=[True, True])
    state, _ = act(state, "1 2")
    assert state.turn.hazards == 2
    result = odds(state, Roll(("3", "4", "5")))
    assert (result.loss_of_control, result.knocked_out) == (1.0, 0.0)


def test_A18_odds_of_a_time_attack_group_through_the_odds_command():
    """A18: `/odds attack 3 4 5` from 3rd on a straight: lost only with three ⚠, whatever the
    order chosen: 1/6 · 2/6 · 2/6 (the time-attack odds, test_a18_a19_attack_markers)."""
    state = put_car(make_game(LONG, modules={"attack": True}), 0, space_at(make_game(LONG).stage, 5), 3)
    assert odds(state, Attack(("3", "4", "5"))).loss_of_control == pytest.approx(1 / 6 * 2 / 6 * 2 / 6)


@pytest.mark.parametrize("where", ["shakedown bump", "after sisu", "snow first space", "turn scope first snow"])
def test_A11_1_die_risk_equals_odds_in_a_shakedown_after_sisu_and_on_the_first_space(where):
    """The AI's one-die risk agrees with `/odds` where the hand-made games of the AI specials do not
    go: a shakedown (A23: the 4 at a bump N+1 is 0, the 5 at N+2 certain), a turn after SISU (A22:
    0 but the corner too fast), asphalt tires onto snow on the very first road space under a
    house rule of 1 ⚠ on snow (A20.3: the 1 is its own ⚠ chance, 1/6), and with the AMB-8 option
    `snow_threshold_scope: turn` before any ⚠ (one ⚠ on snow is still allowed: 0)."""
    if where == "shakedown bump":
        state, expected = before_bump(4, modules=SHAKE), {"4": 0.0, "5": 1.0}
    elif where == "after sisu":
        state, expected = sisu_saved(CORNER), {"4": 0.0, "W": 0.0}
    elif where == "snow first space":
        state = asphalt_tires(make_game(MIXED, ruleset=rules_with(snow_hazard_limit=1)))
        expected = {"1": 1 / 6}
    else:
        state = asphalt_tires(make_game(MIXED, ruleset=rules_with(snow_threshold_scope="turn")))
        expected = {"1": 0.0}
    seen = {}
    for action in legal_actions(state):
        if isinstance(action, Roll) and len(action.dice) == 1:
            die = action.dice[0]
            g = int(die) if die != "W" else state.turn.gear
            risk = die_risk(state, die, resolve(state, state.turn.car, g, action.line, die != "W"))
            assert risk == pytest.approx(odds(state, action).loss_of_control), str(action)
            seen[die] = risk
    assert {die: seen[die] for die in expected} == pytest.approx(expected)


def test_A20_3_the_die_crossing_the_finish_line_is_not_a_hazard_on_snow():
    """A20.3: a ⚠ belongs to the space the die entered; the finish line is no snow space. On
    asphalt tires with one ⚠ on snow, a 3 onto snow space 12 is its ⚠ chance 1/6, but from space
    12 the 3 across the finish is 0 % in the preview and for the AI, and indeed the car finishes
    on a ⚠ there."""
    def one_hazard_on_snow_arriving_at(index: int):
        state = asphalt_tires(make_game(MIXED, faces=[True, True] + CLEAN))
        put_car(state, 0, space_at(state.stage, index - 1), 1)
        state, _ = act(state, "2")
        assert (state.turn.hazards, state.turn.snow_hazards) == (1, 1)
        return state

    assert odds(one_hazard_on_snow_arriving_at(11), Roll(("3",))).loss_of_control == pytest.approx(1 / 6)
    state = one_hazard_on_snow_arriving_at(12)
    assert odds(state, Roll(("3",))).loss_of_control == 0.0
    assert die_risk(state, "3", resolve(state, 0, 3, None, True)) == 0.0
    finished, events = act(state, "3")
    assert event(events, "die").params["hazard"] == "⚠" and "loss_of_control" not in kinds(events)
    assert "finish" in kinds(events)
