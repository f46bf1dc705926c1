"""Exact odds of losing control before rolling, for the next die and a planned group, given the ⚠
already shown this turn (RULES B13.1). Expected values are computed by hand."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.dirt.dice import hazard_chance
from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.odds import next_die_odds, plan_odds
from bot.engine.dirt.ruleset import load_ruleset

RULES = load_ruleset()
LIMIT = RULES.dashboard.gravel.hazard_limit  # 3


def test_B13_1_one_die_can_only_lose_control_with_the_last_hazard_to_go():
    assert next_die_odds(RULES, LIMIT, 2, Step("3")) == F(1, 6)
    assert next_die_odds(RULES, LIMIT, 2, Step("5")) == F(1, 3)
    assert next_die_odds(RULES, LIMIT, 2, Step("leader")) == F(1, 3)
    assert next_die_odds(RULES, LIMIT, 2, Step("coast")) == F(1, 6)
    assert next_die_odds(RULES, LIMIT, 1, Step("6")) == 0
    assert next_die_odds(RULES, LIMIT, 0, Step("1")) == 0


def test_B13_1_a_gear_die_with_brake_dice_counts_each_face():
    # 2 ⚠ shown, gear die 2 (1/6) + brake (1/3): 1 − 5/6 · 2/3 = 4/9
    assert next_die_odds(RULES, LIMIT, 2, Step("2", brakes=1)) == F(4, 9)
    # 1 ⚠ shown: both must show ⚠: 1/6 · 1/3 = 1/18
    assert next_die_odds(RULES, LIMIT, 1, Step("2", brakes=1)) == F(1, 18)


def test_B13_1_a_planned_group_from_a_clean_turn():
    # 4, 5, 6 from 0 ⚠: all three show ⚠: (1/3)^3 = 1/27, lost on the third step
    odds = plan_odds(RULES, LIMIT, 0, [Step("4"), Step("5"), Step("6")])
    assert odds.total == F(1, 27)
    assert odds.by_step == (0, 0, F(1, 27))


def test_B13_1_a_planned_group_with_one_hazard_already_shown():
    # 1 ⚠ shown; 3 (1/6) then coast (1/6) then 4 (1/3): two more ⚠ among three dice.
    # P(none) = 5/6·5/6·2/3 = 50/108; P(one) = 1/6·5/6·2/3 + 5/6·1/6·2/3 + 5/6·5/6·1/3 = 10/108+10/108+25/108
    odds = plan_odds(RULES, LIMIT, 1, [Step("3"), Step("coast"), Step("4")])
    assert odds.total == 1 - F(50, 108) - F(45, 108) == F(13, 108)
    # by step: 2nd step both ⚠ (1/36); 3rd step exactly one of the first two, then the 4 (10/36 · 1/3)
    assert odds.by_step == (0, F(1, 36), F(10, 108))


def test_B13_1_the_turn_already_at_the_limit_is_lost():
    assert plan_odds(RULES, LIMIT, 3, [Step("1")]).total == 1


def _brute(shown: int, plan: list[Step]) -> F:
    """Every ⚠ pattern of every die, weighted: the reference the programme must equal."""
    dice = [d for step in plan for d in step.dice()]
    total = F(0)
    for faces in product((False, True), repeat=len(dice)):
        weight = F(1)
        for die, hazard in zip(dice, faces):
            p = hazard_chance(RULES, die)  # type: ignore[arg-type]
            weight *= p if hazard else 1 - p
        if shown + sum(faces) >= LIMIT:
            total += weight
    return total


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2), st.lists(st.builds(Step, st.sampled_from(["1", "2", "3", "4", "5", "6", "coast", "leader"]),
                                             st.integers(0, 1)), min_size=1, max_size=5))
def test_B13_1_the_odds_equal_enumerating_every_face(shown, plan):
    odds = plan_odds(RULES, LIMIT, shown, plan)
    assert odds.total == _brute(shown, plan)
    assert sum(odds.by_step) == odds.total and all(p >= 0 for p in odds.by_step)
