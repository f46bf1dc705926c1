"""Where each DIRT tile and space lies on the page: pure hex-grid math for the renderer (no drawing).

Tiles are pointy-top hexes of size 1 (centre to corner) at axial cells (q, r); x grows right, y
grows down, headings are degrees clockwise, one of 0, 60, …, 300 between tiles. The track enters a
tile through one edge and leaves through the opposite edge (straight), the next-but-one (a 60°
corner) or the neighbouring edge (a sharp 120° corner). Each lane runs on an arc from the entry
edge's midpoint to the exit edge's, `LANE_OFFSET` either side of the centre line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)
LANE_OFFSET = 0.25
SHORTCUT_INSET = 0.45
#: axial step to the neighbouring cell for each heading index (heading = 60° × index)
STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


@dataclass(frozen=True)
class Placed:
    """A tile's cell, entry heading and exit heading (indices 0–5)."""

    cell: tuple[int, int]
    heading: int
    exit: int


def centre(cell: tuple[int, int]) -> tuple[float, float]:
    q, r = cell
    return SQRT3 * (q + r / 2.0), 1.5 * r


def turn_of(kind: str, sharp: bool) -> int:
    """Heading steps a tile turns: + is clockwise (right), − anticlockwise (left)."""
    if kind == "straight":
        return 0
    size = 2 if sharp else 1
    return size if kind == "right" else -size


def place(turns: list[int]) -> list[Placed]:
    """Cells of consecutive tiles, the first at (0, 0) heading east."""
    out: list[Placed] = []
    cell, heading = (0, 0), 0
    for turn in turns:
        exit_heading = (heading + turn) % 6
        out.append(Placed(cell, heading, exit_heading))
        step = STEPS[exit_heading]
        cell, heading = (cell[0] + step[0], cell[1] + step[1]), exit_heading
    return out


def _edge_mid(cell: tuple[int, int], heading: int) -> tuple[float, float]:
    """Midpoint of the cell's edge towards the neighbour in that heading."""
    x, y = centre(cell)
    a = math.radians(60 * heading)
    return x + SQRT3 / 2 * math.cos(a), y + SQRT3 / 2 * math.sin(a)


def lane_point(tile: Placed, t: float, offset: float) -> tuple[float, float, float]:
    """(x, y, heading°) at fraction t of the tile's path, `offset` to the right of the centre line."""
    h0 = math.radians(60 * tile.heading)
    p0 = _edge_mid(tile.cell, (tile.heading + 3) % 6)
    turn = ((tile.exit - tile.heading + 3) % 6) - 3  # −2 … 2 steps
    if turn == 0:
        length = SQRT3
        x = p0[0] + t * length * math.cos(h0) - offset * math.sin(h0)
        y = p0[1] + t * length * math.sin(h0) + offset * math.cos(h0)
        return x, y, float(60 * tile.heading)
    theta = math.radians(60 * turn)
    p1 = _edge_mid(tile.cell, tile.exit)
    chord = math.dist(p0, p1)
    radius = chord / (2 * math.sin(abs(theta) / 2))
    sign = 1.0 if turn > 0 else -1.0
    # centre of the arc: to the right of the heading for a right turn, to the left for a left one
    cx = p0[0] - sign * radius * math.sin(h0)
    cy = p0[1] + sign * radius * math.cos(h0)
    r = radius - sign * offset
    start = math.atan2(p0[1] - cy, p0[0] - cx)
    a = start + theta * t
    heading = math.degrees(h0 + theta * t) % 360
    return cx + r * math.cos(a), cy + r * math.sin(a), heading


def slide_heading(heading: float) -> float:
    """A sliding car sits across the track (B9)."""
    return (heading + 90.0) % 360


def shortcut_point(tile: Placed) -> tuple[float, float, float]:
    """A shortcut space sits inside its corner, beyond the inside lane (towards the arc's centre)."""
    turn = ((tile.exit - tile.heading + 3) % 6) - 3
    sign = 1.0 if turn > 0 else -1.0
    inset = SHORTCUT_INSET if abs(turn) == 2 else LANE_OFFSET + SHORTCUT_INSET  # a sharp arc's radius is 0.5
    return lane_point(tile, 0.5, sign * inset)
