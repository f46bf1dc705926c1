"""`python -m bot stage … [--game GAME]` (tools): one command for every game's
stage tools, picked by `--game` (bot/cli/stage.py), DIRT's in bot/engine/dirt/stages/tool.py."""

from __future__ import annotations

import shutil

import pytest

from bot.__main__ import main
from bot.engine.dirt.library import DIRT_STAGES, jumps, shortcuts, slides
from bot.engine.dirt.stages import catalogue
from bot.engine.dirt.stages.generator import generate
from bot.paths import data_dir


def test_list_dirt_has_a_header_and_a_line_per_shipped_stage_with_its_figures(capsys):
    assert main(["stage", "list", "--game", "dirt"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["name", "title", "tiles", "length", "corners", "slides", "shortcuts", "jumps",
                              "difficulty"]
    assert len(out) == 1 + len(catalogue.stage_names())
    for name in catalogue.stage_names():
        stage, facts = catalogue.load_stage(name), DIRT_STAGES.facts(name)
        row = next(line for line in out if line.startswith(name + " "))
        assert stage.title in row
        assert row.split()[-7:] == [str(len(stage.tiles)), facts.length_class, str(facts.corners),
                                    str(slides(stage)), str(shortcuts(stage)), str(jumps(stage)),
                                    str(facts.difficulty)]


def test_game_may_come_before_the_action(capsys):
    assert main(["stage", "--game", "dirt", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("name")


def test_list_without_a_game_is_classic_as_before(capsys):
    assert main(["stage", "list"]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert header[:4] == ["name", "title", "spaces", "zones"]


def test_an_unknown_game_is_refused_naming_the_games(capsys):
    assert main(["stage", "list", "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert "'chess'" in err and "rallyman" in err and "dirt" in err


def test_validate_tells_the_games_apart_by_folder(capsys):
    classic = data_dir() / "rallyman" / "stages" / "pinewood-sprint.stage"
    dirt = data_dir() / "dirt" / "stages" / "mill-ford.stage"
    assert main(["stage", "validate", str(classic), str(dirt)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["ok pinewood-sprint (19 spaces)", "ok mill-ford (14 tiles)"]


def test_validate_a_folder_of_dirt_stages(capsys):
    assert main(["stage", "validate", str(data_dir() / "dirt" / "stages")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(catalogue.stage_names()) and all(line.startswith("ok ") for line in lines)


def test_validate_a_bad_dirt_file_names_file_line_and_reason(capsys, tmp_path):
    folder = tmp_path / "dirt"
    folder.mkdir()
    bad = folder / "bad.stage"
    bad.write_text("title: Bad\nstraight\nstart\nstraight\nleft 7/8\nstraight\nfinish\nstraight\n")
    assert main(["stage", "validate", str(bad)]) == 1
    assert f"{bad}:5: " in capsys.readouterr().err


def test_game_flag_validates_a_dirt_file_anywhere(capsys, tmp_path):
    path = tmp_path / "copy.stage"
    shutil.copy(data_dir() / "dirt" / "stages" / "mill-ford.stage", path)
    assert main(["stage", "validate", "--game", "dirt", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "ok copy (14 tiles)"
    assert main(["stage", "validate", str(path)]) == 1  # outside a dirt folder: read as classic, refused
    assert f"{path}:" in capsys.readouterr().err


@pytest.mark.parametrize("tiles", [10, 14, 18])
def test_generate_dirt_prints_the_generators_text_and_it_validates(capsys, tmp_path, tiles):
    assert main(["stage", "generate", "--game", "dirt", "--seed", "5", "--tiles", str(tiles)]) == 0
    text = capsys.readouterr().out
    assert text == generate(5, tiles)
    folder = tmp_path / "dirt"
    folder.mkdir()
    (folder / "g.stage").write_text(text)
    assert main(["stage", "validate", str(folder / "g.stage")]) == 0
    assert capsys.readouterr().out.strip() == f"ok g ({tiles} tiles)"


def test_generate_dirt_refuses_a_length_out_of_range(capsys):
    assert main(["stage", "generate", "--game", "dirt", "--seed", "1", "--tiles", "40"]) == 2
    assert "6 to 31 tiles" in capsys.readouterr().err
