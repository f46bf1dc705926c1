"""RULES B13.8 (item 8, the damage bag): a rally saved and read back at any moment goes on exactly as
if it had never left memory. The bag is drawn over the token kinds in their fixed order; a snapshot
stores the bag with its keys sorted, so a draw over the dict's own order gave another token after a
reload (27 of 80 AI rallies drifted from their own log)."""

from __future__ import annotations

import json

from bot.engine.core.game import is_finished
from bot.engine.dirt.damage import draw
from bot.engine.dirt.protocol import GAME as DIRT
from bot.engine.dirt.ruleset import DAMAGE_TOKENS

SEATS = [("11", "Ann"), ("22", "Ben"), ("-3", "Bot")]


def _ai_step(state):
    (seat,) = DIRT.rules.to_act(state)
    return seat, DIRT.coach.choose(DIRT.rules.view(state, seat), seat, 0.9)  # risky: many losses of control, many draws


def test_b13_8_a_rally_reloaded_at_every_action_ends_as_one_played_straight_through():
    draws = 0
    for seed in range(6):
        straight, _ = DIRT.rules.setup(seed, SEATS, {"stage": "dusty-pines", "ruleset": "provisional", "modules": {}})
        reloaded = DIRT.rules.from_json(DIRT.rules.to_json(straight))
        for _ in range(3000):
            if is_finished(DIRT.rules, straight):
                break
            seat, action = _ai_step(straight)
            straight, events = DIRT.rules.apply(straight, seat, action)
            reloaded, _ = DIRT.rules.apply(reloaded, seat, action)
            reloaded = DIRT.rules.from_json(DIRT.rules.to_json(reloaded))  # a restart after every action
            draws += sum(e.kind in ("dirt_damage", "dirt_shortcut", "dirt_minus_one") for e in events)
            assert DIRT.rules.to_json(reloaded) == DIRT.rules.to_json(straight)
        assert is_finished(DIRT.rules, straight) and is_finished(DIRT.rules, reloaded)
    assert draws >= 10  # the property was put to the test: the bag was drawn from, many times


def test_b13_8_8_the_bag_read_back_from_a_snapshot_draws_the_token_the_saved_one_would():
    state, _ = DIRT.rules.setup(5, SEATS, {"stage": "dusty-pines", "ruleset": "provisional", "modules": {}})
    data = json.loads(DIRT.rules.to_json(state))
    assert list(data["bag"]) == sorted(DAMAGE_TOKENS) != list(DAMAGE_TOKENS)  # the text's order is not the rules'
    back = DIRT.rules.from_json(json.dumps(data))
    assert list(back.bag) == list(DAMAGE_TOKENS)
    kept, loaded = state.clone(), back.clone()
    assert [draw(kept) for _ in range(40)] == [draw(loaded) for _ in range(40)]
    assert kept.bag == loaded.bag


def test_b13_8_8_a_snapshot_whose_bag_lacks_a_kind_is_refused_naming_it():
    state, _ = DIRT.rules.setup(5, SEATS, {"stage": "dusty-pines", "ruleset": "provisional", "modules": {}})
    data = json.loads(DIRT.rules.to_json(state))
    del data["bag"]["brake"]
    try:
        DIRT.rules.from_json(json.dumps(data))
    except ValueError as exc:
        assert "bag" in str(exc) and "brake" in str(exc)
    else:
        raise AssertionError("a bag without brake tokens was read")
