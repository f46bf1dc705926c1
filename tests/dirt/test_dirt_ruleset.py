"""DIRT's ruleset file holds every B13 default as data, and a bad file is refused naming the file,
the field and the reason (RULES B13, B6.1, B13.1–B13.4, B13.6, B13.8.4)."""

from __future__ import annotations

import json

import pytest

from bot.engine.core.errors import DataError
from bot.engine.dirt.ruleset import load_ruleset, parse_ruleset
from bot.paths import data_dir

SOURCE = "data/dirt/rulesets/provisional.json"


def raw() -> dict:
    return json.loads((data_dir() / "dirt" / "rulesets" / "provisional.json").read_text(encoding="utf-8"))


def refused(data: dict) -> DataError:
    with pytest.raises(DataError) as caught:
        parse_ruleset(json.dumps(data), SOURCE)
    return caught.value


def test_B6_1_B13_1_dashboard_columns_and_hazard_faces_are_the_defaults():
    rules = load_ruleset()
    gravel, leader = rules.dashboard.gravel, rules.dashboard.gravel_leader
    assert (gravel.gears, gravel.coast, gravel.leader, gravel.brake) == ((1, 2, 3, 4, 5, 6), 2, 0, 1)
    assert (leader.gears, leader.coast, leader.leader, leader.brake) == ((1, 2, 3, 4, 5, 6), 0, 2, 1)
    assert gravel.hazard_limit == leader.hazard_limit == 3
    assert rules.faces == 6
    assert rules.hazard_faces == {"1": 1, "2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "coast": 1, "leader": 2, "brake": 2}
    assert rules.dashboard.asphalt is None and rules.dashboard.snow is None
    assert rules.column(True) is leader and rules.column(False) is gravel
    assert rules.provisional


def test_B13_2_time_cards_and_the_zero_side():
    rules = load_ruleset()
    assert [rules.card_seconds(g) for g in range(7)] == [70, 60, 50, 40, 30, 20, 10]


def test_B13_4_damage_bag_and_knock_out_threshold():
    rules = load_ruleset()
    assert rules.damage_bag == {"ok": 24, "coast": 11, "minus_one": 7, "brake": 6}
    assert sum(rules.damage_bag.values()) == 48  # B1: 48 damage tokens
    assert rules.knockout_damage_tokens == 4
    assert (rules.overspeed_knockout_over, rules.jump_knockout_over) == (3, 2)  # B13.3, B13.5


def test_B13_6_B13_8_every_default_b13_names_is_a_field_of_the_ruleset_file():
    """B13: every default is data in the ruleset file; an unknown value is refused by the model."""
    data = raw()
    named = {"order_tie_break": "previous_round", "order_fixed_at": "round_start",
             "entering_drivers_play": "after_track", "no_move_card": "current_gear",
             "shortcut_over_limit_draws": "shortcut_then_damage", "finish_loss_of_control": "finish_stands",
             "later_start_order": "fastest_total_first", "minus_one_lasts": "stage",
             "tokens_return_to_bag": "stage_start"}
    assert {k: data[k] for k in named} == named
    for field in named:
        with pytest.raises(DataError):
            parse_ruleset(json.dumps({**data, field: "something else"}), SOURCE)


def test_B13_8_4_flags_are_data():
    rules = load_ruleset()
    assert rules.minus_one_affects == "all_but_drawer"
    assert rules.coast_token_reduces == "column_in_use"
    assert rules.knockout_counts == "dashboard"
    data = raw()
    data["minus_one_affects"] = "behind"  # the flag's other value is accepted
    assert parse_ruleset(json.dumps(data), SOURCE).minus_one_affects == "behind"


def test_B13_6_asphalt_and_snow_columns_are_refused_while_unruled():
    data = raw()
    data["dashboard"]["asphalt"] = dict(data["dashboard"]["gravel"])
    error = refused(data)
    assert error.source == SOURCE and error.field == "dashboard.asphalt"
    assert "no rule for this surface" in error.reason


@pytest.mark.parametrize(("change", "field", "reason"), [
    (lambda d: d["hazard_faces"].pop("brake"), "hazard_faces", "misses die brake"),
    (lambda d: d["hazard_faces"].update({"4": 7}), "hazard_faces", "4 = 7 is not between 0 and 6"),
    (lambda d: d["hazard_faces"].update({"W": 1}), "hazard_faces", "unknown die 'W'"),
    (lambda d: d["time_card_seconds"].pop("6"), "time_card_seconds", "misses gear 6"),
    (lambda d: d["damage_bag"].update({"ok": -1}), "damage_bag", "non-negative"),
    (lambda d: d["dashboard"]["gravel"].update({"gears": [1, 2, 7]}), "dashboard.gravel.gears", "gear die 7"),
    (lambda d: d["dashboard"]["gravel"].update({"hazard_limit": 0}), "dashboard.gravel.hazard_limit", "greater"),
    (lambda d: d.pop("knockout_damage_tokens"), "knockout_damage_tokens", "Field required"),
    (lambda d: d.update({"minus_one_affects": "everybody"}), "minus_one_affects", "all_but_drawer"),
    (lambda d: d.update({"surprise": 1}), "surprise", "Extra inputs"),
])
def test_a_bad_ruleset_is_refused_naming_file_field_and_reason(change, field, reason):
    data = raw()
    change(data)
    error = refused(data)
    assert (error.source, error.field) == (SOURCE, field)
    assert reason in error.reason
    assert str(error).startswith(f"{SOURCE}: {field}: ")


def test_a_ruleset_that_is_not_json_is_refused_with_its_line():
    with pytest.raises(DataError) as caught:
        parse_ruleset('{\n  "name": \n}', SOURCE)
    assert caught.value.field == "line 3" and "not valid JSON" in caught.value.reason


def test_an_unknown_ruleset_name_lists_the_known_ones():
    with pytest.raises(DataError) as caught:
        load_ruleset("nope")
    assert "provisional" in caught.value.reason
