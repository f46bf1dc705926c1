"""The stage's shapes in space units (1 = one space long, y down): what the static layer draws.

`bot.engine.rallyman.stages.geometry` gives each space a centre and a heading; here each space becomes a
polygon. Straight and bump spaces are rectangles across the road; corner spaces are ring sectors
around the corner's centre (found from the spaces' headings, so a change of lane offsets in the
engine still draws right), with the interior and skid lanes side by side and the shortcut further
inside. Terrain strips run along each side that borders terrain (RULES A11.3).
Computed once per stage and cached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.engine.rallyman.stages.geometry import LANE_OFFSET
from bot.engine.rallyman.stages.model import FINISH, Corner, Space, SpaceKind, Stage, Terrain

Pt = tuple[float, float]

ROAD_HALF = 0.9        # half width of straight and bump spaces (two cars side by side)
LANE_HALF = 0.5        # half width of a corner lane (interior, skid): lanes touch
SHORTCUT_HALF = 0.4    # half width of the shortcut area
STRIP = 0.5            # width of a terrain strip beside the road
GRID_ROW = 0.95        # spacing of the rows of cars behind the start / past the finish
AREA = 2.6             # room kept behind the start and past the finish for those cars
ARC_STEP = math.radians(6)


@dataclass(frozen=True)
class Strip:
    side: str          # "left" / "right" of the direction of travel
    terrain: Terrain
    polygon: tuple[Pt, ...]


@dataclass(frozen=True)
class SpaceShape:
    """One space drawn: its outline, centre, heading, entry/exit edges and terrain strips."""

    id: int
    kind: SpaceKind
    polygon: tuple[Pt, ...]
    centre: Pt
    heading: float
    entry: tuple[Pt, Pt]
    exit: tuple[Pt, Pt]
    strips: tuple[Strip, ...]
    #: distance from the centre to the road's edge on the left / right (cars off the road go beyond)
    edge_left: float
    edge_right: float
    #: half width of the space itself (cars sharing it sit side by side within it)
    half_width: float


@dataclass(frozen=True)
class Line:
    """A line across the road (start, finish, split) with the heading of travel there."""

    a: Pt
    b: Pt
    heading: float

    @property
    def mid(self) -> Pt:
        return ((self.a[0] + self.b[0]) / 2, (self.a[1] + self.b[1]) / 2)


@dataclass(frozen=True)
class StageShapes:
    spaces: tuple[SpaceShape, ...]
    start: Line
    finish: Line
    splits: tuple[Line, ...]
    #: ordered centre line (straight, bump and interior spaces by progress) for the overview strip
    centre_line: tuple[Pt, ...]
    #: every point the map must show (outlines, strips, start and finish areas)
    hull: tuple[Pt, ...]

    def shape(self, space_id: int) -> SpaceShape:
        return self.spaces[space_id]


# -- vectors ---------------------------------------------------------------------------------------

def unit(heading: float) -> Pt:
    r = math.radians(heading)
    return math.cos(r), math.sin(r)


def left_of(heading: float) -> Pt:
    """Unit vector to the driver's left (screen y grows down, headings clockwise)."""
    r = math.radians(heading)
    return math.sin(r), -math.cos(r)


def add(p: Pt, v: Pt, k: float = 1.0) -> Pt:
    return p[0] + v[0] * k, p[1] + v[1] * k


# -- straight spaces -------------------------------------------------------------------------------

def _rect(c: Pt, heading: float, back: float, front: float, right_off: float, left_off: float) -> tuple[Pt, ...]:
    d, n = unit(heading), left_of(heading)
    return (add(add(c, d, -back), n, -right_off), add(add(c, d, front), n, -right_off),
            add(add(c, d, front), n, left_off), add(add(c, d, -back), n, left_off))


