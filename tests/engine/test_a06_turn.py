"""RULES A6: the turn (first die, chaining, ⚠, dice caps, gear card) and AMB-15."""

from __future__ import annotations

import pytest
from rules_helpers import LONG, act, gear_cards, kinds, make_game, play, put_car, refused, space_at

from bot.engine.rallyman.dice_rules import dice_allowed
from bot.engine.rallyman.game import legal_actions


def _in_gear(gear: int, **kw):
    """A car on space 5 of a long straight at the start of a turn in `gear`."""
    state = make_game(LONG, **kw)
    return put_car(state, 0, space_at(state.stage, 5), gear)


def _allowed(state) -> list[str]:
    return dice_allowed(state, state.cars[state.turn.car], state.turn)


# -- A6.2 first die ------------------------------------------------------------------------------

def test_A6_2_first_die_in_neutral_must_be_1():
    """A6.2: "Car in gear 0: the 1st-gear die, nothing else"."""
    state = make_game(LONG)
    assert _allowed(state) == ["1"]
    for text in ("2", "3", "4", "5", "W"):
        refused(state, text)
    state, _ = act(state, "1")
    assert state.turn.gear == 1


@pytest.mark.parametrize("gear, allowed", [
    (1, ["1", "2", "W"]), (2, ["1", "2", "3", "W"]), (3, ["2", "3", "4", "W"]),
    (4, ["3", "4", "5", "W"]), (5, ["4", "5", "W"]),
])
def test_A6_2_first_die_is_one_below_same_or_one_above_or_white(gear, allowed):
    """A6.2: otherwise the gear die for current gear -1, the same gear, or +1; or a white die;
    A6.3.8: the gear range is 1-5. Example: in 3rd → die 2, 3, 4 or white."""
    state = _in_gear(gear)
    assert _allowed(state) == allowed
    for die in allowed:
        after, _ = act(state, die)
        assert after.cars[0].position == space_at(state.stage, 6)
    for die in {"1", "2", "3", "4", "5"} - set(allowed):
        refused(state, die, None, "you may roll")


def test_A6_2_in_3rd_roll_5_is_refused_naming_2_3_4_or_white():
    """A6.2 example: in 3rd → die 2, 3, 4 or white; the refusal says so."""
    state = _in_gear(3)
    refused(state, "5", None, "3rd", "2, 3, 4 or white")
    refused(state, "1", None, "2, 3, 4 or white")


# -- A6.3 chaining -------------------------------------------------------------------------------

def test_A6_3_1_each_die_at_most_once_per_turn():
    """A6.3.1: "Each die at most once per turn"."""
    state = make_game(LONG)
    state = play(state, "1", "2")
    refused(state, "1", None, "already used")
    state = _in_gear(3)
    state = play(state, "W", "W")
    refused(state, "W", None)  # both white dice used


@pytest.mark.parametrize("sequence", ["4 3 2 1", "2 3 4 5", "3 4 5", "3 2 1", "W 4 W 5", "2 W 1 W"])
def test_A6_3_2_consecutive_gear_dice_from_3rd_are_legal(sequence):
    """A6.3.2: "from 3rd: 4-3-2-1 and 2-3-4-5 are legal"; whites keep the gear in between."""
    state = _in_gear(3)
    start = state.cars[0].position
    state, _ = act(state, sequence)
    n = len(sequence.split())
    assert state.cars[0].position == space_at(state.stage, 5 + n) and start != state.cars[0].position
    used = state.turn.used if state.turn.started else [p[1] for p in state.last_path]
    assert used == sequence.split()


@pytest.mark.parametrize("sequence, bad", [("2 1 2", "2"), ("3 5", "5"), ("4 3 5", "5"), ("2 4", "4")])
def test_A6_3_2_gear_die_must_be_exactly_one_above_or_below(sequence, bad):
    """A6.3.2: a gear die must be exactly one above or below the current gear; 2-1-2 is not
    legal. A refused roll changes nothing."""
    state = _in_gear(3)
    refused(state, sequence)
    *ok, last = sequence.split()
    state = play(state, *ok)
    refused(state, last, None, "not allowed" if last != "2" else "already used")


def test_A6_3_2_same_gear_die_only_as_the_first_die_of_the_turn():
    """A6.3.2: "the 'same gear' option exists only for the first die": after a white first die
    in 3rd, the next gear die is 2 or 4, not 3."""
    state = _in_gear(3)
    state, _ = act(state, "W")
    assert _allowed(state) == ["2", "4", "W"]
    refused(state, "3", None, "2, 4 or white")


def test_A6_3_3_white_dice_at_any_point_keep_the_gear():
    """A6.3.3: white dice may be used first, between gear dice or last while the gear is ≥ 1;
    they keep the current gear."""
    state = make_game(LONG)
    state = play(state, "1", "W", "2", "W")
    assert state.turn.gear == 2
    assert state.cars[0].position == space_at(state.stage, 4)
    state = play(state, "stop")
    assert gear_cards(state) == [("gear", 2, 40)]


