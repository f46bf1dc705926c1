"""Each game owns its words: `bot/engine/<game>/text/<lang>.json` in its package, merged by
`bot.i18n.catalogue` with the shared catalogue (`data/i18n/<lang>/`, the bot's own words).

A game's file that redefines a shared key, or misses a language, is refused naming the file (and
the key); the catalogue is as before once that game is gone. No key the shared catalogue keeps is
one game's alone (the rules of `tools/split_catalogue.py`, which moved them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot import games
from bot.engine.core.errors import DataError
from bot.i18n import ENGINE, add_texts, catalogue, game_texts, languages, remove_texts
from tools.split_catalogue import plan


def _folder(tmp_path: Path, entries: dict[str, str], langs: tuple[str, ...] = ("en", "fr", "de")) -> Path:
    folder = tmp_path / "text"
    folder.mkdir()
    for lang in langs:
        (folder / f"{lang}.json").write_text(json.dumps(entries), encoding="utf-8")
    return folder


@pytest.fixture
def added():
    folders: list[Path] = []
    yield folders.append
    for folder in folders:
        remove_texts(folder)


def test_every_registered_game_brings_its_words_and_every_text_folder_is_a_games():
    registered = {game.library.texts for game in games.games()}
    assert None not in registered, "every game brings its own words (its `texts` folder)"
    assert set(game_texts()) == registered
    assert all(folder.parent.parent == ENGINE and folder.name == "text" for folder in game_texts())


def test_each_game_has_words_of_its_own_in_every_language():
    for folder in game_texts():
        for lang in languages():
            entries = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
            assert len(entries) > 100 and all(key in catalogue(lang) for key in entries), (folder, lang)
    assert catalogue("de")["game.dirt"] == json.loads((ENGINE / "dirt" / "text" / "de.json").read_text())["game.dirt"]


def test_a_game_redefining_a_shared_key_is_refused_naming_its_file_and_the_key(tmp_path, added):
    before = dict(catalogue("en"))
    folder = _folder(tmp_path, {"list.or": "either", "mine.word": "mine"})
    add_texts(folder)
    added(folder)
    with pytest.raises(DataError) as refused:
        catalogue("en")
    assert refused.value.source == str(folder / "en.json") and refused.value.field == "list.or"
    assert "data/i18n/en/engine.json" in refused.value.reason
    remove_texts(folder)
    assert catalogue("en") == before


def test_a_key_of_another_game_is_refused_as_well(tmp_path, added):
    folder = _folder(tmp_path, {"dirt.name_taken": "x", "game.roadrally": "Road Rally again"})
    add_texts(folder)
    added(folder)
    with pytest.raises(DataError) as refused:
        catalogue("fr")
    assert refused.value.field == "game.roadrally"
    assert refused.value.reason == "defined twice (also in bot/engine/roadrally/text/fr.json)"


def test_a_game_missing_a_language_is_refused_naming_the_file(tmp_path, added):
    folder = _folder(tmp_path, {"mine.word": "mine"}, langs=("en", "fr"))
    add_texts(folder)
    added(folder)
    assert catalogue("fr")["mine.word"] == "mine"
    with pytest.raises(DataError) as refused:
        catalogue("de")
    assert refused.value.source == str(folder / "de.json") and "missing" in refused.value.reason
    remove_texts(folder)
    assert "mine.word" not in catalogue("de") and "mine.word" not in catalogue("en")


def test_a_shipped_games_folder_is_never_read_twice():
    folder = ENGINE / "dirt" / "text"
    add_texts(folder)
    try:
        assert game_texts().count(folder) == 1
        assert catalogue("en")["game.dirt"]
    finally:
        remove_texts(folder)


def test_the_shared_catalogue_keeps_no_games_own_key():
    assert plan() == {}, "run `python tools/split_catalogue.py` to move each game's own keys to its package"
