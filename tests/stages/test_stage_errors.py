"""Every invalid stage or zone file is refused with its file, its line (or field), the reason and a hint."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import StageError
from bot.engine.rallyman.stages.loader import load_stage_file, load_zones

GOOD_LEGEND = "legend: grass 0, dirt 0, snow 0, forest 1, rocks 2, village 1, water 2"


def _stage_error(tmp_path, zones, text: str) -> tuple[StageError, str]:
    path = tmp_path / "bad.stage"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StageError) as caught:
        load_stage_file(path, zones)
    return caught.value, str(path)


def _inline(*notes: str) -> str:
    """A stage whose notes start on line 3 (after title and a comment)."""
    return "title: Broken\n# notes below\n" + "\n".join(notes) + "\n"


STAGE_CASES = [
    ("A8_corner_note_above_5", _inline("start", "zone A", "straight 2", "left 6 skid 5x2", "finish"), 6,
     "corner note 6 is outside 1–5"),
    ("A8_corner_note_0", _inline("start", "zone A", "right 0", "finish"), 5, "corner note 0 is outside 1–5"),
    ("A8_2_skid_without_spaces", _inline("start", "zone A", "straight 2", "left 3 skid 4", "finish"), 6,
     "skid 4 has no spaces"),
    ("A8_2_skid_without_a_note", _inline("start", "zone A", "left 3 skid", "finish"), 5, "skid without a note"),
    ("A8_4_shortcut_that_skips_nothing", _inline("start", "zone A", "left 3x1 skid 4x2 K4", "finish"), 5,
     "the shortcut K4 skips nothing"),
    ("A11_3_unknown_terrain", _inline("start", "zone A", "straight 3 [grass|mud]", "finish"), 5,
     "unknown terrain 'mud'"),
    ("missing_finish", _inline("start", "zone A", "straight 3", "left 3 skid 4x2"), 6,
     "the stage has no finish"),
    ("missing_start", _inline("zone A", "straight 3", "finish"), 3, "the stage does not begin with `start`"),
    ("unknown_zone", _inline("start", "zone Q", "straight 3", "finish"), 4, "zone Q is not defined"),
    ("unknown_note_word", _inline("start", "zone A", "jump 3", "finish"), 5, "unknown note 'jump'"),
    ("road_before_any_zone", _inline("start", "straight 3", "finish"), 4, "road before any zone"),
    ("A21_split_right_before_the_finish", _inline("start", "zone A", "straight 3", "split", "finish"), 6,
     "a split point right before the finish"),
    ("overlapping_layout", _inline("start", "zone A", "straight 6", "right 3", "straight 1", "right 3",
                                   "straight 1", "right 3", "straight 4", "finish"), 11,
     "the road overlaps itself"),
    ("AMB_21_corner_right_after_a_bump", _inline("start", "zone A", "straight 2", "bump 3", "left 3 skid 4x2",
                                                 "straight 3", "finish"), 6,
     "a corner lies 1 space after the bump"),
    ("AMB_21_corner_two_spaces_after_a_bump", _inline("start", "zone A", "straight 2", "bump 3", "straight 1",
                                                      "right 2 skid 3x2 K3", "straight 3", "finish"), 6,
     "a corner lies 2 spaces after the bump"),
    ("AMB_21_second_bump_of_a_row_before_a_corner",
     _inline("start", "zone A", "straight 2", "bump 3", "straight 1", "bump 4", "straight 1", "left 4 skid 5x2",
             "straight 3", "finish"), 8, "a corner lies 2 spaces after the bump"),
    ("A2_3_backwards_route_segment", "title: Backwards\nroute: A4-A1\n", 2, "A4-A1 runs backwards"),
    ("A2_3_route_segment_that_covers_no_road", "title: Still\nroute: A2-A2\n", 2, "A2-A2 covers no road"),
    ("A2_3_route_to_a_missing_point", "title: Nowhere\nroute: A1-A9\n", 2, "zone A has no connection point @9"),
    ("A2_3_route_over_an_unknown_zone", "title: Nowhere\nroute: A1-A2 / Q1-Q2\n", 2, "zone Q is not defined"),
]


@pytest.mark.parametrize(("text", "line", "reason"), [c[1:] for c in STAGE_CASES], ids=[c[0] for c in STAGE_CASES])
def test_stage_errors_name_file_line_reason_and_hint(tmp_path, zones, text, line, reason):
    error, path = _stage_error(tmp_path, zones, text)
    message = str(error)
    assert error.where == line, message
    assert message.startswith(f"{path}:{line}: "), message
    assert reason in error.reason, message
    assert " — " in message and error.hint, message


def test_A2_3_backwards_route_hint_gives_the_right_order(tmp_path, zones):
    error, _ = _stage_error(tmp_path, zones, "route: A4-A1\n")
    assert "write A1-A4" in error.hint


def test_overlap_on_a_route_points_at_the_route_line_and_names_the_zone_file(tmp_path):
    """A route whose boards lay over each other: the error names the stage's route line and the zone file."""
    folder = tmp_path / "zones"
    folder.mkdir()
    (folder / "Y.zone").write_text(f"zone: Y\n{GOOD_LEGEND}\n@1\nstraight 6\nright 3\nstraight 1\n@2\n"
                                   "right 3\nstraight 1\nright 3\nstraight 4\n@3\n", encoding="utf-8")
    zones = load_zones(folder)
    error, path = _stage_error(tmp_path, zones, "title: Pile-up\nroute: Y1-Y2 / Y2-Y3\n")
    assert str(error).startswith(f"{path}:2: the road overlaps itself")
    assert f"lines of {folder / 'Y.zone'}" in error.reason
    assert "line 11" in error.reason  # the straight that runs back over the start, in Y.zone


