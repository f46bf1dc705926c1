"""The odds a classic driver is told are what happens (RULES A11.1, A8.6, A10, A20.3, A9).

For states reached by AI specials on real stages (random legal dice mixed in), every die offered
(each legal `Roll` of one die, with its trajectory) is weighed by the risk preview (`odds.odds`)
and then played many times on clones of the state with seeded random dice: the share of plays
that lose control or knock the car out must equal the odds within 1 % over 20,000 plays, and a
die the odds call certain (or safe) must do so every time. Every die whose odds are neither 0
nor 1 gets the 20,000 plays, within 1 percentage point; a play costs ≈ 20 µs, so the states are
few (one at a random moment of each of `STAGES`' specials, and `RISKY` more where the next die may
bring the ⚠ to the limit): about twenty such dice, under 30 s of CPU.
"""

from __future__ import annotations

import random

from bot.engine.core.dice import SeededDice
from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.odds import odds
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.state import GameState

PLAYS = 20_000  # plays of each die whose odds are neither 0 nor 1
CHECKS = 200  # plays of a die called certain or safe
STAGES = ("iron-sprint", "marsh-dash", "elkhorn-snow", "greystone-col", "fjord-run", "black-moor")
RISKY = 12
#: what ends a die in a loss of control (or a knock-out, which the odds count too)
LOST = frozenset({"loss_of_control", "finish_crash", "overspeed_ko", "flats_ko"})


def _states() -> list[GameState]:
    rng = random.Random(11)
    out: list[GameState] = []
    risky = 0
    for n, stage in enumerate(STAGES):
        state = new_game(stage, ai_seats(3), seed=200 + n)
        moment = rng.randrange(10, 50)
        for step in range(300):
            if state.turn is None:
                break
            rolls = [a for a in legal_actions(state) if isinstance(a, Roll)]
            if step == moment or (rolls and risky < RISKY and state.turn.hazards >= 2 and rng.random() < 0.5):
                out.append(state.clone())
                risky += step != moment
            action = rng.choice(rolls) if rolls and rng.random() < 0.3 else choose_action(state)
            state, _ = apply(state, action)
    return [s for s in out if s.turn is not None and s.turn.attack is None]


def _lost_share(state: GameState, action: Roll, plays: int, seed: int) -> float:
    lost = 0
    for k in range(plays):
        twin = state.clone()
        twin.dice = SeededDice(seed * 1_000_003 + k)
        events = apply(twin, action)[1]
        lost += any(e.kind in LOST for e in events)
    return lost / plays


def test_A11_1_the_odds_of_every_offered_die_are_what_playing_it_does():
    states = _states()
    assert len(states) >= 4
    sampled = moves = 0
    worst = 0.0
    for i, state in enumerate(states):
        rolls = [a for a in legal_actions(state) if isinstance(a, Roll)]
        certain = RALLYMAN.narrator.prompt(RALLYMAN.rules.view(state, None), []).certain_loss
        for j, action in enumerate(rolls):
            moves += 1
            chance = odds(state, action).loss_of_control
            assert (chance >= 1.0) == (RALLYMAN.commands.label(action) in certain), action
            if chance in (0.0, 1.0):
                assert _lost_share(state, action, CHECKS, i * 100 + j) == chance, (action, chance)
            else:
                sampled += 1
                share = _lost_share(state, action, PLAYS, i * 100 + j)
                worst = max(worst, abs(share - chance))
                assert abs(share - chance) <= 0.01, (action, chance, share)
    print(f"classic: {len(states)} states, {moves} dice offered, {sampled} with uncertain odds played {PLAYS} "
          f"times each, largest gap {worst:.4f}")
    assert sampled >= 6, "too few dice with uncertain odds: the states do not test the sampling"
