"""`python -m bot stage …`: list, validate, show and generate, called through `bot.__main__.main`."""

from __future__ import annotations

import re
import shutil

from bot.__main__ import main
from bot.engine.rallyman.stages.loader import stage_paths
from bot.paths import data_dir

SECTION_LINE = re.compile(r"^\s+\d+(–\d+)?\s{2}\S")


def test_list_shows_every_stage_with_its_figures(capsys, shipped):
    assert main(["stage", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["name", "title", "spaces", "zones"]
    for name, stage in shipped.items():
        row = next(line for line in out if line.startswith(name + " "))
        assert stage.title in row
        c = stage.counts()
        assert row.split()[-4:] == [str(c["corners"]), str(c["bumps"]), str(c["shortcuts"]), str(c["splits"])]
        assert f" {stage.length} " in row


def test_validate_a_good_stage_says_ok_with_its_length(capsys, tmp_path, shipped):
    name = next(iter(shipped))
    path = tmp_path / f"{name}.stage"
    shutil.copy(data_dir() / "rallyman" / "stages" / f"{name}.stage", path)
    assert main(["stage", "validate", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"ok {name} ({shipped[name].length} spaces)"


def test_validate_a_bad_stage_fails_with_file_line_and_reason(capsys, tmp_path):
    path = tmp_path / "broken.stage"
    path.write_text("title: Broken\nstart\nzone A\nstraight 3\nleft 7 skid 5x2\nfinish\n")
    assert main(["stage", "validate", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:5: corner note 7 is outside 1–5 — " in err


def test_validate_reports_every_file_given(capsys, tmp_path):
    good, bad = tmp_path / "good.stage", tmp_path / "bad.stage"
    good.write_text("start\nzone A\nstraight 3\nright 3 skid 4x2\nstraight 2\nfinish\n")
    bad.write_text("start\nzone A\nstraight 3 [grass|lava]\nfinish\n")
    assert main(["stage", "validate", str(bad), str(good)]) == 1
    captured = capsys.readouterr()
    assert "ok good (" in captured.out
    assert f"{bad}:3: unknown terrain 'lava'" in captured.err


def test_validate_checks_zone_files_and_folders(capsys):
    classic = data_dir() / "rallyman"
    assert main(["stage", "validate", str(classic / "zones"), str(classic / "stages")]) == 0
    lines = capsys.readouterr().out.splitlines()
    zone_count = len(list((classic / "zones").glob("*.zone")))
    assert all(line.startswith("ok ") for line in lines)
    assert sum(line.startswith("ok zone ") for line in lines) == zone_count
    assert len(lines) == zone_count + len(stage_paths())


def test_validate_a_bad_zone_file(capsys, tmp_path):
    path = tmp_path / "Z.zone"
    path.write_text("zone: Z\nlegend: grass 0, dirt 0\n@1\nstraight 2\n@2\n")
    assert main(["stage", "validate", str(path)]) == 1
    assert f"{path}:2: the legend misses snow, forest, rocks, village, water" in capsys.readouterr().err


def test_a_stage_is_checked_against_a_zone_file_given_with_it(capsys, tmp_path):
    """A new zone and a stage that uses it, validated together before either is shipped."""
    zone = tmp_path / "Y.zone"
    zone.write_text("zone: Y\nlegend: grass 0, dirt 0, snow 0, forest 1, rocks 2, village 1, water 2\n"
                    "@1\nstraight 3\nleft 3 skid 4x2\n@2\nsplit\nstraight 3\n@3\n")
    stage = tmp_path / "uses-y.stage"
    stage.write_text("route: Y1-Y3\n")
    assert main(["stage", "validate", str(zone), str(stage)]) == 0
    out = capsys.readouterr().out
    assert "ok zone Y" in out and "ok uses-y (" in out


def test_show_prints_a_line_per_section_with_start_zones_splits_and_finish(capsys, shipped):
    name, stage = max(shipped.items(), key=lambda item: len(item[1].zone_order))
    assert main(["stage", "show", name]) == 0
    lines = capsys.readouterr().out.splitlines()
    sections = [line for line in lines if SECTION_LINE.match(line)]
    assert len(sections) == len(stage.sections)
    assert lines[1] == "start" and lines[-1] == "finish"
    assert sum(line.startswith("zone ") for line in lines) >= len(stage.zone_order)
    assert sum(line.startswith("split") for line in lines) == stage.counts()["splits"]
    corner = stage.corners[0]
    assert any(f"{corner.direction} {corner.interior_note} (interior" in line for line in sections)


def test_show_reads_a_path_too(capsys, tmp_path):
    path = tmp_path / "mine.stage"
    path.write_text("title: Mine\nstart\nzone B\nstraight 2 [grass|water]\nleft 3 skid 4-4-3 K4 [rocks|water]\n"
                    "split\nbump 3\nfinish\n")
    assert main(["stage", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Mine (mine)" in out
    assert "left 3 (interior 2 spaces, 90°), skid 4·4·3, shortcut K4" in out
    assert "[rocks | water]" in out and "bump 3" in out


def test_show_an_unknown_stage_lists_the_known_ones(capsys, shipped):
    assert main(["stage", "show", "no-such-stage"]) == 1
    err = capsys.readouterr().err
    assert "no stage named 'no-such-stage'" in err and next(iter(shipped)) in err


def test_generate_output_round_trips_through_validate(capsys, tmp_path):
    assert main(["stage", "generate", "--seed", "11", "--length", "25"]) == 0
    text = capsys.readouterr().out
    path = tmp_path / "weekly.stage"
    path.write_text(text)
    assert main(["stage", "validate", str(path)]) == 0
    assert capsys.readouterr().out.startswith("ok weekly (")
    assert main(["stage", "generate", "--seed", "11", "--length", "25"]) == 0
    assert capsys.readouterr().out == text


def test_generate_refuses_a_length_out_of_range(capsys):
    assert main(["stage", "generate", "--seed", "1", "--length", "3"]) == 2
    assert "12 to 120 spaces" in capsys.readouterr().err
