"""Which dice a DIRT car may use now, and a specific refusal naming what is allowed for each
illegal one (RULES B6.2–B6.6, B13.4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.core.errors import NotAllowed
from bot.engine.dirt.dice_rules import DiceLeft, DiceTurn, Step, allowed_steps, check_step, dice_left
from bot.engine.dirt.ruleset import load_ruleset

RULES = load_ruleset()
GRAVEL = dice_left(RULES, leading=False)
LEADER = dice_left(RULES, leading=True)


def allowed(turn: DiceTurn, left: DiceLeft = GRAVEL) -> list[tuple[str, int]]:
    return [(s.die, s.brakes) for s in allowed_steps(turn, left)]


def refusal(turn: DiceTurn, step: Step, left: DiceLeft = GRAVEL) -> NotAllowed:
    with pytest.raises(NotAllowed) as caught:
        check_step(turn, left, step)
    return caught.value


def test_B6_2_from_speed_0_the_first_die_is_gear_1():
    assert allowed(DiceTurn(0)) == [("1", 0)]
    error = refusal(DiceTurn(0), Step("2"))
    assert error.message.key == "dirt.standstill_first_gear"
    assert str(error) == "At speed 0 the first die must be gear die 1: you may play gear die 1."
    assert error.allowed == ("1",)


def test_B6_2_gear_dice_chain_one_up_same_or_one_down():
    assert allowed(DiceTurn(4)) == [("5", 0), ("4", 0), ("3", 0), ("2", 1), ("coast", 0)]
    assert allowed(DiceTurn(4, used=("4",))) == [("5", 0), ("3", 0), ("2", 1), ("coast", 0)]
    for die in ("5", "4", "3"):
        check_step(DiceTurn(4), GRAVEL, Step(die))


def test_B6_2_a_gear_jump_of_two_up_is_refused_naming_what_is_allowed():
    error = refusal(DiceTurn(3), Step("5"))
    assert error.message.key == "dirt.gear_not_adjacent"
    assert str(error).startswith("Gear die 5 is too high: you are in gear 3")
    assert str(error).endswith("You may play gear die 4, gear die 3, gear die 2, gear die 1 with 1 brake die "
                               "or coast die.")


def test_B6_5_a_drop_of_two_needs_a_brake_die():
    error = refusal(DiceTurn(4), Step("2"))
    assert error.message.key == "dirt.gear_drop_needs_brake"
    assert "From gear 4 to gear die 2 you need 1 brake die" in str(error)
    check_step(DiceTurn(4), GRAVEL, Step("2", brakes=1))  # Patrick's example: 4th → 2 + brake skips 3rd


def test_B6_5_each_brake_die_lets_the_gear_drop_one_step_more():
    two_brakes = DiceLeft(GRAVEL.gears, GRAVEL.coast, 0, 2)
    assert ("1", 2) in allowed(DiceTurn(4), two_brakes)
    check_step(DiceTurn(4), two_brakes, Step("1", brakes=2))
    error = refusal(DiceTurn(5), Step("1", brakes=1), two_brakes)
    assert error.message.key == "dirt.gear_drop_needs_brake"
    assert "you need 3 brake dice" in str(error)


def test_B6_5_only_as_many_brake_dice_as_the_dashboard_offers():
    error = refusal(DiceTurn(4), Step("1", brakes=2))
    assert error.message.key == "dirt.no_brake_left"
    assert "1 left this turn" in str(error)
    used = DiceTurn(5, used=("5", "brake"))  # the one brake die went with an earlier gear die
    assert refusal(used, Step("2", brakes=1)).message.key == "dirt.no_brake_left"


def test_B6_5_brake_die_without_a_gear_die_is_refused():
    error = refusal(DiceTurn(3), Step("brake"))
    assert error.message.key == "dirt.brake_alone"
    assert "only played together with a gear die" in str(error)
    assert refusal(DiceTurn(3), Step("coast", brakes=1)).message.key == "dirt.brake_alone"


def test_B6_5_a_brake_die_that_skips_nothing_is_refused():
    error = refusal(DiceTurn(4), Step("3", brakes=1))
    assert error.message.key == "dirt.brake_not_needed"
    assert refusal(DiceTurn(0), Step("1", brakes=1)).message.key == "dirt.brake_not_needed"


def test_B6_5_never_below_gear_1():
    two_brakes = DiceLeft(GRAVEL.gears, GRAVEL.coast, 0, 3)
    assert all(int(d) >= 1 for d, _ in allowed(DiceTurn(6), two_brakes) if d.isdigit())
    assert refusal(DiceTurn(1), Step("0")).message.key == "dirt.unknown_die"


def test_B6_3_coast_keeps_the_gear_and_is_not_usable_at_speed_0():
    check_step(DiceTurn(3), GRAVEL, Step("coast"))
    check_step(DiceTurn(3, used=("coast", "4")), GRAVEL, Step("coast"))  # the second coast die
    error = refusal(DiceTurn(0), Step("coast"))
    assert error.message.key == "dirt.side_die_at_standstill"
    assert str(error) == "You cannot play a coast die at speed 0: the first die is gear die 1. You may play gear die 1."


def test_B6_6_each_coast_die_once_per_turn():
    error = refusal(DiceTurn(3, used=("coast", "coast")), Step("coast"))
    assert error.message.key == "dirt.no_side_die_left"
    assert str(error).startswith("No coast die left this turn")


def test_B6_4_leader_dice_only_for_the_first_player():
    error = refusal(DiceTurn(3), Step("leader"))
    assert error.message.key == "dirt.leader_not_leading"
    assert "only for the first player of the round" in str(error)
    assert str(error).endswith("or coast die.")


def test_B6_4_the_leader_plays_leader_dice_instead_of_coast_dice():
    turn = DiceTurn(3, leading=True)
    assert ("leader", 0) in allowed(turn, LEADER) and ("coast", 0) not in allowed(turn, LEADER)
    check_step(turn, LEADER, Step("leader"))
    error = refusal(turn, Step("coast"), LEADER)
    assert error.message.key == "dirt.coast_when_leading"
    assert str(error).endswith("or leader die.")
    assert refusal(DiceTurn(0, leading=True), Step("leader"), LEADER).message.key == "dirt.side_die_at_standstill"
    done = DiceTurn(3, used=("leader", "leader"), leading=True)
    assert refusal(done, Step("leader"), LEADER).message.key == "dirt.no_side_die_left"


def test_B6_4_leader_dice_lapse_once_someone_has_finished():
    turn = DiceTurn(3, leading=True, someone_finished=True)
    left = dice_left(RULES, leading=turn.leader_dice)
    assert ("coast", 0) in allowed(turn, left)
    error = refusal(turn, Step("leader"), left)
    assert error.message.key == "dirt.leader_lapsed"
    assert "a driver has crossed the finish line" in str(error)


def test_B6_6_each_gear_die_once_per_turn():
    turn = DiceTurn(4, used=("3", "4"))  # 3 → 4 → ? : die 3 is spent
    error = refusal(turn, Step("3"))
    assert error.message.key == "dirt.die_used"
    assert str(error).startswith("Gear die 3 is already used this turn")
    assert allowed(turn) == [("5", 0), ("2", 1), ("coast", 0)]


def test_B13_4_damage_takes_dice_off_the_dashboard():
    left = dice_left(RULES, leading=False, coast_tokens=1, brake_tokens=1, minus_one_tokens=2)
    assert left == DiceLeft((1, 2, 3, 4), 1, 0, 0)
    error = refusal(DiceTurn(4), Step("5"), left)
    assert error.message.key == "dirt.gear_die_lost"
    assert "Gear die 5 is lost to damage" in str(error)
    assert refusal(DiceTurn(4), Step("2", brakes=1), left).message.key == "dirt.no_brake_left"
    assert refusal(DiceTurn(3, used=("coast",)), Step("coast"), left).message.key == "dirt.no_side_die_left"


def test_B13_8_4_a_coast_token_reduces_the_leader_column_in_use():
    assert dice_left(RULES, leading=True, coast_tokens=1).leader == 1
    assert dice_left(RULES, leading=True, coast_tokens=5).leader == 0


def test_B6_6_when_nothing_is_left_the_refusal_says_so():
    left = DiceLeft((1, 2), 0, 0, 0)
    error = refusal(DiceTurn(2, used=("1", "2")), Step("3"), left)
    assert error.allowed == ()
    assert str(error).endswith("you may play nothing more this turn.")


def test_a_refusal_reads_in_french_and_german():
    from bot.i18n import render

    error = refusal(DiceTurn(4), Step("2"))
    assert render(error.message, "fr").startswith("De la vitesse 4 au dé de vitesse 2, il faut 1 dé frein")
    assert "Gangwürfel 2 plus 1 Bremswürfel" in render(error.message, "de")


STEPS = st.builds(Step, st.sampled_from(["1", "2", "3", "4", "5", "6", "coast", "leader", "brake", "7"]),
                  st.integers(0, 3))
TURNS = st.builds(DiceTurn, st.integers(0, 6),
                  st.lists(st.sampled_from(["1", "2", "3", "4", "5", "6", "coast", "leader", "brake"]),
                           max_size=4).map(tuple),
                  st.booleans(), st.booleans())


@settings(max_examples=300, deadline=None)
@given(TURNS, STEPS, st.integers(0, 2), st.integers(0, 1), st.integers(0, 3))
def test_B6_any_step_is_allowed_exactly_when_listed_and_refused_otherwise(turn, step, coast, brake, minus):
    left = dice_left(RULES, leading=turn.leader_dice, coast_tokens=coast, brake_tokens=brake, minus_one_tokens=minus)
    listed = step in allowed_steps(turn, left)
    try:
        check_step(turn, left, step)
    except NotAllowed as error:
        assert not listed
        assert error.message.key.startswith("dirt.")
        assert all(code.split("+")[0] in {s.die for s in allowed_steps(turn, left)} for code in error.allowed)
    else:
        assert listed


def test_B13_4_an_undamaged_dashboard_and_one_that_damage_has_emptied():
    assert dice_left(RULES, leading=False) == DiceLeft((1, 2, 3, 4, 5, 6), 2, 0, 1)
    assert dice_left(RULES, leading=True) == DiceLeft((1, 2, 3, 4, 5, 6), 0, 2, 1)
    assert dice_left(RULES, leading=False, coast_tokens=3, brake_tokens=2, minus_one_tokens=6) == DiceLeft((), 0, 0, 0)
    assert dice_left(RULES, leading=False, minus_one_tokens=9).gears == ()
    assert dice_left(RULES, leading=False, minus_one_tokens=5).gears == (1,)


def test_B6_5_a_step_never_has_fewer_than_no_brake_die_and_rolls_its_gear_die_with_its_brake_dice():
    with pytest.raises(ValueError, match=r"^a step has 0 or more brake dice$"):
        Step("3", brakes=-1)
    assert Step("2", brakes=2).dice() == ("2", "brake", "brake") and Step("coast").dice() == ("coast",)


def test_B6_2_a_car_left_with_gear_die_1_alone_can_still_start():
    only_first = dice_left(RULES, leading=False, minus_one_tokens=5)
    assert only_first.gears == (1,)
    assert allowed(DiceTurn(0), only_first) == [("1", 0)]
    check_step(DiceTurn(0), only_first, Step("1"))


DAMAGED = dice_left(RULES, leading=False, minus_one_tokens=2)
NO_BRAKE_LEFT = DiceTurn(5, used=("5", "brake"))
ANY_FROM_3 = "you may play gear die 4, gear die 3, gear die 2, gear die 1 with 1 brake die or coast die."
ANY_FROM_4 = "You may play gear die 5, gear die 4, gear die 3, gear die 2 with 1 brake die or coast die."
CODES_3, CODES_4 = ("4", "3", "2", "1+brake", "coast"), ("5", "4", "3", "2+brake", "coast")


@pytest.mark.parametrize(("turn", "step", "left", "text", "codes"), [
    (DiceTurn(3), Step("brake"), GRAVEL,
     "A brake die is only played together with a gear die, on the same space: " + ANY_FROM_3, CODES_3),
    (DiceTurn(4), Step("1", brakes=2), GRAVEL, "Not enough brake dice: 1 left this turn. " + ANY_FROM_4, CODES_4),
    (NO_BRAKE_LEFT, Step("3", brakes=1), GRAVEL, "Not enough brake dice: 0 left this turn. You may play gear die 6, "
     "gear die 4 or coast die.", ("6", "4", "coast")),
    (DiceTurn(3), Step("leader"), GRAVEL, "Leader dice are only for the first player of the round: " + ANY_FROM_3,
     CODES_3),
    (DiceTurn(3, leading=True, someone_finished=True), Step("leader"), GRAVEL,
     "Leader dice are no longer used: a driver has crossed the finish line. " + ANY_FROM_3[0].upper() + ANY_FROM_3[1:],
     CODES_3),
    (DiceTurn(3, leading=True), Step("coast"), LEADER, "As the round's first player you use leader dice instead of "
     "coast dice: " + ANY_FROM_3.replace("coast die", "leader die"), CODES_3[:-1] + ("leader",)),
    (DiceTurn(0), Step("coast"), GRAVEL,
     "You cannot play a coast die at speed 0: the first die is gear die 1. You may play gear die 1.", ("1",)),
    (DiceTurn(3, used=("coast", "coast")), Step("coast"), GRAVEL, "No coast die left this turn: you may play "
     "gear die 4, gear die 3, gear die 2 or gear die 1 with 1 brake die.", CODES_3[:-1]),
    (DiceTurn(1), Step("7"), GRAVEL, "There is no die 7 in DIRT: you may play gear die 2, gear die 1 or coast die.",
     ("2", "1", "coast")),
    (DiceTurn(4), Step("5"), DAMAGED, "Gear die 5 is lost to damage: you may play gear die 4, gear die 3, "
     "gear die 2 with 1 brake die or coast die.", ("4", "3", "2+brake", "coast")),
    (DiceTurn(4, used=("3", "4")), Step("3"), GRAVEL, "Gear die 3 is already used this turn (each die once per turn): "
     "you may play gear die 5, gear die 2 with 1 brake die or coast die.", ("5", "2+brake", "coast")),
    (DiceTurn(0), Step("1", brakes=1), GRAVEL, "No brake die is needed here (you are in gear 0): a brake die only lets "
     "the gear drop one step more. You may play gear die 1.", ("1",)),
    (DiceTurn(3), Step("5"), GRAVEL, "Gear die 5 is too high: you are in gear 3, so a gear die may go up by one at "
     "most. " + ANY_FROM_3[0].upper() + ANY_FROM_3[1:], CODES_3),
    (DiceTurn(4), Step("2"), GRAVEL, "From gear 4 to gear die 2 you need 1 brake die: each brake die lets the gear "
     "drop one step more. " + ANY_FROM_4, CODES_4),
    *[(DiceTurn(4), Step(die, brakes=1), GRAVEL, "No brake die is needed here (you are in gear 4): a brake die only "
       "lets the gear drop one step more. " + ANY_FROM_4, CODES_4) for die in ("5", "4", "3")],
], ids=lambda value: value.die + "+brake" * value.brakes if isinstance(value, Step) else None)
def test_B6_each_refusal_says_why_and_lists_exactly_the_steps_allowed(turn, step, left, text, codes):
    error = refusal(turn, step, left)
    assert str(error) == text
    assert error.allowed == codes == tuple(s.die + "+brake" * s.brakes for s in allowed_steps(turn, left))