def test_AMB_21_the_bump_error_says_why_and_how_to_mend_it(tmp_path, zones):
    """AMB-21 / A10.3: the refusal explains the jump and gives the fix."""
    error, path = _stage_error(tmp_path, zones, _inline("start", "zone A", "straight 2", "bump 3",
                                                        "left 3 skid 4x2", "straight 3", "finish"))
    assert str(error) == (f"{path}:6: bump 3: a corner lies 1 space after the bump (line 7), so a jump "
                          "could fly over its entry (RULES A10.3, AMB-21) — leave at least 2 spaces of "
                          "road between a bump and a corner, e.g. `straight 2` after the bump")


def test_AMB_21_a_corner_three_spaces_after_a_bump_is_fine(tmp_path, zones):
    """AMB-21: only the two spaces a jump can fly over must be free of corners; the landing space
    of a jump at N+2 (the 3rd after the bump) may be a corner space, checked normally (A10.3)."""
    path = tmp_path / "ok.stage"
    path.write_text(_inline("start", "zone A", "straight 2", "bump 3", "straight 2", "left 3 skid 4x2",
                            "straight 3", "finish"), encoding="utf-8")
    stage = load_stage_file(path, zones)
    assert stage.counts()["bumps"] == 1


def test_AMB_21_on_a_route_the_error_points_at_the_route_line_and_names_the_zone_file(tmp_path):
    """AMB-21 on a route stage: the bump is in a zone file; the error names the route line and the file."""
    folder = tmp_path / "zones"
    folder.mkdir()
    (folder / "Y.zone").write_text(f"zone: Y\n{GOOD_LEGEND}\n@1\nstraight 3\nbump 3\nstraight 1\n"
                                   "left 3 skid 4x2\nstraight 3\n@2\n", encoding="utf-8")
    error, path = _stage_error(tmp_path, load_zones(folder), "title: Leap\nroute: Y1-Y2\n")
    assert str(error).startswith(f"{path}:2: bump 3: a corner lies 2 spaces after the bump (line 7)")
    assert f"lines of {folder / 'Y.zone'}" in error.reason


def _zone_error(tmp_path, text: str) -> tuple[StageError, str]:
    folder = tmp_path / "zones"
    folder.mkdir()
    path = folder / "Z.zone"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(StageError) as caught:
        load_zones(folder)
    return caught.value, str(path)


ZONE_CASES = [
    ("A12_1_legend_missing_a_terrain",
     "zone: Z\nlegend: grass 0, dirt 0, snow 0, forest 1, rocks 2, village 1\n@1\nstraight 2\n@2\n", 2,
     "the legend misses water"),
    ("A12_1_snow_legend_unknown_terrain",
     f"zone: Z\n{GOOD_LEGEND}\nsnow legend: grass 0, mud 1\n@1\nstraight 2\n@2\n", 3, "unknown terrain 'mud'"),
    ("zone_without_legend", "zone: Z\n@1\nstraight 2\n@2\n", "legend", "missing field 'legend'"),
    ("zone_with_one_point", f"zone: Z\n{GOOD_LEGEND}\n@1\nstraight 2\n", "points",
     "a zone needs at least two connection points"),
    ("start_in_a_zone", f"zone: Z\n{GOOD_LEGEND}\n@1\nstart\nstraight 2\n@2\n", 4,
     "`start` does not belong in a zone file"),
]


@pytest.mark.parametrize(("text", "where", "reason"), [c[1:] for c in ZONE_CASES], ids=[c[0] for c in ZONE_CASES])
def test_zone_errors_name_file_place_reason_and_hint(tmp_path, text, where, reason):
    error, path = _zone_error(tmp_path, text)
    message = str(error)
    assert error.where == where, message
    place = f"{path}:{where}: " if isinstance(where, int) else f"{path} ({where}): "
    assert message.startswith(place), message
    assert reason in error.reason, message
    assert " — " in message and error.hint, message
