"""The damage bag itself (bot/engine/dirt/damage.py), rule by rule, written so that a changed
comparison, count or order in it fails a test (tools/mutation.py scores it): RULES B10 (a
shortcut's token), B13.3 (a loss of control's), B13.4 (the knock-out at a 4th token other than
OK!), B13.8.4 (only dashboard tokens count) and B13.8.8 (the bag holds what no dashboard holds; an
empty bag draws nothing)."""

from __future__ import annotations

import pytest

from bot.engine.core.dice import ScriptedDice, ScriptedDiceExhausted, SeededDice
from bot.engine.dirt import damage, rally
from bot.engine.dirt.rally import Roll, Step
from bot.engine.dirt.ruleset import DAMAGE_TOKENS
from tests.dirt.rally_kit import kinds, put, space, start


class Recorded(ScriptedDice):
    """Scripted draws that note the stream each one is asked from."""

    def __init__(self, events: list[str]) -> None:
        super().__init__([False] * 50, events)
        self.streams: list[str] = []

    def pick(self, kind, weights):
        self.streams.append(kind)
        return super().pick(kind, weights)


def _one_kind(s, kind: str, n: int) -> None:
    s.bag = {k: (n if k == kind else 0) for k in DAMAGE_TOKENS}


def test_B13_8_8_the_bag_gives_back_each_token_once_then_nothing():
    s = start()
    s.dice = SeededDice(7)
    s.bag = {"ok": 2, "coast": 1, "minus_one": 0, "brake": 3}
    drawn = [damage.draw(s) for _ in range(8)]
    assert sorted(k for k in drawn if k) == ["brake", "brake", "brake", "coast", "ok", "ok"]
    assert drawn[6:] == [None, None]  # an empty bag draws nothing (B13.8.8)
    assert s.bag == dict.fromkeys(DAMAGE_TOKENS, 0)


def test_B13_8_8_a_kind_with_no_token_left_is_never_drawn():
    s = start(draws=["coast"])
    _one_kind(s, "ok", 3)
    with pytest.raises(ScriptedDiceExhausted):  # the script asks for a coast token the bag does not hold
        damage.draw(s)
    assert s.bag["ok"] == 3


def test_B13_8_8_a_loss_of_control_with_an_empty_bag_draws_nothing_and_goes_on():
    s = start(faces=[True, True, True])
    s.bag = dict.fromkeys(DAMAGE_TOKENS, 0)
    before = dict(s.cars["a"].tokens)
    for die in ("1", "2", "3"):
        s, events = rally.apply(s, "a", Roll(Step(die)))
    assert "dirt_bag_empty" in kinds(events) and "dirt_damage" not in kinds(events)
    assert s.cars["a"].tokens == before and s.bag == dict.fromkeys(DAMAGE_TOKENS, 0)


def test_B10_B13_8_8_a_shortcut_with_an_empty_bag_draws_nothing():
    s = start()
    s.bag = dict.fromkeys(DAMAGE_TOKENS, 0)
    put(s, "a", space(s.stage, 1, 0, 2), 2)
    s, events = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert "dirt_bag_empty" in kinds(events) and "dirt_shortcut" not in kinds(events)
    assert sum(s.cars["a"].tokens.values()) == 0 and sum(s.fresh.values()) == 0 and s.minus == {}


def test_B13_3_a_damage_token_is_added_to_those_already_on_the_dashboard():
    s = start(faces=[True, True, True], draws=["coast"])
    s.cars["a"].tokens.update(coast=2, ok=1)
    for die in ("1", "2", "3"):
        s, events = rally.apply(s, "a", Roll(Step(die)))
    assert s.cars["a"].tokens["coast"] == 3 and s.cars["a"].tokens["ok"] == 1
    assert [e.params["token"] for e in events if e.kind == "dirt_damage"] == ["coast"]


def test_B10_a_shortcut_token_is_added_and_counted_fresh_until_the_next_turn():
    s = start(draws=["brake"])
    s.cars["a"].tokens.update(brake=1)
    put(s, "a", space(s.stage, 1, 0, 2), 2)
    s.fresh["brake"] = 1  # one drawn earlier this turn (a shortcut before)
    s, events = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert s.cars["a"].tokens["brake"] == 2 and s.fresh["brake"] == 2
    assert [e.params["token"] for e in events if e.kind == "dirt_shortcut"] == ["brake"]


def test_B10_an_ok_from_a_shortcut_goes_on_the_dashboard_but_is_never_fresh():
    s = start(draws=["ok"])
    s.cars["a"].tokens.update(ok=2)
    put(s, "a", space(s.stage, 1, 0, 2), 2)
    s, _ = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert s.cars["a"].tokens["ok"] == 3 and sum(s.fresh.values()) == 0


def test_B10_each_minus_one_on_a_tile_keeps_who_drew_it():
    s = start(draws=["minus_one"])
    s.minus = {2: ["b"]}
    put(s, "a", space(s.stage, 1, 0, 2), 2)
    s, events = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert s.minus == {2: ["b", "a"]} and s.cars["a"].tokens["minus_one"] == 0
    assert "dirt_minus_one" in kinds(events)


@pytest.mark.parametrize(("tokens", "out"), [
    ({"coast": 1, "brake": 1, "minus_one": 1}, True),   # a 4th token other than OK!: knocked out (B13.4)
    ({"coast": 3}, True),                                # the same kind counts each token
    ({"coast": 2}, False),                               # a 3rd: still racing
    ({"coast": 1, "brake": 1, "ok": 5}, False),          # OK! tokens never count (B13.8.4)
])
def test_B13_4_the_fourth_damage_token_knocks_the_car_out(tokens, out):
    s = start()
    s.cars["a"].tokens.update(tokens)
    s.cars["a"].tokens["brake"] += 1  # the token just drawn
    assert damage.wrecked(s, "a") is out



def test_B13_8_8_the_bag_draws_from_its_own_named_stream():
    """A league run's dice are named streams (`pick:<kind>`): the bag's name is part of every run's
    replay, so it never changes."""
    s = start()
    s.dice = Recorded(["coast", "ok"])
    assert [damage.draw(s), damage.draw(s)] == ["coast", "ok"]
    assert s.dice.streams == ["dirt:bag", "dirt:bag"]


def test_B10_B13_3_each_draw_is_told_for_the_driver_who_drew_it():
    s = start(seats=("a", "b"))
    events: list = []
    s.dice = Recorded(["minus_one", "brake", "coast"])
    damage.shortcut_token(s, "b", 4, events)
    damage.shortcut_token(s, "b", 4, events)
    damage.damage_token(s, "a", events)
    s.bag = dict.fromkeys(DAMAGE_TOKENS, 0)
    damage.shortcut_token(s, "a", 4, events)
    damage.damage_token(s, "b", events)
    assert [(e.kind, e.driver, e.params) for e in events] == [
        ("dirt_minus_one", "b", {"tile": 4}), ("dirt_shortcut", "b", {"token": "brake"}),
        ("dirt_damage", "a", {"token": "coast"}), ("dirt_bag_empty", "a", {}), ("dirt_bag_empty", "b", {})]
