"""The shapes of a DIRT stage in stage units (hex size 1), computed once per stage: pure geometry.

Every polygon the static layer fills comes from `bot.engine.dirt.stages.geometry.lane_point`, the
same curve the stage's spaces were laid on, so a space's outline, its centre (`DirtSpace.x, y`) and
the cars drawn on it always agree. Lane 0 runs from offset −0.5 to 0 of the centre line, lane 1
from 0 to 0.5; a one-lane point covers the middle half; a slide half spans the whole width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.engine.dirt.stages.geometry import Placed, centre, lane_point, shortcut_point
from bot.engine.dirt.stages.model import DirtSpace, DirtStage, DirtTile, SpaceKind

Pt = tuple[float, float]
HALF = 0.5  # half the track's width
MARK_OUT = 0.2  # a limit circle sits this far beyond the track's edge, on the verge of the tile
STEPS = 6  # points per space edge along a curve
SHARP_BEYOND = 0.6  # a sharp corner's inside circle: this far beyond its arc's centre
SHORTCUT_CLEAR = 0.42  # a corner with a shortcut: its inside circle this much further in


@dataclass(frozen=True)
class Mark:
    """A figure printed on the track: a speed limit circle, a shortcut or a jump, at `at`."""

    kind: str  # "limit", "shortcut", "jump"
    value: int
    at: Pt
    tile: int
    corner: bool = False  # a corner's limit (lowered by the tile's "−1" tokens, B10)


@dataclass(frozen=True)
class StageShapes:
    hexes: tuple[tuple[Pt, ...], ...]
    road: tuple[tuple[Pt, ...], ...]  # one polygon per tile: the track's width along its path
    spaces: tuple[tuple[Pt, ...], ...]  # by space id
    marks: tuple[Mark, ...]
    jumps: tuple[tuple[Pt, Pt], ...]  # the front edge of each jump row, across the road (B11)
    start: tuple[Pt, Pt]
    finish: tuple[Pt, Pt]
    centre_line: tuple[Pt, ...]
    hull: tuple[Pt, ...]


def placed(tile: DirtTile) -> Placed:
    return Placed(tile.cell, tile.heading, tile.exit)


def hexagon(cell: tuple[int, int], size: float = 1.0) -> tuple[Pt, ...]:
    """A pointy-top hex's corners."""
    x, y = centre(cell)
    return tuple((x + size * math.cos(math.radians(60 * i - 30)), y + size * math.sin(math.radians(60 * i - 30)))
                 for i in range(6))


def band(tile: Placed, t0: float, t1: float, off0: float, off1: float, steps: int = STEPS) -> tuple[Pt, ...]:
    """The area between fractions t0–t1 of a tile's path and offsets off0–off1 of its centre line."""
    ts = [t0 + (t1 - t0) * i / steps for i in range(steps + 1)]
    side_a = [lane_point(tile, t, off0)[:2] for t in ts]
    side_b = [lane_point(tile, t, off1)[:2] for t in reversed(ts)]
    return tuple(side_a + side_b)


def offsets(space: DirtSpace, tile: DirtTile) -> tuple[float, float]:
    """The space's side edges as offsets from the centre line."""
    if space.kind is SpaceKind.SLIDE:
        return -HALF, HALF
    if tile.narrow or space.lanes == (0, 1):
        return -HALF / 2, HALF / 2
    return (-HALF, 0.0) if space.lanes == (0,) else (0.0, HALF)


def space_polygon(stage: DirtStage, space: DirtSpace) -> tuple[Pt, ...]:
    tile = stage.tiles[space.tile]
    if space.kind is SpaceKind.SHORTCUT:
        x, y, h = shortcut_point(placed(tile))
        a = math.radians(h)
        ux, uy, vx, vy = math.cos(a) * 0.22, math.sin(a) * 0.22, -math.sin(a) * 0.17, math.cos(a) * 0.17
        return ((x - ux - vx, y - uy - vy), (x + ux - vx, y + uy - vy), (x + ux + vx, y + uy + vy),
                (x - ux + vx, y - uy + vy))
    off0, off1 = offsets(space, tile)
    return band(placed(tile), space.rear - space.tile, space.front - space.tile, off0, off1)


def turn_sign(tile: DirtTile) -> float:
    """+1 for a right-hand corner, −1 for a left one (the inside is on that side), 0 straight."""
    return 0.0 if tile.kind == "straight" else (1.0 if tile.kind == "right" else -1.0)


