"""From space units to pixels: rotate the stage to fit its box, scale, shift.

The stage may be turned by any multiple of 15° so a long diagonal road uses the whole width of
the image; headings turn with it. Text is always drawn upright, so the turn costs nothing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

Pt = tuple[float, float]

ROTATIONS = tuple(range(0, 180, 15))


def rotate(p: Pt, degrees: float) -> Pt:
    r = math.radians(degrees)
    c, s = math.cos(r), math.sin(r)
    return p[0] * c - p[1] * s, p[0] * s + p[1] * c


BBox = tuple[float, float, float, float]


class Outline:
    """The points of a stage's outline, their bounding box at each rotation computed once: a
    layout asks for the same boxes several times (the fitted map, the camera's strip, their
    frames: 28 boxes of ~2,400 points, ~15 ms of a stage's first board)."""

    def __init__(self, points: Iterable[Pt]) -> None:
        self.points = tuple(points)
        self._boxes: dict[float, BBox] = {}

    def bbox(self, degrees: float = 0.0) -> BBox:
        found = self._boxes.get(degrees)
        if found is None:
            found = self._boxes[degrees] = bbox(self.points, degrees)
        return found


def bbox(points: Iterable[Pt] | Outline, degrees: float = 0.0) -> BBox:
    if isinstance(points, Outline):
        return points.bbox(degrees)
    if degrees:
        r = math.radians(degrees)
        c, s = math.cos(r), math.sin(r)  # `rotate`, its sine and cosine computed once
        pts = points if isinstance(points, (list, tuple)) else list(points)
        xs = [x * c - y * s for x, y in pts]
        ys = [x * s + y * c for x, y in pts]
    else:
        pts = list(points)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def best_rotation(points: list[Pt] | Outline, box_w: float, box_h: float) -> tuple[float, float]:
    """(rotation, units-to-pixels scale) giving the largest stage inside box_w × box_h.

    Rotation 0 wins unless another is clearly (>4 %) better, so stages keep their drawn
    orientation when it works.
    """
    best = (0.0, 0.0)
    base = 0.0
    for deg in ROTATIONS:
        x0, y0, x1, y1 = bbox(points, deg)
        scale = min(box_w / max(x1 - x0, 1e-6), box_h / max(y1 - y0, 1e-6))
        if deg == 0:
            base = scale
        if scale > best[1]:
            best = (float(deg), scale)
    if best[1] <= base * 1.04:
        return 0.0, base
    return best


@dataclass(frozen=True)
class Frame:
    """pixel = rotate(world) × ppu − origin."""

    rotation: float
    ppu: float
    origin_x: float
    origin_y: float

    @classmethod
    def fitting(cls, points: list[Pt] | Outline, rotation: float, ppu: float, width: float, height: float) -> Frame:
        """The frame that centres `points` (turned by `rotation`, scaled by `ppu`) in width × height."""
        x0, y0, x1, y1 = bbox(points, rotation)
        ox = x0 * ppu - (width - (x1 - x0) * ppu) / 2
        oy = y0 * ppu - (height - (y1 - y0) * ppu) / 2
        return cls(rotation, ppu, ox, oy)

    @cached_property
    def _turn(self) -> tuple[float, float]:
        """The rotation's cosine and sine, as `rotate` computes them (once per frame, not per point)."""
        r = math.radians(self.rotation)
        return math.cos(r), math.sin(r)

    def px(self, p: Pt) -> Pt:
        if self.rotation:
            c, s = self._turn
            x, y = p[0] * c - p[1] * s, p[0] * s + p[1] * c
        else:
            x, y = p
        return x * self.ppu - self.origin_x, y * self.ppu - self.origin_y

    def poly(self, pts: Iterable[Pt]) -> list[Pt]:
        return [self.px(p) for p in pts]

    def heading(self, h: float) -> float:
        return (h + self.rotation) % 360.0

    def scaled(self, k: float) -> Frame:
        """The same view at k× the pixels (for supersampled drawing)."""
        return Frame(self.rotation, self.ppu * k, self.origin_x * k, self.origin_y * k)

    def shifted(self, dx: float, dy: float) -> Frame:
        """The same view with every pixel moved by (dx, dy)."""
        return Frame(self.rotation, self.ppu, self.origin_x - dx, self.origin_y - dy)


def window_box(origin: tuple[int, int], window: tuple[int, int], layer: tuple[int, int]
               ) -> tuple[tuple[int, int, int, int], bool]:
    """The part of a static layer of size `layer` that a camera window of size `window` at
    `origin` (its top-left corner in the layer, maybe outside it) shows, and whether the window
    also shows ground beyond the layer (then the band is painted first)."""
    ox, oy = origin
    ww, wh = window
    sw, sh = layer
    x0, y0 = max(ox, 0), max(oy, 0)
    x1, y1 = min(ox + ww, sw), min(oy + wh, sh)
    return (x0, y0, x1, y1), (x1 - x0, y1 - y0) != (ww, wh)
