"""RULES A9: shortcut cards (good, dirty, flat tire) and flat tires."""

from __future__ import annotations

import pytest
from rules_helpers import CORNER, act, corner_ids, event, kinds, make_game, play, put_car, refused

from bot.engine.rallyman.dice_rules import dice_allowed


def before_corner(gear: int, deck: list[str], **kw):
    state = make_game(CORNER, deck=deck, **kw)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], gear)
    return state, ids


def test_A9_1_card_drawn_on_entering_a_shortcut_goes_under_the_deck():
    """A9.1 / AMB-4: a card is drawn whenever a car enters a shortcut space; it goes to the bottom."""
    state, ids = before_corner(3, deck=["good", "dirty", "flat", "good"])
    state, events = act(state, "3 cut")
    assert kinds(events).count("shortcut_good") == 1
    assert state.deck == ["dirty", "flat", "good", "good"]


def test_A9_1_the_deck_holds_the_OPEN_4_default_mix():
    """A9.1 / OPEN-4: the shortcut deck of a special is 3 good, 2 dirty, 1 flat (ruleset)."""
    state = make_game(CORNER)
    assert sorted(state.deck) == sorted(["good"] * 3 + ["dirty"] * 2 + ["flat"])


def test_A9_2_good_shortcut_has_no_effect():
    """A9.2: "Good shortcut: no effect"."""
    state, ids = before_corner(4, deck=["good"])
    after, events = act(state, "4 cut")
    assert "shortcut_good" in kinds(events)
    assert after.cars[0].flats == 0 and after.dirt == {} and after.turn.whites == 0


def test_A9_3_dirty_corner_puts_a_marker_and_does_not_affect_the_driver():
    """A9.3: "Dirty corner: one dirt marker on this corner. No effect on the drawing driver"."""
    state, ids = before_corner(4, deck=["dirty"])
    state, events = act(state, "4 cut")
    assert state.dirt == {ids["id"]: 1}
    state, _ = act(state, "W")  # carries on normally
    assert state.cars[0].position == ids["after"]
    assert state.cars[0].flats == 0


def test_A9_4_flat_tire_removes_a_white_die_at_once():
    """A9.4: the driver loses one white die at once: 1 flat → at most 1 white die per turn."""
    state, ids = before_corner(4, deck=["flat"])
    state, events = act(state, "4 cut")
    assert event(events, "shortcut_flat").params["flats"] == 1
    assert state.cars[0].flats == 1
    state, _ = act(state, "W")
    refused(state, "W", None, "1 white")


def test_A9_4_the_cap_applies_mid_turn_to_white_dice_already_used():
    """A9.4: "if the number used this turn already reaches the new cap, no more white dice this
    turn": one white used before the flat → none after it."""
    state = make_game("straight 3\nleft 3 skid 4x3 K4\nstraight 6", deck=["flat"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"] - 1, 4)
    state, _ = act(state, "W")
    state, _ = act(state, "3 cut")
    assert state.cars[0].flats == 1
    assert "W" not in dice_allowed(state, state.cars[0], state.turn)
    refused(state, "W", None, "white")
    state, _ = act(state, "4")  # gear dice still allowed
    assert state.cars[0].position == ids["after"]


def test_A9_4_two_flats_leave_no_white_die():
    """A9.4: 2 unrepaired flats → no white die."""
    state, ids = before_corner(4, deck=["flat"])
    state.cars[0].flats = 1
    state, _ = act(state, "4 cut")
    assert state.cars[0].flats == 2
    refused(state, "W", None, "0 white")


def test_A9_4_third_flat_with_two_unrepaired_is_knocked_out():
    """A9.4 / A12.5: "A 3rd flat while the previous 2 are unrepaired → knocked out"."""
    state, ids = before_corner(4, deck=["flat"], faces=[False] * 5)
    state.cars[0].flats = 2
    state, events = act(state, "4 cut")
    assert "flats_ko" in kinds(events)
    assert state.cars[0].status == "out"
    assert state.turn is None and state.finished


def test_A9_4_the_driver_may_keep_driving_with_a_flat():
    """A9.4: "The driver may keep driving with the penalty"."""
    state, ids = before_corner(4, deck=["flat"])
    state = play(state, "4 cut", "5", "stop")
    assert state.cars[0].flats == 1 and state.cars[0].status == "racing"
    state, _ = act(state, "W")
    refused(state, "W")


@pytest.mark.parametrize("card", ["good", "dirty", "flat"])
def test_A9_1_the_hidden_card_does_not_decide_whether_a_roll_is_accepted(card):
    """A9.1: the card is drawn when the car enters the shortcut, face down until then: a roll
    through the shortcut is accepted or refused the same whatever card is on top (no peeking
    at the deck by sending `4 cut W W`); a flat then stops the white die it forbids (A9.4)."""
    state, ids = before_corner(4, deck=[card, "good"])
    state, events = act(state, "4 cut W W")
    assert state.cars[0].position in (ids["after"], ids["after"] + 1)
    if card == "flat":
        assert [p[1] for p in state.turn.path] == ["4", "W"]
        assert "dice_stopped" in kinds(events)
    else:
        assert [p[1] for p in state.turn.path] == ["4", "W", "W"]


def test_A9_1_the_risk_preview_does_not_peek_at_the_deck():
    """A9.1: the preview of a roll through the shortcut is the same whatever card is on top."""
    from bot.engine.rallyman.actions import Roll
    from bot.engine.rallyman.odds import odds

    results = set()
    for card in ("good", "dirty", "flat"):
        state, ids = before_corner(4, deck=[card])
        results.add(odds(state, Roll(("4", "W", "W"), "shortcut")).loss_of_control)
    assert len(results) == 1
