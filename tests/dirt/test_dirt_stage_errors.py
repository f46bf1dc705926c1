"""Bad DIRT stage files are refused with the file, the line and the reason (RULES B7–B11, B13.6, B13.7).

Each test feeds one mistake into an otherwise valid stage and checks the refusal points at the
line of the mistake and says what is wrong.
"""

from __future__ import annotations

import pytest

from bot.engine.core.errors import StageError
from bot.engine.dirt.stages.loader import parse_stage

GOOD = """title: Test
straight
start
straight
left 3/5
straight
finish
straight
"""


def refusal(text: str) -> StageError:
    with pytest.raises(StageError) as caught:
        parse_stage(text, "bad.stage")
    return caught.value


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.strip() == needle)


def test_the_base_stage_is_valid():
    """The mutations below fail because of the mistake, not because the base is broken."""
    assert len(parse_stage(GOOD, "good.stage").tiles) == 5


@pytest.mark.parametrize(("bad_line", "reason"), [
    ("wiggle 3", "unknown word 'wiggle'"),
    ("straight bumpy", "unknown word 'bumpy'"),
    ("left 3/5 kink", "unknown word 'kink'"),
    ("start now", "unexpected 'now' after start"),
])
def test_unknown_words_are_refused_at_their_line(bad_line, reason):
    text = GOOD.replace("straight\nfinish", f"{bad_line}\nfinish")
    error = refusal(text)
    assert (error.source, error.where) == ("bad.stage", line_of(text, bad_line))
    assert error.reason == reason


def test_an_unknown_header_field_is_refused():
    error = refusal("length: 12\n" + GOOD)
    assert (error.where, error.reason) == (1, "unknown field 'length'")


@pytest.mark.parametrize(("bad_line", "reason"), [
    ("left 7/8", "inside limit 7 is outside 1–6"),
    ("left 0/4", "inside limit 0 is outside 1–6"),
    ("right 3/9", "outside limit 9 is outside 1–6"),
    ("left 3", "a left corner needs its limits, inside/outside"),
    ("right sharp", "a right corner needs its limits, inside/outside"),
    ("left 5/3", "inside limit 5 above the outside limit 3"),
    ("straight limit 0", "limit 0 is outside 1–6"),
    ("straight limit", "limit needs a number"),
    ("straight jump 7", "jump 7 is outside 1–6"),
    ("straight jump x", "jump needs a number"),
    ("left 3/5 shortcut 9", "shortcut 9 is outside 1–6"),
    ("straight slide 2", "slide row 2 touches no corner"),
    ("straight slide 4", "slide 4 is outside 1–3"),
])
def test_bad_numbers_are_refused_at_their_line(bad_line, reason):
    """B8 (limits inside ≤ outside, gears 1–6), B9 (a slide row next to a corner), B11 (jump gears)."""
    text = GOOD.replace("straight\nfinish", f"{bad_line}\nfinish")
    error = refusal(text)
    assert (error.where, error.reason) == (line_of(text, bad_line), reason)


def test_B13_6_water_and_other_surfaces_have_no_rule_yet():
    text = GOOD.replace("straight\nfinish", "water\nfinish")
    assert refusal(text).reason == "'water' has no rule yet"
    error = refusal("surface: snow\n" + GOOD)
    assert (error.where, error.reason) == (1, "surface 'snow' has no rule yet")


def test_overlapping_tiles_are_refused_naming_both_lines():
    """Two sharp rights bring the road back to the grid's hex: the third corner (line 5) lands on it."""
    text = "straight\nstart\n" + "right sharp 2/3\n" * 3 + "straight\nfinish\nstraight\n"
    error = refusal(text)
    assert error.where == 5
    assert error.reason == "this tile overlaps the tile of line 1"


def test_B7_a_dead_end_before_the_finish_is_refused():
    """No tile after the finish: the last spaces lead nowhere."""
    text = "straight\nstart\nstraight\nleft 3/5\nfinish\n"
    error = refusal(text)
    assert error.where == 4
    assert error.reason == "a dead end: no way from this tile's space to the finish"
    assert "run-off" in error.hint


def test_B10_a_shortcut_leaving_into_a_corner_is_a_dead_end():
    text = "straight\nstart\nstraight\nright 3/5 shortcut 2\nleft 3/5\nstraight\nfinish\nstraight\n"
    error = refusal(text)
    assert error.where == 4
    assert error.reason == "a dead end: no way from this tile's shortcut to the finish"


def test_B10_a_shortcut_entered_from_a_corner_is_refused():
    text = "straight\nstart\nleft 3/5\nright 3/5 shortcut 2\nstraight\nfinish\nstraight\n"
    error = refusal(text)
    assert error.where == 4
    assert error.reason == "the shortcut cannot be entered: the tile before it is a corner"


def test_B13_5_a_jump_into_a_corner_above_every_limit_is_refused():
    """Flying at gear 5 into a 3/4 corner: every car that jumps enters above every limit."""
    text = "straight\nstart\nstraight jump 5\nleft 3/4\nstraight\nfinish\nstraight\n"
    error = refusal(text)
    assert error.where == 3
    assert error.reason == "the gear-5 jump lands only where the limit is 3/4: a corner entered above every limit"


def test_B13_5_a_jump_whose_outside_line_is_fast_enough_is_kept():
    """The outside line of 5 takes a gear-5 landing: the same layout with a 3/5 corner is valid."""
    stage = parse_stage("straight\nstart\nstraight jump 5\nleft 3/5\nstraight\nfinish\nstraight\n", "ok.stage")
    assert any(s.jump == 5 for s in stage.spaces)


def test_B11_a_jump_landing_off_the_track_is_refused():
    text = "straight\nstart\nstraight\nfinish\nstraight jump 3\n"
    error = refusal(text)
    assert error.where == 5
    assert error.reason == "the gear-3 jump lands off the track"


def test_B9_a_slide_not_next_to_a_corner_is_refused():
    text = "straight\nstart\nstraight slide 1\nleft 3/5\nfinish\nstraight\n"
    error = refusal(text)
    assert (error.where, error.reason) == (3, "slide 1 is not next to a corner")


def test_B7_a_slide_on_a_one_lane_tile_is_refused():
    text = "straight\nstart\nleft 3/5\nstraight narrow slide 1\nfinish\nstraight\n"
    assert refusal(text).reason == "a slide pair on a one-lane tile"


@pytest.mark.parametrize(("text", "where", "reason"), [
    ("straight\nstraight\nfinish\nstraight\n", 3, "the finish comes before the start"),
    ("start\nstraight\nfinish\nstraight\n", 1, "no grid behind the start line"),
    ("straight\nstart\nstraight\nstraight\n", 4, "no finish line"),
    ("straight\nstart\nfinish\nstraight\n", 3, "no tile between the start and the finish"),
    ("straight\nstart\nstraight\nstart\nfinish\nstraight\n", 4, "a second start line"),
])
def test_B5_start_and_finish_lines_are_required_in_order(text, where, reason):
    error = refusal(text)
    assert (error.where, error.reason) == (where, reason)


def test_B1_no_more_tiles_than_the_box_holds():
    text = "straight\nstart\n" + "straight\n" * 30 + "finish\nstraight\n"
    error = refusal(text)
    assert error.reason == "more than 31 tiles"
    assert error.where == 34


def test_the_message_names_file_line_and_reason():
    error = refusal(GOOD.replace("left 3/5", "left 9/9"))
    assert str(error).startswith("bad.stage:5: inside limit 9 is outside 1–6")
