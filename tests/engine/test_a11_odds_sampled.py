"""The odds a classic driver is told are what happens (RULES A11.1, A8.6, A10, A20.3, A9).

For states reached by AI specials on real stages (random legal dice mixed in), every die offered
(each legal `Roll` of one die, with its trajectory) is weighed by the risk preview (`odds.odds`)
and then played many times on clones of the state with seeded random dice: the share of plays
that lose control or knock the car out must equal the odds within 1 % over 20,000 plays, and a
die the odds call certain (or safe) must do so every time. 20,000 plays are spent only on the
first `SAMPLED` dice whose odds are neither 0 nor 1 (a play costs ≈ 100 µs); every other such
die is played `FEW` times, its share within 4 standard deviations of the odds.
"""

from __future__ import annotations

import random

from bot.engine.core.dice import SeededDice
from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.odds import odds
from bot.engine.rallyman.protocol import RALLYMAN
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.state import GameState

PLAYS = 20_000
SAMPLED = 6
CHECKS = 200
FEW = 1_000
STAGES = ("iron-sprint", "marsh-dash", "elkhorn-snow", "greystone-col", "fjord-run", "black-moor")
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
            if step == moment or (rolls and risky < 2 * SAMPLED and state.turn.hazards >= 2 and rng.random() < 0.5):
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
    sampled = 0
    for i, state in enumerate(states):
        rolls = [a for a in legal_actions(state) if isinstance(a, Roll)]
        certain = RALLYMAN.prompt(RALLYMAN.view(state, None), []).certain_loss
        for j, action in enumerate(rolls):
            chance = odds(state, action).loss_of_control
            assert (chance >= 1.0) == (RALLYMAN.label(action) in certain), action
            if chance in (0.0, 1.0):
                assert _lost_share(state, action, CHECKS, i * 100 + j) == chance, (action, chance)
            elif sampled < SAMPLED:
                sampled += 1
                share = _lost_share(state, action, PLAYS, i * 100 + j)
                assert abs(share - chance) <= 0.01, (action, chance, share)
            else:
                share = _lost_share(state, action, FEW, i * 100 + j)
                assert abs(share - chance) <= 4 * (chance * (1 - chance) / FEW) ** 0.5, (action, chance, share)
    assert sampled >= 3, "too few dice with uncertain odds: the states do not test the sampling"
