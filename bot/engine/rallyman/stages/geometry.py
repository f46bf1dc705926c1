"""Where each space lies on the page: positions in space units (1 = one space long), y down.

Straights advance one unit per space; a corner is an arc whose interior line runs inside the
centre line, its skid line outside and its shortcut further inside. The renderer scales these
coordinates; the overlap check refuses a layout whose road runs over itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.engine.core.errors import StageError
from bot.engine.rallyman.stages.model import Space, SpaceKind

LANE_OFFSET = 0.5  # interior/skid lanes either side of the centre line
SHORTCUT_OFFSET = 1.4
MIN_GAP = 0.95  # closest two unrelated spaces may be, centre to centre
RELATED_PROGRESS = 3.0  # spaces closer than this along the road may sit close together


@dataclass(frozen=True)
class Cursor:
    """A point on the centre line and the heading of the road there (degrees, clockwise)."""

    x: float
    y: float
    heading: float

    def ahead(self, distance: float) -> tuple[float, float]:
        r = math.radians(self.heading)
        return self.x + distance * math.cos(r), self.y + distance * math.sin(r)

    def advance(self, distance: float) -> Cursor:
        x, y = self.ahead(distance)
        return Cursor(x, y, self.heading)


@dataclass(frozen=True)
class CornerLayout:
    interior: list[tuple[float, float, float]]
    skid: list[tuple[float, float, float]]
    shortcut: list[tuple[float, float, float]]
    exit: Cursor


def corner_layout(at: Cursor, direction: str, degrees: float, m: int, n: int, k: int) -> CornerLayout:
    """Positions (x, y, heading) of a corner's interior, skid and shortcut spaces, and its exit."""
    theta = math.radians(degrees)
    sign = 1.0 if direction == "right" else -1.0
    outer = max(n, m)
    radius = max(outer / theta - LANE_OFFSET, m / theta + LANE_OFFSET, 1.0)
    h = math.radians(at.heading)
    normal = (-math.sin(h) * sign, math.cos(h) * sign)  # towards the turn's centre
    cx, cy = at.x + radius * normal[0], at.y + radius * normal[1]
    start = math.atan2(at.y - cy, at.x - cx)

    def lane(r: float, count: int) -> list[tuple[float, float, float]]:
        out = []
        for j in range(count):
            f = (j + 0.5) / count
            a = start + sign * f * theta
            out.append((cx + r * math.cos(a), cy + r * math.sin(a), at.heading + sign * math.degrees(f * theta)))
        return out

    end = start + sign * theta
    exit_cursor = Cursor(cx + radius * math.cos(end), cy + radius * math.sin(end), at.heading + sign * degrees)
    return CornerLayout(
        interior=lane(radius - LANE_OFFSET, m),
        skid=lane(radius + LANE_OFFSET, n),
        shortcut=lane(max(radius - SHORTCUT_OFFSET, 0.2), k),
        exit=exit_cursor,
    )


def check_overlap(spaces: tuple[Space, ...], source: str) -> None:
    """Refuse a road that runs over itself: two spaces far apart along the road but close on the page."""
    cell: dict[tuple[int, int], list[Space]] = {}
    for s in spaces:
        cell.setdefault((math.floor(s.x), math.floor(s.y)), []).append(s)
    for s in spaces:
        cx, cy = math.floor(s.x), math.floor(s.y)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for t in cell.get((cx + dx, cy + dy), ()):
                    if t.id <= s.id or abs(t.progress - s.progress) < RELATED_PROGRESS:
                        continue
                    if math.hypot(t.x - s.x, t.y - s.y) < MIN_GAP:
                        first, second = sorted((s, t), key=lambda sp: sp.progress)
                        raise StageError(
                            source, second.line,
                            f"the road overlaps itself: space {_label(second)} lies on space {_label(first)}",
                            "turn a corner the other way, change its angle with `turn DEGREES`, or lengthen a straight")
    _check_crossing(spaces, source)


def _label(s: Space) -> str:
    """`12 (zone A, line 7)`: the zone and line name the file line even on a route over zone files."""
    what = f"{s.index}" if s.kind not in (SpaceKind.SKID, SpaceKind.SHORTCUT) else f"{s.kind.value}"
    return f"{what} (zone {s.zone}, line {s.line})"


def _check_crossing(spaces: tuple[Space, ...], source: str) -> None:
    """The centre line (straight, bump and interior spaces in road order) must not cross itself."""
    line = sorted((s for s in spaces if s.kind in (SpaceKind.STRAIGHT, SpaceKind.BUMP, SpaceKind.INTERIOR)),
                  key=lambda s: s.progress)
    segs = list(zip(line, line[1:]))
    for i, (a, b) in enumerate(segs):
        for c, d in segs[i + 2:]:
            if _intersects((a.x, a.y), (b.x, b.y), (c.x, c.y), (d.x, d.y)):
                raise StageError(source, c.line,
                                 f"the road crosses itself: space {_label(c)} crosses the road at space {_label(a)}",
                                 "turn a corner the other way, change its angle with `turn DEGREES`, "
                                 "or lengthen a straight")


def _intersects(p1, p2, p3, p4) -> bool:
    def orient(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 * d2 < 0 and d3 * d4 < 0
