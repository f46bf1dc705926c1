"""A stage file that is not UTF-8 (or cannot be read) is refused naming the file and its line,
never a traceback, and the rest of the library still lists: `stage validate`, `stage list` (both
games' tools) and `/stage list` (Discord, through the real command tree)."""

from __future__ import annotations

import shutil

import pytest

from bot import games
from bot.__main__ import main as cli_main
from bot.engine.core.errors import StageError
from bot.engine.core.stage_text import read_stage_file
from bot.paths import data_dir
from tests.discord.fakes import Harness, private_answers

BAD = b"title: Caf\xe9 Corner\nstart\nfinish\n"  # Latin-1, not UTF-8: byte 0xe9 on line 1


@pytest.fixture
def library(tmp_path, monkeypatch):
    """A copy of the shipped stages and zones (both games) with one Latin-1 stage file in each
    game's folder, as the data folder (`RALLYBOT_DATA`)."""
    data = tmp_path / "data"
    for part in ("rallyman/stages", "rallyman/zones", "dirt/stages"):
        shutil.copytree(data_dir() / part, data / part)
    for folder in (data_dir(), data_dir() / "rallyman", data_dir() / "dirt"):  # the rest as shipped (catalogues …)
        for entry in folder.iterdir():
            mirror = data / entry.relative_to(data_dir())
            if not mirror.exists() and entry.name not in ("cache",):
                mirror.symlink_to(entry)
    (data / "rallyman" / "stages" / "cafe-corner.stage").write_bytes(BAD)
    (data / "dirt" / "stages" / "cafe-corner.stage").write_bytes(BAD)
    monkeypatch.setenv("RALLYBOT_DATA", str(data))
    return data


def test_a_file_that_is_not_utf8_is_refused_naming_the_file_the_line_and_the_byte(tmp_path):
    path = tmp_path / "x.stage"
    path.write_bytes(b"title: ok\nstart\n# caf\xe9\n")
    with pytest.raises(StageError) as refused:
        read_stage_file(path)
    assert str(path) in str(refused.value) and refused.value.where == 3 and "0xe9" in str(refused.value)
    with pytest.raises(StageError) as missing:
        read_stage_file(tmp_path / "none.stage")
    assert "cannot read the file" in str(missing.value)


@pytest.mark.parametrize("folder", ["rallyman/stages", "dirt/stages"])
def test_stage_validate_reports_the_bad_file_and_checks_the_others(library, capsys, folder):
    good = sorted((library / folder).glob("*.stage"))[0]
    bad = library / folder / "cafe-corner.stage"
    assert cli_main(["stage", "validate", str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert f"ok {good.stem}" in out
    assert "cafe-corner.stage" in err and "not UTF-8" in err and "Traceback" not in err


@pytest.mark.parametrize("game", ["rallyman", "dirt"])
def test_stage_list_lists_the_others_and_names_the_bad_file(library, capsys, game):
    assert cli_main(["stage", "list", "--game", game]) == 1
    out, err = capsys.readouterr()
    assert "cafe-corner" in err and "not UTF-8" in err and "Traceback" not in err
    names = [n for n in games.get(game).library.stages.names() if n != "cafe-corner"]
    assert names and all(name in out for name in names)


async def test_slash_stage_list_names_the_bad_file_and_lists_the_others(library, tmp_path, caplog):
    async with Harness(tmp_path / "stage.sqlite3") as h:
        calls = await h.command((1001, "Alice"), "stage", "list")
    (text,) = private_answers(calls)
    assert "Something went wrong" not in text
    lines = text.splitlines()
    (unreadable,) = [line for line in lines if line.startswith("`cafe-corner`")]
    assert "cannot be read" in unreadable
    others = [n for n in games.get(None).library.stages.names() if n != "cafe-corner"]
    assert all(any(line.startswith(f"`{name}` ") for line in lines) for name in others)
    assert any("cafe-corner" in r.getMessage() and "not UTF-8" in r.getMessage() for r in caplog.records)
