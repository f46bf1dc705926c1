"""Road Rally USA presets as data (RULES C1, C2, C4-C9, AMB-R1..R3, OPEN-R1, C10)."""

from __future__ import annotations

import json

import pytest

from bot.engine.core.errors import DataError
from bot.engine.roadrally.presets import PRESETS, load_preset_text, preset
from bot.paths import data_dir


def test_every_preset_loads_with_the_open_r1_card_mix():
    """C1, OPEN-R1: 21 cards: green 5x1+4x2, yellow 4x2+3x3, red 3x3+2x4; draws green 2, yellow 1, red 0."""
    for name in PRESETS:
        p = preset(name)
        deck = p.deck()
        assert len(deck) == 21
        assert sorted(deck).count(("green", 1)) == 5 and deck.count(("green", 2)) == 4
        assert deck.count(("yellow", 2)) == 4 and deck.count(("yellow", 3)) == 3
        assert deck.count(("red", 3)) == 3 and deck.count(("red", 4)) == 2
        assert p.draws == {"green": 2, "yellow": 1, "red": 0}
        assert p.hand_size == 5


def test_the_three_presets_differ_as_amb_r3_says():
    """AMB-R3, C4, C5, C6.4, C7: checkpoint, limits, empty-hand reshuffle and gas draw per preset."""
    base, standard, demo = preset("rr-base"), preset("rr-standard"), preset("rr-demo-fr")
    assert (base.checkpoint, standard.checkpoint, demo.checkpoint) == ("end", "end", "pass")
    assert base.card_limit == {"3": 2, "4": 2, "5": 2} and base.round_limit is None
    assert standard.card_limit == {"3": 3, "4": 3, "5": 2} and standard.round_limit == 2
    assert demo.card_limit == {"3": 3, "4": 3, "5": 3} and demo.round_limit == 2
    assert demo.stage_cards == {"3": 4, "4": 4, "5": 4}
    assert standard.stage_cards == {"3": 6, "4": 5, "5": 4} and standard.stage_deal == "halves"
    assert (base.empty_hand_reshuffle, standard.empty_hand_reshuffle, demo.empty_hand_reshuffle) == \
        ("compulsory", "optional", "compulsory")
    assert (base.gas_draw, standard.gas_draw, demo.gas_draw) == ("shuffle_then_draw", "choose", "choose")
    assert [p for p, _ in standard.points["3"]] == [5, 3, 1] and [c for _, c in standard.points["4"]] == \
        [False, False, True, True]
    assert base.sprint.first_stage == 11 and base.sprint.stage_cards == 2 and base.sprint.card_limit == 1


def _text(**changes: object) -> str:
    raw = json.loads((data_dir() / "roadrally" / "presets" / "rr-base.json").read_text(encoding="utf-8"))
    raw.update(changes)
    return json.dumps(raw)


@pytest.mark.parametrize(("changes", "field", "reason"), [
    ({"cards": {"green": [[1, 5]], "yellow": [[2, 4]]}}, "cards", "exactly the colours"),
    ({"draws": {"green": -1, "yellow": 1, "red": 0}}, "draws", "draw of 0 or more"),
    ({"points": {"3": [[5, False]], "4": [[5, False]] * 4, "5": [[5, False]] * 5}}, "points.3", "3 places"),
    ({"hand_size": 0}, "hand_size", "greater than or equal"),
    ({"checkpoint": "somewhere"}, "checkpoint", "Input should be"),
    ({"name": "other"}, "name", "file's name"),
])
def test_a_bad_preset_is_refused_naming_file_field_and_reason(changes, field, reason):
    with pytest.raises(DataError) as err:
        load_preset_text(_text(**changes), "roadrally/presets/rr-base.json")
    assert err.value.source == "roadrally/presets/rr-base.json"
    assert field in str(err.value)
    assert reason in err.value.reason


def test_an_unknown_preset_is_refused():
    with pytest.raises(DataError, match="no such preset"):
        preset("rr-nope")
