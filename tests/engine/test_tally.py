"""`Game.career.tally`: every game's career counters over a whole game its AI plays, read
only through the protocol; the keys are the closed set of `bot.engine.core.tally`."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.core.tally import Counters, favourite_gear, gear_key, is_key, merge

SEATS = [("1", "Ann"), ("2", "Ben"), ("3", "Cy")]


def played(game_id: str) -> tuple[object, Counters, list]:
    """(final state, counters summed over the setup's and every action's events, all events)."""
    game = games.get(game_id)
    stage = game.library.default_stage(game.library.rulesets()[0]) or game.library.stages.names()[0]
    state, events = game.rules.setup(11, SEATS, {"stage": stage, "ruleset": game.library.rulesets()[0], "modules": {}})
    counters: Counters = merge({}, game.career.tally(events))
    seen = list(events)
    for _ in range(5000):
        if is_finished(game.rules, state):
            return state, counters, seen
        seat = sorted(game.rules.to_act(state))[0]
        state, events = game.rules.apply(state, seat, game.coach.choose(game.rules.view(state, seat), seat))
        merge(counters, game.career.tally(events))
        seen += events
    raise AssertionError(f"{game_id}: the game did not end")


@pytest.mark.parametrize("game_id", ["rallyman", "dirt", "roadrally"])
def test_every_game_counts_turns_and_only_keys_of_the_closed_set(game_id):
    game = games.get(game_id)
    state, counters, _ = played(game_id)
    assert set(counters) == {"1", "2", "3"}
    for seat, row in counters.items():
        assert all(is_key(k) for k in row), row
        assert row["turns"] > 0
        gears = sum(n for k, n in row.items() if k.startswith("gear."))
        if game_id == "roadrally":  # no gears, no losses of control: omitted, never 0
            assert gears == 0 and "losses" not in row and "top" not in row
        else:
            assert "losses" in row and 0 <= row["top"] <= gears <= row["turns"]
    outcome = game.rules.outcome(state)
    assert outcome is not None
    if game_id != "roadrally":  # one special: its finishers each finished one stage
        for r in outcome.seats:
            assert counters[r.seat].get("stages", 0) == (1 if r.status == "finished" else 0)
    assert game.career.tally([]) == {}


def test_classic_counts_the_losses_of_control_its_events_tell():
    _, counters, events = played("rallyman")
    for seat in ("1", "2", "3"):
        told = sum(1 for e in events if e.kind == "loss_of_control" and e.driver == seat)
        assert counters[seat]["losses"] == told


def test_gear_keys_are_bounded_and_the_favourite_gear_is_the_most_used():
    assert gear_key(6) == "gear.6" and is_key("gear.6") and not is_key("gear.10") and not is_key("gears")
    with pytest.raises(ValueError):
        gear_key(12)
    assert favourite_gear({"gear.3": 4, "gear.5": 4, "gear.0": 9, "turns": 20}) == 5
    assert favourite_gear({"turns": 3}) is None
