"""Where DIRT tiles and spaces lie for the renderer: hex cells, centres and headings (pure math)."""

from __future__ import annotations

import math

import pytest

from bot.engine.dirt.stages import geometry
from bot.engine.dirt.stages.loader import parse_stage
from bot.engine.dirt.stages.model import SpaceKind

TURNS = "straight\nstart\nstraight\nleft 3/5\nright sharp 2/4\nstraight\nfinish\nstraight\n"


def test_consecutive_tiles_are_neighbouring_hexes():
    stage = parse_stage(TURNS, "t.stage")
    for a, b in zip(stage.tiles, stage.tiles[1:], strict=False):
        assert math.dist(geometry.centre(a.cell), geometry.centre(b.cell)) == pytest.approx(math.sqrt(3))
        assert b.heading == a.exit


def test_corners_turn_60_or_120_degrees():
    stage = parse_stage(TURNS, "t.stage")
    left, sharp = stage.tiles[2], stage.tiles[3]
    assert (left.exit - left.heading) % 6 == 5  # 60° anticlockwise
    assert (sharp.exit - sharp.heading) % 6 == 2  # 120° clockwise


def test_every_space_lies_on_its_own_tile():
    """Each normal space's centre is within its hex (size 1), so the renderer draws it there."""
    stage = parse_stage(TURNS, "t.stage")
    for space in stage.spaces:
        cx, cy = geometry.centre(stage.tiles[space.tile].cell)
        assert math.dist((space.x, space.y), (cx, cy)) < 1.0


def test_lanes_sit_either_side_and_straights_keep_their_heading():
    stage = parse_stage(TURNS, "t.stage")
    row = [s for s in stage.spaces if s.tile == 1 and s.row == 0]
    left, right = sorted(row, key=lambda s: s.lanes)
    assert left.heading == right.heading == 0.0
    assert left.y < right.y  # heading east, the left lane is above (y grows down)
    assert math.dist((left.x, left.y), (right.x, right.y)) == pytest.approx(2 * geometry.LANE_OFFSET)


def test_headings_turn_through_a_corner():
    stage = parse_stage(TURNS, "t.stage")
    outside = sorted((s for s in stage.spaces if s.tile == 2 and not s.inside), key=lambda s: s.front)
    turned = [(s.heading + 180) % 360 - 180 for s in outside]
    assert turned == sorted(turned, reverse=True)  # a left turn: the heading falls
    assert -60 < turned[-1] < turned[0] < 0


def test_B9_a_sliding_car_sits_across_the_track():
    stage = parse_stage("straight\nstart\nleft 3/5\nstraight slide 1\nfinish\nstraight\n", "s.stage")
    half = next(s for s in stage.spaces if s.kind is SpaceKind.SLIDE)
    row = next(s for s in stage.spaces if s.tile == 3 and s.row == 0 and s.kind is SpaceKind.NORMAL)
    assert (half.heading - row.heading) % 360 == 90


def test_a_shortcut_lies_inside_its_corner():
    stage = parse_stage("straight\nstart\nstraight\nright 3/5 shortcut 2\nstraight\nfinish\nstraight\n", "k.stage")
    corner = [s for s in stage.spaces if s.tile == 2]
    shortcut = next(s for s in corner if s.kind is SpaceKind.SHORTCUT)
    inside = [s for s in corner if s.inside]
    outside = [s for s in corner if s.inside is False]
    centre = geometry.centre(stage.tiles[2].cell)
    # inside line nearer the turn's centre than the outside, the shortcut nearer still
    mid_in = inside[len(inside) // 2]
    mid_out = outside[len(outside) // 2]
    assert math.dist((shortcut.x, shortcut.y), centre) > math.dist((mid_in.x, mid_in.y), centre) > \
        math.dist((mid_out.x, mid_out.y), centre)
