"""The DIRT space graph (RULES B5, B7–B11, B13.8.3): where a car may go from each space."""

from __future__ import annotations

from bot.engine.dirt.stages.loader import parse_stage
from bot.engine.dirt.stages.model import DirtStage, SpaceKind

EXAMPLE = """title: Example
straight
start
straight
left 3/5
straight slide 1
straight
right sharp 2/4 shortcut 2
straight jump 4
straight narrow
straight limit 4
finish
straight
"""


def stage() -> DirtStage:
    return parse_stage(EXAMPLE, "example.stage")


def normal(s: DirtStage, tile: int, lane: int, row: int) -> int:
    return next(x.id for x in s.spaces if x.kind is SpaceKind.NORMAL and x.tile == tile
                and lane in x.lanes and x.row == row)


def test_B7_a_straight_space_leads_straight_on_and_diagonally_never_sideways():
    s = stage()
    here = normal(s, 1, 0, 0)
    assert set(s.spaces[here].forward) == {normal(s, 1, 0, 1), normal(s, 1, 1, 1)}
    assert normal(s, 1, 1, 0) not in s.spaces[here].forward  # the space beside it


def test_B7_every_move_goes_forward():
    """Each forward neighbour's front edge is further along the track than the space's own."""
    s = stage()
    for space in s.spaces:
        for j in space.forward:
            assert s.spaces[j].front > space.front


def test_B8_corner_lines_have_their_limits_and_no_lane_change_inside():
    s = stage()
    corner = [x for x in s.spaces if x.tile == 2 and x.kind is SpaceKind.NORMAL]
    inside = [x for x in corner if x.inside]
    outside = [x for x in corner if not x.inside]
    assert {x.limit for x in inside} == {3} and {x.limit for x in outside} == {5}
    assert len(inside) < len(outside)  # the inside line is shorter
    assert all(x.lanes == (0,) for x in inside)  # a left corner's inside is the left lane
    for x in corner:
        for j in x.forward:
            if s.spaces[j].tile == 2:
                assert s.spaces[j].lanes == x.lanes
    # entering the corner, a car chooses its line: both are reachable from the straight before it
    assert {s.spaces[j].inside for j in s.spaces[normal(s, 1, 0, 2)].forward} == {True, False}


def test_B9_B13_8_3_a_slide_pair_spans_the_track_and_overlaps_its_row():
    s = stage()
    halves = [x for x in s.spaces if x.kind is SpaceKind.SLIDE]
    assert len(halves) == 2
    first, second = sorted(halves, key=lambda x: x.front)
    row = {normal(s, 3, 0, 0), normal(s, 3, 1, 0)}
    assert first.lanes == second.lanes == (0, 1)
    assert set(first.overlaps) == set(second.overlaps) == row
    assert all({first.id, second.id} <= set(s.spaces[j].overlaps) for j in row)
    assert first.forward == (second.id,)
    assert set(second.forward) == {k for j in row for k in s.spaces[j].forward}
    # entered on leaving the corner, like the normal spaces of the row
    assert first.id in s.spaces[normal(s, 2, 1, 2)].forward


def test_B10_a_shortcut_joins_the_straights_either_side_of_its_corner():
    s = stage()
    shortcut = next(x for x in s.spaces if x.kind is SpaceKind.SHORTCUT)
    assert (shortcut.tile, shortcut.limit) == (5, 2)
    assert {s.spaces[j].tile for j in shortcut.forward} == {6}
    entries = [x for x in s.spaces if shortcut.id in x.forward]
    assert {x.tile for x in entries} == {4}
    assert all(x.corner is None for x in entries)


def test_B11_jump_spaces_carry_their_gear_on_the_tile_s_last_row():
    s = stage()
    jumps = [x for x in s.spaces if x.jump is not None]
    assert {(x.tile, x.row, x.jump) for x in jumps} == {(6, 2, 4)}
    assert len(jumps) == 2


def test_B7_a_one_lane_point_funnels_both_lanes():
    s = stage()
    one_lane = [x for x in s.spaces if x.tile == 7]
    assert all(x.lanes == (0, 1) for x in one_lane)
    assert len(one_lane) == 3
    first = min(one_lane, key=lambda x: x.front)
    assert {x.tile for x in s.spaces if first.id in x.forward} == {6}
    assert len([x for x in s.spaces if first.id in x.forward]) == 2  # from either lane


def test_B8_a_limit_on_a_straight():
    assert {x.limit for x in stage().spaces if x.tile == 8} == {4}


def test_B5_the_grid_is_behind_the_start_line_nearest_first():
    s = stage()
    fronts = [s.spaces[i].front for i in s.grid]
    assert all(f <= s.start_line for f in fronts)
    assert fronts == sorted(fronts, reverse=True)
    assert s.spaces[s.grid[0]].front == s.start_line


def test_the_finish_is_crossed_past_the_finish_line_only():
    s = stage()
    assert s.finish_line == 9
    assert s.finished(normal(s, 9, 0, 0))
    assert not s.finished(normal(s, 8, 0, 2))


def test_B2_length_by_tile_count():
    assert stage().length == "short"


def test_the_format_s_documented_example_is_a_valid_stage():
    """The example an organiser copies from the format's docstring loads as written."""
    from bot.engine.dirt.stages import format as stage_format
    doc = stage_format.__doc__ or ""
    block = doc.split("Example (a 10-tile short stage, B2)::", 1)[1].split("\n\nTiles", 1)[0]
    text = "\n".join(line[4:] for line in block.splitlines())
    example = parse_stage(text, "example.stage")
    assert (example.title, len(example.tiles)) == ("Dusty Pines", 10)
