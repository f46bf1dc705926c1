"""Achievements as data: the shipped file is valid and has at least 12, every name and
description exists in EN, FR and DE with the same placeholders, a bad file is refused naming the
file, the field and the reason, and each condition kind holds exactly when it should."""

from __future__ import annotations

import json
import string

import pytest

from bot.engine.core.errors import DataError
from bot.i18n import catalogue
from bot.services.career.achievements import RallyFacts, Totals, keys_of, load_achievements, met, shipped
from bot.services.career.careers import CARD_HEADS

LANGS = ("en", "fr", "de")


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_shipped_achievements_are_at_least_twelve_each_with_its_texts_in_every_language():
    found = shipped()
    assert len(found) >= 12
    kinds = {a.kind for a in found}
    assert kinds == {"stat", "clean", "flat_out", "comeback", "personal_best", "survivor", "games_won"}
    for a in found:
        for key in keys_of(a.id):
            texts = [catalogue(lang).get(key) for lang in LANGS]
            assert all(texts), f"{key} missing in a language"
            assert len({frozenset(_placeholders(t or "")) for t in texts}) == 1, key


def test_every_card_heading_and_stat_label_exists_in_every_language():
    keys = [f"career.head_{k}" for k in CARD_HEADS] + [
        f"career.stat_{k}" for k in ("rallies", "stages", "wins", "podiums", "dnfs", "losses", "gear", "gap")]
    for key in keys:
        assert all(key in catalogue(lang) for lang in LANGS), key


@pytest.mark.parametrize(("entry", "field", "reason"), [
    ({"id": "x", "kind": "teleport"}, "achievements.0.kind", "Input should be"),
    ({"id": "x", "kind": "stat", "at_least": 3}, "achievements.0", "needs 'stat'"),
    ({"id": "x", "kind": "stat", "stat": "naps", "at_least": 3}, "achievements.0.stat", "Input should be"),
    ({"id": "x", "kind": "games_won", "games": ["chess"]}, "achievements.0.games", "unknown game 'chess'"),
    ({"id": "Bad Id", "kind": "clean"}, "achievements.0.id", "pattern"),
    ({"id": "x", "kind": "clean", "at_least": 2}, "achievements.0", "means nothing"),
    ({"id": "x", "kind": "flat_out", "share": 1.5}, "achievements.0.share", "less than or equal"),
])
def test_a_bad_achievement_is_refused_naming_file_field_and_reason(tmp_path, entry, field, reason):
    path = tmp_path / "achievements.json"
    path.write_text(json.dumps({"achievements": [entry]}), encoding="utf-8")
    with pytest.raises(DataError) as refused:
        load_achievements(path)
    text = str(refused.value)
    assert str(path) in text and field in text and reason in text


def test_an_achievement_defined_twice_or_a_broken_file_is_refused(tmp_path):
    path = tmp_path / "achievements.json"
    path.write_text(json.dumps({"achievements": [{"id": "a", "kind": "clean"}, {"id": "a", "kind": "comeback"}]}))
    with pytest.raises(DataError, match="defined twice"):
        load_achievements(path)
    path.write_text("{not json")
    with pytest.raises(DataError, match="line 1"):
        load_achievements(path)


def _facts(**kw) -> RallyFacts:
    base = {"game": "rallyman", "finished": True, "won": False, "started_last": False,
            "counters": {"turns": 6, "losses": 0, "top": 2, "gear.5": 2, "gear.3": 4}, "beat_best": False}
    return RallyFacts(**{**base, **kw})


def _one(kind: str):
    return next(a for a in shipped() if a.kind == kind)


def test_each_condition_kind_holds_exactly_when_it_should():
    first_win = next(a for a in shipped() if a.id == "first_win")
    assert not met(first_win, Totals(wins=0), _facts()) and met(first_win, Totals(wins=1), _facts())
    clean = _one("clean")
    assert met(clean, Totals(), _facts())
    assert not met(clean, Totals(), _facts(counters={"turns": 6, "losses": 1}))
    assert not met(clean, Totals(), _facts(counters={"turns": 6, "stages": 1}))  # a game that counts no losses
    assert not met(clean, Totals(), _facts(finished=False))
    flat = _one("flat_out")
    assert not met(flat, Totals(), _facts())
    assert met(flat, Totals(), _facts(counters={"turns": 3, "losses": 0, "top": 3, "gear.5": 3}))
    assert not met(flat, Totals(), _facts(counters={"turns": 3}))  # no gears in this game
    comeback = _one("comeback")
    assert met(comeback, Totals(), _facts(won=True, started_last=True))
    assert not met(comeback, Totals(), _facts(won=True)) and not met(comeback, Totals(), _facts(started_last=True))
    best = _one("personal_best")
    assert met(best, Totals(), _facts(beat_best=True)) and not met(best, Totals(), _facts())
    survivor = _one("survivor")
    assert met(survivor, Totals(), _facts(counters={"turns": 9, "losses": 3}))
    assert not met(survivor, Totals(), _facts(counters={"turns": 9, "losses": 3}, finished=False))
    crown = _one("games_won")
    assert not met(crown, Totals(won_games=frozenset({"rallyman", "dirt"})), _facts())
    assert met(crown, Totals(won_games=frozenset({"rallyman", "dirt", "roadrally"})), _facts())
