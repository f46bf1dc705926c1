"""The dice rules' refusals as the driver reads them (RULES A6.2, A6.3, A9.4, A12.2): which rule
refused the die, the dice still allowed, and the counts named in the sentence, word for word."""

from __future__ import annotations

from rules_helpers import LONG, act, kinds, make_game, play, put_car, refused, rules_with, space_at

from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.game import legal_actions


def refusal(state, text: str) -> str:
    """The whole refusal text (`refused` also checks that nothing changed)."""
    return str(refused(state, text))


def dice_offered(state) -> set[str]:
    """The first dice of the rolls offered to the driver (what the autocomplete lists)."""
    return {a.dice[0] for a in legal_actions(state) if isinstance(a, Roll)}


def test_A6_2_in_neutral_the_first_die_must_be_the_1st_gear_die_and_is_named_so():
    """A6.2: from neutral only the 1 may start; the refusal says it is the neutral rule, not the
    one-gear-apart rule."""
    assert refusal(make_game(LONG), "3") == \
        "In neutral the first die is the 1st-gear die (rulebook ART.3): you may roll 1."


def test_A6_2_in_1st_a_die_two_gears_up_is_refused_as_not_adjacent():
    """A6.2: in 1st at the start of a turn the 1, the 2 or a white die may come; a 4 is refused by
    the one-gear-apart rule (not the neutral one)."""
    state = play(make_game(LONG), "1 stop")
    assert refusal(state, "4") == \
        "Die 4 is not allowed: you are in 1st, so you may roll 1, 2 or white (rulebook ART.3)."


def test_A6_3_A12_2_white_dice_do_not_use_up_the_gear_dice_left_after_damage():
    """A12.2: 2 lost, so 3 gear dice a turn; after `1 W 2` two gear dice are used (the white is
    not one of them): the 3 is still allowed, and the refusal of a 5 says so."""
    state = make_game(LONG)
    state.cars[0].lost_black = 2
    state, _ = act(state, "1 W 2")
    assert refusal(state, "5") == \
        "Die 5 is not allowed: you are in 2nd, so you may roll 3 or white (rulebook ART.3)."
    state, _ = act(state, "3")
    assert state.turn.used == ["1", "W", "2", "3"]


def test_A12_2_one_gear_die_left_is_named_in_the_singular():
    """A12.2: 4 lost: one gear die a turn, and the sentence says "1 gear die"; once it is used only
    white dice are offered, and the 1 again is refused naming white as what is left."""
    state = make_game(LONG)
    state.cars[0].lost_black = 4
    state, _ = act(state, "1")
    assert refusal(state, "2") == \
        "No gear die left: damage allows 1 gear die per turn (4 lost, rulebook ART.8)."
    assert refusal(state, "1") == "Die 1 is already used this turn (each die once, rulebook ART.3): you may roll white."
    assert dice_offered(state) == {"W"}


def test_A9_4_one_flat_leaves_one_white_die_named_in_the_singular():
    """A9.4: 1 flat: one white die a turn; the second is refused saying "1 white die"."""
    state = make_game(LONG)
    state.cars[0].flats = 1
    put_car(state, 0, space_at(state.stage, 3), 2)
    state, _ = act(state, "W")
    assert refusal(state, "W") == \
        "No white die left: you may use 1 white die this turn (1 flat tire(s), rulebook ART.5)."


def test_A12_2_a_house_rule_of_three_gear_dice_with_three_lost_leaves_only_white_dice():
    """A12.2 with a house rule of 3 gear dice (DiceSpec allows 1-5) and 3 lost, the car still
    racing (knocked out only at 5 lost): no gear die at all — the refusal says 0 — and once its two
    white dice are used the turn ends by itself, on the card of its gear (A6.4)."""
    state = make_game(LONG, ruleset=rules_with(dice={"black_dice": 3}))
    state.cars[0].lost_black = 3
    put_car(state, 0, space_at(state.stage, 3), 2)
    assert refusal(state, "2") == \
        "No gear die left: damage allows 0 gear dice per turn (3 lost, rulebook ART.8)."
    assert dice_offered(state) == {"W"}
    state, events = act(state, "W W")
    assert kinds(events) == ["die", "die", "stop", "turn"]
    assert state.cars[0].position == space_at(state.stage, 5) and state.cars[0].pile[-1].gear == 2