def _straight(s: Space) -> SpaceShape:
    c, h = (s.x, s.y), s.heading
    d, n = unit(h), left_of(h)
    strips = []
    for side, border, sgn in (("left", s.left, 1), ("right", s.right, -1)):
        if border.kind == "terrain" and border.terrain is not None:
            lo, hi = (ROAD_HALF, ROAD_HALF + STRIP)
            poly = _rect(c, h, 0.5, 0.5, -lo if sgn > 0 else hi, hi if sgn > 0 else -lo)
            strips.append(Strip(side, border.terrain, poly))
    back, front = add(c, d, -0.5), add(c, d, 0.5)
    return SpaceShape(
        id=s.id, kind=s.kind, polygon=_rect(c, h, 0.5, 0.5, ROAD_HALF, ROAD_HALF), centre=c, heading=h,
        entry=(add(back, n, ROAD_HALF), add(back, n, -ROAD_HALF)),
        exit=(add(front, n, ROAD_HALF), add(front, n, -ROAD_HALF)),
        strips=tuple(strips), edge_left=ROAD_HALF, edge_right=ROAD_HALF, half_width=ROAD_HALF)


# -- corners ---------------------------------------------------------------------------------------

def corner_centre(stage: Stage, corner: Corner) -> Pt:
    """The centre the corner's lanes turn round: where the spaces' normals meet (least squares)."""
    spaces = [stage.spaces[i] for i in corner.spaces()]
    a11 = a12 = a22 = b1 = b2 = 0.0
    for s in spaces:
        tx, ty = unit(s.heading)
        a11 += tx * tx
        a12 += tx * ty
        a22 += ty * ty
        dot = tx * s.x + ty * s.y
        b1 += tx * dot
        b2 += ty * dot
    det = a11 * a22 - a12 * a12
    if abs(det) > 1e-3 * max(1.0, len(spaces)):
        return (b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det
    # every space faces the same way (a one-space corner): use the engine's radius rule
    theta = max(math.radians(corner.angle), 1e-3)
    m, n = len(corner.interior), len(corner.skid)
    radius = max(max(n, m) / theta - LANE_OFFSET, m / theta + LANE_OFFSET, 1.0)
    first = stage.spaces[corner.interior[0]]
    sign = 1.0 if corner.direction == "right" else -1.0
    r = math.radians(first.heading)
    towards = (-math.sin(r) * sign, math.cos(r) * sign)
    return add((first.x, first.y), towards, radius - LANE_OFFSET)


def _ring(c: Pt, r_in: float, r_out: float, a0: float, a1: float) -> tuple[Pt, ...]:
    steps = max(2, math.ceil(abs(a1 - a0) / ARC_STEP))
    angles = [a0 + (a1 - a0) * i / steps for i in range(steps + 1)]
    outer = [(c[0] + r_out * math.cos(a), c[1] + r_out * math.sin(a)) for a in angles]
    inner = [(c[0] + r_in * math.cos(a), c[1] + r_in * math.sin(a)) for a in reversed(angles)]
    return tuple(outer + inner)


def _radial_edge(c: Pt, a: float, r_in: float, r_out: float) -> tuple[Pt, Pt]:
    """The (outer, inner) ends of the radius at angle `a` across a corner ring: a space's entry or exit edge."""
    u = (math.cos(a), math.sin(a))
    return add(c, u, r_out), add(c, u, r_in)


def _corner_shapes(stage: Stage, corner: Corner) -> list[SpaceShape]:
    c = corner_centre(stage, corner)
    sign = 1.0 if corner.direction == "right" else -1.0
    theta = math.radians(corner.angle)
    lanes = [(corner.interior, LANE_HALF), (corner.skid, LANE_HALF), (corner.shortcut, SHORTCUT_HALF)]
    bounds: dict[int, tuple[float, float, float, float]] = {}
    for ids, half in lanes:
        span = theta / max(1, len(ids))
        for i in ids:
            s = stage.spaces[i]
            r = math.hypot(s.x - c[0], s.y - c[1])
            a = math.atan2(s.y - c[1], s.x - c[0])
            bounds[i] = (max(0.05, r - half), r + half, a - sign * span / 2, a + sign * span / 2)
    road_in = min(b[0] for b in bounds.values())
    road_out = max(b[1] for i, b in bounds.items() if i not in corner.shortcut)
    inner_side = corner.direction  # a left corner turns round its left side
    out = []
    for i, (r_in, r_out, a_entry, a_exit) in bounds.items():
        s = stage.spaces[i]
        strips = []
        for side, border in (("left", s.left), ("right", s.right)):
            if border.kind != "terrain" or border.terrain is None:
                continue
            poly = (_ring(c, max(0.02, r_in - STRIP), r_in, a_entry, a_exit) if side == inner_side
                    else _ring(c, r_out, r_out + STRIP, a_entry, a_exit))
            strips.append(Strip(side, border.terrain, poly))
        r_mid = math.hypot(s.x - c[0], s.y - c[1])
        to_inner, to_outer = r_mid - road_in, road_out - r_mid
        edge_left, edge_right = (to_inner, to_outer) if inner_side == "left" else (to_outer, to_inner)
        out.append(SpaceShape(
            id=i, kind=s.kind, polygon=_ring(c, r_in, r_out, a_entry, a_exit), centre=(s.x, s.y),
            heading=s.heading, entry=_radial_edge(c, a_entry, r_in, r_out),
            exit=_radial_edge(c, a_exit, r_in, r_out), strips=tuple(strips),
            edge_left=edge_left, edge_right=edge_right, half_width=(r_out - r_in) / 2))
    return out


# -- the whole stage -------------------------------------------------------------------------------

def _span_line(edges: list[tuple[Pt, Pt]], heading: float) -> Line:
    """One line across all `edges` (they lie on one line across the road)."""
    n = left_of(heading)
    pts = [p for e in edges for p in e]
    key = [p[0] * n[0] + p[1] * n[1] for p in pts]
    return Line(pts[key.index(max(key))], pts[key.index(min(key))], heading)


def stage_fingerprint(stage: Stage) -> tuple:
    """A cheap key that tells stages apart (name alone could be reused by a test stage)."""
    last = stage.spaces[-1]
    return (stage.name, stage.source, len(stage.spaces), stage.length, last.x, last.y, last.heading)


_CACHE: dict[tuple, StageShapes] = {}


def stage_shapes(stage: Stage) -> StageShapes:
    """The shapes of `stage`, computed once."""
    key = stage_fingerprint(stage)
    shapes = _CACHE.get(key)
    if shapes is None:
        shapes = _build(stage)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = shapes
    return shapes


def _build(stage: Stage) -> StageShapes:
    by_id: dict[int, SpaceShape] = {}
    for s in stage.spaces:
        if s.corner is None:
            by_id[s.id] = _straight(s)
    for corner in stage.corners:
        for shape in _corner_shapes(stage, corner):
            by_id[shape.id] = shape
    shapes = tuple(by_id[i] for i in range(len(stage.spaces)))

    first = [shapes[i] for i in stage.start_next]
    start_heading = stage.spaces[stage.start_next[0]].heading
    start = _span_line([sh.entry for sh in first], start_heading)
    last = [shapes[s.id] for s in stage.spaces if FINISH in s.next]
    main_last = [sh for sh in last if sh.kind not in (SpaceKind.SKID, SpaceKind.SHORTCUT)] or last
    finish = _span_line([sh.exit for sh in last], main_last[0].heading)

    splits = []
    split_groups: dict[float, list[SpaceShape]] = {}
    for s in stage.spaces:
        if s.split and s.kind not in (SpaceKind.SKID, SpaceKind.SHORTCUT):
            split_groups.setdefault(s.progress, []).append(shapes[s.id])
    for s in stage.spaces:  # skid/shortcut entries of a split corner share its line
        if s.split and s.kind in (SpaceKind.SKID, SpaceKind.SHORTCUT):
            near = min(split_groups, key=lambda p: abs(p - s.progress), default=None)
            if near is not None and abs(near - s.progress) < 1.0:
                split_groups[near].append(shapes[s.id])
    for group in split_groups.values():
        splits.append(_span_line([sh.entry for sh in group], group[0].heading))

    centre = [(s.x, s.y) for s in sorted(stage.spaces, key=lambda s: s.progress)
              if s.kind in (SpaceKind.STRAIGHT, SpaceKind.BUMP, SpaceKind.INTERIOR)]
    centre = [start.mid] + centre + [finish.mid]

    hull: list[Pt] = []
    for sh in shapes:
        hull.extend(sh.polygon)
        for st in sh.strips:
            hull.extend(st.polygon)
    for line, sgn in ((start, -1.0), (finish, 1.0)):
        d = unit(line.heading)
        hull.extend([add(line.a, d, sgn * AREA), add(line.b, d, sgn * AREA), line.a, line.b])
    return StageShapes(spaces=shapes, start=start, finish=finish, splits=tuple(splits),
                       centre_line=tuple(centre), hull=tuple(hull))


