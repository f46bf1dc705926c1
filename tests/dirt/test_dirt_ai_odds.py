"""The DIRT AI weighs a step by the odds `/odds` tells a driver (`move_odds.loss_chance`, RULES
B13.1, B13.3, B13.5): it never plays on with a step those odds put above its risk (a jump flown
onto a corner too fast is certain to lose control, whatever its ⚠ odds say), and its quick ⚠-only
sum answers only where it gives the same answer."""

from __future__ import annotations

from fractions import Fraction

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Roll
from bot.engine.dirt.move_odds import loss_chance
from bot.engine.dirt.simulate import ai_seats

STAGES = ("lakeside-loop", "wolf-forest")


def _mid_turn_choices():
    """(state, seat, AI's best roll, its target, the AI's action) at each step after a turn's first,
    over whole AI-driven stages."""
    for stage in STAGES:
        for seed in range(4):
            state, _ = engine.new_rally(ai_seats(4), [stage], dice=SeededDice(seed))
            while not engine.finished(state):
                seat = state.to_act()
                action = ai.choose(state, seat)
                best = ai._best_known(state, seat)
                if state.turn_path and best is not None and best[1]:
                    yield state, seat, best[0], best[2], action
                state, _ = engine.apply(state, seat, action)


def test_B13_1_the_ai_plays_on_only_with_a_step_the_odds_put_within_its_risk():
    rolled = stopped = 0
    for state, seat, roll, _, action in _mid_turn_choices():
        chance = loss_chance(state, seat, roll)
        if isinstance(action, Roll):
            assert action == roll and chance <= Fraction(ai.RISK), (roll, chance)
            rolled += 1
        else:
            assert chance > Fraction(ai.RISK), (roll, chance)
            stopped += 1
    assert rolled > 100 and stopped > 10


def test_B13_3_the_quick_hazard_odds_answer_as_the_exact_odds_wherever_the_ai_uses_them():
    quick = 0
    for state, seat, roll, target, _ in _mid_turn_choices():
        chance = loss_chance(state, seat, roll)
        for risk in (0.05, ai.RISK, 0.5):
            assert ai._too_risky(state, seat, roll, target, risk) == (chance > risk), (roll, chance, risk)
        gear = ai.GEARS.get(roll.step.die, state.cars[seat].gear)
        quick += not ai._more_than_hazards(state, seat, gear, target)
    assert quick > 100


def test_B13_1_loss_above_answers_as_the_exact_odds_compared_and_plays_fewer_ways():
    """`move_odds.loss_above` (the AI's early-stopping question) is `loss_chance(...) > risk` at
    every threshold, a chance of exactly the threshold included, and a certain loss is settled by
    fewer plays than `chances` makes."""
    from bot.engine.core import exact_odds
    from bot.engine.dirt.move_odds import _lost, _play, loss_above

    fewer = checked = 0
    for state, seat, roll, _, _ in _mid_turn_choices():
        chance = loss_chance(state, seat, roll)
        for risk in (0.0, 0.05, ai.RISK, 0.5, 0.99, chance):
            assert loss_above(state, seat, roll, risk) == (chance > risk), (roll, chance, risk)
            checked += 1
        if chance == 1:
            plays = []
            counting = _play(seat, roll)

            def play(twin, counting=counting, plays=plays):
                plays.append(1)
                return counting(twin)

            exact_odds.above(state, play, _lost(seat), ai.RISK)
            fewer += len(plays) < exact_odds.chances(state, _play(seat, roll), _lost(seat)).ways
    assert checked > 500 and fewer > 5