def test_A6_3_3_no_white_die_in_gear_0():
    """A6.3.3: white dice only while the current gear is ≥ 1."""
    state = make_game(LONG)
    refused(state, "W", None, "neutral")
    refused(state, "W 1")


def test_A6_3_5_hazards_of_black_and_white_dice_accumulate_to_a_loss_of_control():
    """A6.3.5: ⚠ from every die used this turn (black and white) accumulate; reaching 3 is a loss
    of control and the turn ends."""
    state = make_game(LONG, faces=[True, False, True, True], events=["spin"])
    state, _ = act(state, "1 W 2")
    assert state.turn.hazards == 2
    state, events = act(state, "W")
    assert "loss_of_control" in kinds(events)
    assert state.cars[0].pile[-1].kind == "loc"
    assert state.cars[0].position == space_at(state.stage, 4)


def test_A6_3_5_hazards_do_not_carry_over_to_the_next_turn():
    """A6.3.5: the ⚠ count is per turn."""
    state = make_game(LONG, faces=[True, True, True])
    state = play(state, "1 2 stop")
    assert state.turn.hazards == 0
    state, events = act(state, "2")
    assert state.turn.hazards == 1 and "loss_of_control" not in kinds(events)


def test_A6_3_6_gear_dice_capped_by_lost_black_dice():
    """A6.3.6 / A12.2: black dice = 5 - lost black dice (a count, not particular gears)."""
    state = make_game(LONG)
    state.cars[0].lost_black = 2
    state = play(state, "1", "2", "3")
    refused(state, "4", None, "3 gear dice", "2 lost")
    state, _ = act(state, "W")  # white dice are not black dice
    assert state.turn.used == ["1", "2", "3", "W"]


def test_A6_3_6_white_dice_capped_by_flats():
    """A6.3.6: white = 2 - unrepaired flats."""
    state = _in_gear(3)
    state.cars[0].flats = 1
    state, _ = act(state, "W")
    refused(state, "W", None, "1 white", "flat")
    state = _in_gear(3)
    state.cars[0].flats = 2
    refused(state, "W", None, "0 white")
    assert "W" not in _allowed(state)


def test_A6_3_7_at_least_one_die_per_turn():
    """A6.3.7: at least one die per turn; stopping before any die is refused."""
    state = _in_gear(3)
    refused(state, "stop", None, "at least one die")
    assert all(str(a) != "stop" for a in legal_actions(state))
    state, _ = act(state, "3")
    assert "stop" in [str(a) for a in legal_actions(state)]


# -- A6.4 gear card / AMB-15 ----------------------------------------------------------------------

def test_A6_4_gear_card_of_the_last_gear_die():
    """A6.4: the driver takes the card of the gear of the last gear die used."""
    state = _in_gear(3)
    state = play(state, "4 3 2 stop")
    assert state.cars[0].pile[-1].gear == 2 and state.cars[0].pile[-1].seconds == 40
    assert state.cars[0].gear == 2


def test_A6_4_last_die_white_gives_the_card_of_the_last_gear_die_before_it():
    """A6.4: "if the last die was white, the card of the last gear die used before it"."""
    state = _in_gear(3)
    state = play(state, "4 W stop")
    assert state.cars[0].pile[-1].gear == 4


def test_AMB_15_white_only_turn_gives_the_card_of_the_current_gear():
    """A6.4 / AMB-15: if the turn used only white dice, the card of the current gear."""
    state = _in_gear(3)
    state = play(state, "W W stop")
    assert [c[:2] for c in gear_cards(state)][-1] == ("gear", 3)
    assert state.cars[0].gear == 3
    # and the next turn starts in 3rd again
    assert _allowed(state) == ["2", "3", "4", "W"]


def test_A6_4_gear_card_sets_the_gear_of_the_next_turn():
    """A6.4: the number of the card is the current gear for the next turn."""
    state = make_game(LONG)
    state = play(state, "1 2 3 4 stop")
    assert state.turn.gear == 4 and _allowed(state) == ["3", "4", "5", "W"]


def test_A6_4_the_turn_ends_by_itself_when_no_die_is_left():
    """A6.4: "When the driver stops (no dice left, or by choice), he takes the gear card": after
    the last usable die the card is taken without a `stop`."""
    state = _in_gear(3)
    state, events = act(state, "4 5 W W")  # 3 is out of reach from 5, 4 is used: no die left
    assert "stop" in kinds(events)
    assert state.cars[0].pile[-1].gear == 5 and not state.turn.started
    state = _in_gear(3)
    state.cars[0].lost_black = 4
    state.cars[0].flats = 2
    state, events = act(state, "3")        # one gear die, no white die: that was all
    assert "stop" in kinds(events) and state.cars[0].pile[-1].gear == 3


def test_A6_4_the_turn_goes_on_while_a_die_is_left():
    """A6.4: with a die left the driver chooses when to stop."""
    state = _in_gear(3)
    state, events = act(state, "4 5 W")
    assert "stop" not in kinds(events) and state.turn.started
