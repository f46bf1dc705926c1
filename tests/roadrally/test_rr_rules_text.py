"""`/rules` for Road Rally USA (RULES Part C): a summary of each preset citing the C ids, its numbers
read from the preset file, in EN, FR and DE with no key left unread."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import DataError
from bot.engine.core.text import Msg
from bot.engine.roadrally.presets import PRESETS, preset
from bot.engine.roadrally.rules_text import PRESET_WORDS, rules_lines
from bot.i18n import render


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_has_a_summary_in_every_language(name):
    lines = rules_lines(name)
    assert all(isinstance(line, Msg) for line in lines)
    for lang in ("en", "fr", "de"):
        text = "\n".join(render(line, lang) for line in lines)
        assert "roadrally." not in text and "{" not in text
        for section in ("C1", "C4", "C5", "C6", "C6.3", "C6.4", "C8", "C9", "C10.2", "C10.8"):
            assert section in text, (lang, section)
        assert "OPEN-R1" in text and "AMB-R1" in text and "AMB-R2" in text


def test_the_numbers_are_the_preset_files():
    """C4, C6.3, C6.4, C7, C9: hand size, draws, stage cards, points, limits and the sprint, as read."""
    p = preset("rr-standard")
    text = "\n".join(rules_lines("rr-standard"))
    assert f"{p.hand_size} cards in hand" in text and "🟩 5×1 + 4×2, 🟨 4×2 + 3×3, 🟥 3×3 + 2×4" in text
    assert "draw by colour: 🟩 2, 🟨 1, 🟥 0" in text
    assert "3 players: 6, 4 players: 5, 5 players: 4" in text  # C7 stage cards
    assert "  3 players: 5 · 3 · 1 or 2 cards" in text.split("\n")
    assert "  4 players: 4 · 3 · 2 or 2 cards · 1 or 2 cards" in text.split("\n")
    assert "3 players: 3, 4 players: 3, 5 players: 2" in text and "At most 2 stages are scored per round" in text
    assert "you may reshuffle" in text and "before or after the shuffle" in text and "first car to pass" not in text
    assert "stage tiles from 11 on" in text and "2 stage cards from deck B and may score 1" in text
    base = "\n".join(rules_lines("rr-base"))
    assert "are reshuffled, then you draw 2" in base and "then you draw (AMB-R1)" in base
    assert "per round" not in base and "3 players: 4, 4 players: 4, 5 players: 4" in base
    assert "  3 players: 5 · 4 · 3" in base.split("\n")
    demo = "\n".join(rules_lines("rr-demo-fr"))
    assert "the first car to pass it takes its tile" in demo and "3 players: 3, 4 players: 3, 5 players: 3" in demo


def test_a_changed_preset_changes_the_text(monkeypatch):
    """The numbers are read, never written: another hand size reads another number."""
    changed = preset("rr-standard").model_copy(update={"hand_size": 7, "store_max": 4})
    monkeypatch.setattr("bot.engine.roadrally.rules_text.preset", lambda name: changed)
    text = "\n".join(rules_lines("rr-standard"))
    assert "7 cards in hand" in text and "up to 4 cards of any colours" in text


def test_every_preset_has_its_name_and_an_unknown_one_is_refused():
    assert set(PRESET_WORDS) == set(PRESETS)
    with pytest.raises(DataError, match="no such preset"):
        rules_lines("rr-nope")
