"""The odds a DIRT driver is told are what happens (RULES B13.1, B13.3, B13.4, B13.5, B8, B10).

For states reached by playing real stages (AI moves mixed with random legal ones), every move
offered (each legal step × direction) is weighed by `move_odds.loss_chance` and then played many
times on clones of the state with seeded random dice and bag draws: the share of plays that lose
control (or knock the car out) must equal the odds within 1 percentage point over 20,000 plays for
every move whose odds are neither 0 nor 1, and a move the odds call certain (or impossible) must
do so every time. A play costs ≈ 30 µs (a clone and the move), so the states are few (`STAGES`
rallies, `RISKY` states where the next die may bring the ⚠ to the limit): about 20 such moves,
under 30 s of CPU.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import ai, rally
from bot.engine.dirt.library import DIRT_STAGES
from bot.engine.dirt.move_odds import LOST, certain_losses, loss_chance
from bot.engine.dirt.protocol import GAME as DIRT
from bot.engine.dirt.rally import DirtState, Roll
from bot.i18n import render
from tests.dirt.rally_kit import put, start

PLAYS = 20_000  # plays of each move whose odds are neither 0 nor 1
CHECKS = 300  # plays of a move called certain or safe
STAGES = 4  # rallies the states come from (one state at a random moment of each)
RISKY = 8  # more states, where the next die may be the ⚠ that reaches the limit


def _states() -> list[DirtState]:
    """States with a driver to act, from AI rallies on real stages with random moves mixed in:
    one taken at a random moment of each rally, and the first few where the next die may be the
    ⚠ that reaches the limit (the moves whose odds are neither 0 nor 1)."""
    rng = random.Random(38)
    out: list[DirtState] = []
    risky = 0
    for n, stage in enumerate(DIRT_STAGES.names()[:STAGES]):
        state, _ = rally.new_rally([("a", "A"), ("b", "B"), ("c", "C")], [stage], dice=SeededDice(100 + n))
        moment = rng.randrange(10, 60)
        for step in range(400):
            if rally.finished(state):
                break
            seat = state.to_act()
            assert seat is not None
            rolls = [a for a in rally.legal_actions(state, seat) if isinstance(a, Roll)]
            if step == moment or (rolls and risky < RISKY and state.hazards >= 2 and rng.random() < 0.5):
                out.append(state.clone())
                risky += step != moment
            action = rng.choice(rolls) if rolls and rng.random() < 0.35 else ai.choose(state, seat)
            state, _ = rally.apply(state, seat, action)
    return out


def _lost_share(state: DirtState, seat: str, action: Roll, plays: int, seed: int) -> Fraction:
    lost = 0
    for k in range(plays):
        twin = state.clone()
        twin.dice = SeededDice(seed * 1_000_003 + k)
        events = rally.apply(twin, seat, action)[1]
        lost += any(e.kind in LOST and e.driver == seat for e in events)
    return Fraction(lost, plays)


def test_B13_1_B13_3_the_odds_of_every_offered_move_are_what_playing_it_does():
    states = _states()
    assert len(states) >= 4
    sampled = moves = 0
    worst = 0.0
    for i, state in enumerate(states):
        seat = state.to_act()
        assert seat is not None
        rolls = [a for a in rally.legal_actions(state, seat) if isinstance(a, Roll)]
        doomed = certain_losses(state, seat, rolls)
        for j, action in enumerate(rolls):
            moves += 1
            odds = loss_chance(state, seat, action)
            assert (odds == 1) == (action in doomed), action
            if odds in (0, 1):
                assert _lost_share(state, seat, action, CHECKS, i * 100 + j) == odds, (action, odds)
            else:
                sampled += 1
                share = _lost_share(state, seat, action, PLAYS, i * 100 + j)
                worst = max(worst, abs(float(share - odds)))
                assert abs(share - odds) <= Fraction(1, 100), (action, float(odds), float(share))
    print(f"DIRT: {len(states)} states, {moves} moves offered, {sampled} with uncertain odds played {PLAYS} "
          f"times each, largest gap {worst:.4f}")
    assert sampled >= 10, "too few moves with uncertain odds: the states do not test the sampling"


def test_B13_3_a_move_over_the_speed_limit_is_certain_in_odds_prompt_and_button():
    """The issue's case: gear 3 before a corner whose inside line allows 2 (t-corner): rolling 4
    there loses control for certain (B8, B13.3); `/odds` says so, and the prompt names the move."""
    s = start("t-corner", draws=["ok"])
    put(s, "a", 8, 3)  # tile 1, inside lane, last row: the next space is the corner's inside (limit 2)
    view = DIRT.rules.view(s, "a")
    assert render(DIRT.odds.odds(view, "a", "4")[0],
                  "en").endswith("loses control for certain (provisional rules B13.1, "
                                                             "B13.3).")
    prompt = DIRT.narrator.prompt(view, [])
    assert {"4 left", "3 left"} <= prompt.certain_loss and "4 right" not in prompt.certain_loss
    assert "Certain loss of control" in render(prompt.lines[1], "en")
    assert render(prompt.lines[-1], "en") == "_DIRT, provisional rules (`/rules` lists them)_"  # B13
    events = DIRT.rules.apply(s, "a", rally.parse("4", s, "a"))[1]
    assert [e.params["cause"] for e in events if e.kind == "dirt_lost_control"] == ["overspeed"]


def test_B6_2_odds_of_a_die_not_allowed_now_are_refused_as_the_roll_is():
    s = start("t-corner")
    put(s, "a", 8, 3)
    with pytest.raises(Exception) as refused_odds:
        DIRT.odds.odds(DIRT.rules.view(s, "a"), "a", "6")
    with pytest.raises(Exception) as refused_roll:
        DIRT.rules.apply(s, "a", rally.parse("6", s, "a"))
    assert refused_odds.value.message.key == refused_roll.value.message.key == "dirt.gear_not_adjacent"


def test_B13_1_the_last_hazard_to_go_counts_its_own_faces():
    """Two ⚠ shown (limit 3): gear die 3 (1 ⚠ face of 6) loses control 1 time in 6."""
    s = start("t-straight", faces=[True, True])
    s, _ = rally.apply(s, "a", rally.parse("1", s, "a"))
    s, _ = rally.apply(s, "a", rally.parse("2", s, "a"))
    assert s.hazards == 2
    assert loss_chance(s, "a", rally.parse("3", s, "a")) == Fraction(1, 6)
