"""`Game.rules.standing` of every game (bot/engine/core/game.py): where each seat stands at any moment,
what a rally abandoned while running is rated by (bot/services/career/rating_sources.py). Driven by each
game's own AI: every seat has a place at every step, a retired seat is out, and once finished the
standing orders the seats as the outcome does."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.game import is_finished, outcome_standing

SEATS = [("1001", "Alice"), ("1002", "Bob"), ("1003", "Cleo")]


@pytest.mark.parametrize(("game_id", "stage"), [("rallyman", "pinewood-sprint"), ("dirt", "dusty-pines"),
                                                ("roadrally", None)])
def test_every_seat_stands_somewhere_at_every_step_and_at_the_end_as_the_outcome_ranks(game_id, stage):
    game = games.get(game_id)
    ruleset = game.library.rulesets()[0]
    state, _ = game.rules.setup(5, SEATS, {"stage": stage or game.library.default_stage(ruleset), "ruleset": ruleset,
                                     "modules": {}})
    state, _ = game.rules.apply(state, None, game.rules.retire_action("1003"))  # Cleo leaves at once: out from then on
    moving = 0
    for _ in range(5000):
        standing = game.rules.standing(state)
        assert sorted(seat for seat, _ in standing) == ["1001", "1002", "1003"]
        assert dict(standing)["1003"] is None
        assert all(key is not None for seat, key in standing if seat != "1003") or is_finished(game.rules, state)
        if is_finished(game.rules, state):
            break
        keys = {seat: key for seat, key in standing}
        seat = sorted(game.rules.to_act(state))[0]
        state, _ = game.rules.apply(state, seat, game.coach.choose(game.rules.view(state, seat), seat))
        moving += keys != dict(game.rules.standing(state))
    else:
        raise AssertionError("the game did not end")
    outcome = game.rules.outcome(state)
    assert outcome is not None and game.rules.standing(state) == outcome_standing(outcome)
    assert moving > 0  # the standing follows play, it is not fixed at the start
