"""DIRT's die kinds and rolling one through a dice source, ⚠ faces from the ruleset (RULES B6, B13.1)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot.engine.core.dice import ScriptedDice, SeededDice
from bot.engine.dirt.dice import DICE, GEAR_DICE, gear_die, hazard_chance, is_gear_die, roll
from bot.engine.dirt.ruleset import load_ruleset, parse_ruleset
from bot.paths import data_dir


class Recording:
    """A dice source that notes what it is asked (die, faces, ⚠ faces) and shows no ⚠."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, int]] = []

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        self.asked.append((die, faces, hazard_faces))
        return False


def test_B1_B6_the_die_kinds():
    assert DICE == ("1", "2", "3", "4", "5", "6", "coast", "leader", "brake")
    assert [is_gear_die(d) for d in DICE] == [True] * 6 + [False] * 3
    assert [gear_die(g) for g in range(1, 7)] == list(GEAR_DICE)
    for gear in (0, 7, -1):  # B6.2: six gear dice, 1 to 6
        with pytest.raises(ValueError, match=f"^there is no gear die {gear} \\(gear dice are 1-6\\)$"):
            gear_die(gear)


def test_B13_1_each_die_is_rolled_with_its_hazard_faces_from_the_ruleset():
    rules = load_ruleset()
    source = Recording()
    for die in DICE:
        assert roll(source, rules, die) is False
    expected = [(6, 1), (6, 1), (6, 1), (6, 2), (6, 2), (6, 2), (6, 1), (6, 2), (6, 2)]  # 1-6, coast, leader, brake
    assert [(f, h) for _, f, h in source.asked] == expected
    assert len({d for d, _, _ in source.asked}) == len(DICE)  # each kind its own stream


def test_B13_1_hazard_faces_are_data_not_code():
    data = json.loads((data_dir() / "dirt" / "rulesets" / "provisional.json").read_text(encoding="utf-8"))
    data["hazard_faces"]["coast"] = 3
    rules = parse_ruleset(json.dumps(data), "x.json")
    assert hazard_chance(rules, "coast") == Fraction(1, 2)
    source = Recording()
    roll(source, rules, "coast")
    assert source.asked[0][1:] == (6, 3)


def test_B13_1_a_roll_reports_the_face_the_source_shows():
    rules = load_ruleset()
    assert roll(ScriptedDice([True]), rules, "4") is True
    assert roll(ScriptedDice([False]), rules, "4") is False
    first, again = SeededDice(3), SeededDice(3)
    assert [roll(first, rules, "leader") for _ in range(20)] == [roll(again, rules, "leader") for _ in range(20)]


def test_B13_1_seeded_frequencies_follow_the_hazard_faces():
    rules = load_ruleset()
    source = SeededDice(11)
    n = 6000
    shown = sum(roll(source, rules, "5") for _ in range(n))
    assert abs(shown / n - 1 / 3) < 0.03
    shown = sum(roll(source, rules, "1") for _ in range(n))
    assert abs(shown / n - 1 / 6) < 0.03
