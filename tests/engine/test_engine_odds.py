"""The risk preview: exact odds of losing control for a planned roll (RULES A1 OPEN-1 faces,
A11.1 triggers)."""

from __future__ import annotations

import pytest
from rules_helpers import CORNER, LONG, act, corner_ids, make_game, put_car

from bot.engine.actions import Roll
from bot.engine.ai import choose_action
from bot.engine.game import apply, legal_actions, new_game
from bot.engine.moves import resolve
from bot.engine.odds import die_risk, odds
from bot.engine.simulate import ai_seats


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