def _marks(stage: DirtStage, jump_lines: list[tuple[Pt, Pt]]) -> list[Mark]:
    """The figures of the stage; the jumps' edges across the road are added to `jump_lines`."""
    out: list[Mark] = []
    for tile in stage.tiles:
        p = placed(tile)
        spaces = [s for s in stage.spaces if s.tile == tile.index]
        sign = turn_sign(tile)
        if tile.kind != "straight":
            inside = next((s.limit for s in spaces if s.inside and s.limit is not None), tile.inside)
            outside = next((s.limit for s in spaces if s.inside is False and s.limit is not None), tile.outside)
            # the inside circle on the inside verge, the outside one on the outside verge. A sharp
            # corner's inside verge is a point (its arc's centre, a hex corner): its circle sits just
            # beyond it, in the V between the tiles before and after; a corner with a shortcut has
            # the shortcut on its inside verge, so the circle sits further in.
            if tile.sharp:
                inner = sign * (HALF + SHARP_BEYOND)
            else:
                inner = sign * (HALF + MARK_OUT + (SHORTCUT_CLEAR if tile.shortcut else 0.0))
            if inside is not None:
                out.append(Mark("limit", inside, lane_point(p, 0.5, inner)[:2], tile.index, corner=True))
            if outside is not None:
                out.append(Mark("limit", outside, lane_point(p, 0.5, -sign * (HALF + MARK_OUT))[:2], tile.index,
                                corner=True))
        else:
            limits = {s.limit for s in spaces if s.kind is SpaceKind.NORMAL and s.limit is not None}
            for limit in sorted(limits):
                out.append(Mark("limit", limit, lane_point(p, 0.5, -(HALF + MARK_OUT))[:2], tile.index))
        for s in spaces:
            if s.kind is SpaceKind.SHORTCUT and s.limit is not None:
                out.append(Mark("shortcut", s.limit, (s.x, s.y), tile.index))
        jumps = sorted({s.jump for s in spaces if s.jump is not None})
        for gear in jumps:
            front = max(s.front for s in spaces if s.jump == gear) - tile.index
            side = _free_side(stage, tile.index)
            out.append(Mark("jump", gear, lane_point(p, max(0.0, front - 0.17), side * (HALF + 2 * MARK_OUT))[:2],
                            tile.index))
            jump_lines.append((lane_point(p, front, -HALF)[:2], lane_point(p, front, HALF)[:2]))
    return out


def _free_side(stage: DirtStage, index: int) -> float:
    """The side of a straight tile (+1 right, −1 left) away from the inside verge of the corner after
    it (else before it), where that corner's inside circle sits: a jump's badge goes there."""
    for neighbour in (index + 1, index - 1):
        if 0 <= neighbour < len(stage.tiles) and stage.tiles[neighbour].kind != "straight":
            return -turn_sign(stage.tiles[neighbour])
    return 1.0


def _line_at(stage: DirtStage, progress: float) -> tuple[Pt, Pt]:
    index = min(len(stage.tiles) - 1, max(0, int(progress + 1e-9)))
    if progress >= len(stage.tiles):
        index = len(stage.tiles) - 1
    t = progress - index
    p = placed(stage.tiles[index])
    return lane_point(p, t, -HALF)[:2], lane_point(p, t, HALF)[:2]


_memo: dict[int, tuple[DirtStage, StageShapes]] = {}


def stage_shapes(stage: DirtStage) -> StageShapes:
    """Every shape of the stage (kept per stage object: stages never change; the memo keeps its stage
    alive, so an id is never reused while it is kept)."""
    entry = _memo.get(id(stage))
    if entry is not None and entry[0] is stage:
        return entry[1]
    if len(_memo) >= 64:
        _memo.clear()
    shapes = _shapes(stage)
    _memo[id(stage)] = (stage, shapes)
    return shapes


def _shapes(stage: DirtStage) -> StageShapes:
    hexes = tuple(hexagon(t.cell) for t in stage.tiles)
    road = tuple(band(placed(t), 0.0, 1.0, -HALF / 2 if t.narrow else -HALF, HALF / 2 if t.narrow else HALF, steps=16)
                 for t in stage.tiles)
    spaces = tuple(space_polygon(stage, s) for s in stage.spaces)
    line: list[Pt] = []
    for t in stage.tiles:
        line += [lane_point(placed(t), i / 8, 0.0)[:2] for i in range(8)]
    last = stage.tiles[-1]
    line.append(lane_point(placed(last), 1.0, 0.0)[:2])
    hull = tuple(p for h in hexes for p in h)
    jumps: list[tuple[Pt, Pt]] = []
    marks = tuple(_marks(stage, jumps))
    return StageShapes(hexes, road, spaces, marks, tuple(jumps), _line_at(stage, stage.start_line),
                       _line_at(stage, stage.finish_line), tuple(line), hull)


def space_centre(stage: DirtStage, space: int) -> Pt:
    s = stage.spaces[space]
    return s.x, s.y


def track_heading(stage: DirtStage, space: int) -> float:
    """The heading of the track at a space (a slide half's own heading is across it)."""
    s = stage.spaces[space]
    if s.kind is SpaceKind.SLIDE:
        return lane_point(placed(stage.tiles[s.tile]), (s.rear + s.front) / 2 - s.tile, 0.0)[2]
    return s.heading
