"""The action log is the truth: a special rebuilt from its seed and the text of its actions is the
same special; the state survives a JSON round trip."""

from __future__ import annotations

import json

import pytest

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, new_game, replay
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.state import GameState


def ai_special(stage: str, drivers: int, seed: int, stop_after: int | None = None):
    seats = ai_seats(drivers)
    state = new_game(stage, seats, seed=seed)
    log: list[str] = []
    while state.turn is not None and (stop_after is None or len(log) < stop_after):
        action = choose_action(state)
        log.append(str(action))
        state, _ = apply(state, action)
    return state, seats, log


@pytest.mark.parametrize("stage, drivers, seed", [("pinewood-sprint", 4, 11), ("quarry-switchbacks", 3, 4),
                                                  ("frozen-lakes", 2, 9)])
def test_replay_of_the_text_log_rebuilds_the_same_special(stage, drivers, seed):
    """An AI special's log of `str(action)` texts, parsed and replayed from the seed, gives the
    same final state."""
    state, seats, log = ai_special(stage, drivers, seed)
    assert state.finished and len(log) > 20
    rebuilt = replay(state.config, seats, [parse(text) for text in log])
    assert rebuilt.to_dict() == state.to_dict()


def test_replay_of_half_a_log_continues_like_the_original():
    """A special stopped half way and rebuilt from its log goes on exactly like the original."""
    full, seats, log = ai_special("pinewood-sprint", 3, 21)
    half = replay(full.config, seats, [parse(text) for text in log[: len(log) // 2]])
    for text in log[len(log) // 2:]:
        half, _ = apply(half, parse(text, half))
    assert half.to_dict() == full.to_dict()


def test_state_json_round_trip_at_every_step():
    """`GameState.from_dict(json.loads(json.dumps(state.to_dict())))` is the same state, and a
    game continued from the copy goes on like the original."""
    state = new_game("pinewood-sprint", ai_seats(3), seed=3)
    steps = 0
    while state.turn is not None:
        copy = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert copy.to_dict() == state.to_dict()
        action = choose_action(state)
        assert choose_action(copy) == action
        a, ev_a = apply(state, action)
        b, ev_b = apply(copy, action)
        assert a.to_dict() == b.to_dict() and ev_a == ev_b
        state = a
        steps += 1
    assert steps > 20
    final = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert final.finished and final.to_dict() == state.to_dict()
