"""`/rules` for DIRT (RULES B13): a "provisional rules" header, then one line
per B13 default naming its OPEN ids, every number read from the ruleset file."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import DataError
from bot.engine.dirt import rules_text
from bot.engine.dirt.ruleset import load_ruleset
from bot.i18n import render

OPEN_IDS = {"B13.1": ["OPEN-D4"], "B13.2": ["OPEN-D2"], "B13.3": ["OPEN-D5", "OPEN-D6"],
            "B13.4": ["OPEN-D1", "OPEN-D8"], "B13.5": ["OPEN-D9"], "B13.6": ["OPEN-D3", "OPEN-D7", "OPEN-D10"],
            "B13.8": []}


@pytest.mark.parametrize("lang, header", [("en", "Rallyman: DIRT — provisional rules"),
                                          ("fr", "Rallyman: DIRT — règles provisoires"),
                                          ("de", "Rallyman: DIRT — vorläufige Regeln")])
def test_the_header_says_provisional_rules_and_each_default_names_its_open_ids(lang, header):
    lines = [render(line, lang) for line in rules_text.rules_lines("provisional")]
    assert header in lines[0]
    for section, ids in OPEN_IDS.items():
        (line,) = [text for text in lines if text.startswith(f"• {section} ")]
        assert all(open_id in line for open_id in ids), (section, line)


def test_the_numbers_are_the_ruleset_file_s():
    rules = load_ruleset("provisional")
    text = "\n".join(render(line, "en") for line in rules_text.rules_lines("provisional"))
    cards = ", ".join(f"{gear} = {seconds} s" for gear, seconds in sorted(rules.time_card_seconds.items()))
    assert cards in text and f'the "0" side {rules.zero_side_seconds} s' in text
    bag = rules.damage_bag
    assert f"a bag of {sum(bag.values())} — {bag['ok']} OK!, {bag['coast']} coast die" in text
    assert f"at least {rules.attack_min_dice} dice" in text


def test_other_values_in_the_file_change_the_text(monkeypatch):
    rules = load_ruleset("provisional")
    changed = rules.model_copy(update={"time_card_seconds": {**rules.time_card_seconds, "1": 61},
                                       "damage_bag": {**rules.damage_bag, "ok": 20}, "provisional": False})
    monkeypatch.setattr(rules_text, "load_ruleset", lambda name: changed)
    text = "\n".join(render(line, "en") for line in rules_text.rules_lines("provisional"))
    assert "1 = 61 s" in text and "a bag of 44 — 20 OK!" in text
    assert "provisional rules" not in text  # a ruleset that is no longer provisional says so no more


def test_an_unknown_ruleset_is_refused_naming_the_rulesets():
    with pytest.raises(DataError, match="provisional"):
        rules_text.rules_lines("house")
