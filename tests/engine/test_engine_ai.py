"""The built-in AI driver: finishes every shipped stage, only plays legal actions, is
deterministic, and drives better than a naive driver."""

from __future__ import annotations

from statistics import mean

import pytest

from bot.engine.actions import Roll, Stop
from bot.engine.ai import choose_action
from bot.engine.errors import RallyError
from bot.engine.game import apply, legal_actions, new_game
from bot.engine.simulate import ai_seats
from bot.engine.stage_loader import stage_names

SEEDS = (0, 1, 2)


@pytest.mark.parametrize("stage", stage_names())
def test_A15_four_ai_drivers_finish_every_shipped_stage(stage):
    """A15: four AI drivers bring every shipped stage to its end, every car across the line, and
    every action they choose is one the engine accepts and lists as legal."""
    for seed in SEEDS:
        state = new_game(stage, ai_seats(4), seed=seed)
        actions = 0
        while state.turn is not None and actions < 5000:
            action = choose_action(state)
            assert action in legal_actions(state), f"{stage} seed {seed}: {action} is not listed as legal"
            try:
                state, _ = apply(state, action)
            except RallyError as exc:  # pragma: no cover - the assertion message is the point
                pytest.fail(f"{stage} seed {seed}: the AI chose {action}, refused: {exc}")
            actions += 1
        assert state.finished, f"{stage} seed {seed}: not over after {actions} actions"
        assert [c.status for c in state.cars] == ["finished"] * 4, f"{stage} seed {seed}"


def test_the_ai_is_not_random():
    """The same state gives the same action, also from a copy of the state."""
    state = new_game("quarry-switchbacks", ai_seats(3), seed=7)
    for _ in range(80):
        if state.turn is None:
            break
        action = choose_action(state)
        assert choose_action(state) == action
        assert choose_action(state.clone()) == action
        state, _ = apply(state, action)


def naive(state):
    """Always the first legal die, until two ⚠ this turn; then stop."""
    turn = state.turn
    if turn.started and turn.hazards >= 2:
        return Stop()
    for action in legal_actions(state):
        if isinstance(action, Roll):
            return action
    return Stop()


def solo_time(stage: str, seed: int, driver) -> float:
    """Stage time of one driver alone; a car knocked out counts as 10 000 s."""
    state = new_game(stage, ai_seats(1), seed=seed)
    for _ in range(5000):
        if state.turn is None:
            break
        state, _ = apply(state, driver(state))
    car = state.cars[0]
    return car.time if car.status == "finished" else 10_000.0


@pytest.mark.parametrize("stage", ["pinewood-sprint", "quarry-switchbacks"])
def test_the_ai_beats_a_naive_driver_on_average(stage):
    """Over a handful of seeds, the AI's mean stage time is lower than the naive driver's."""
    seeds = range(6)
    ai = mean(solo_time(stage, s, choose_action) for s in seeds)
    plain = mean(solo_time(stage, s, naive) for s in seeds)
    assert ai < plain, (ai, plain)
