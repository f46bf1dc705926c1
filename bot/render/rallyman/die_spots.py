"""Where the dice of the turn just played are drawn on a classic board (image pixels).

Each die sits on the road the car drove (inside a space's outline, never on the verge or past
the finish line where no road is drawn), clear of every car's sprite (a die never hides a car nor
its initials), of the dice before it and of every space's speed limit (a die is never read as a
limit, nor hides one). The last die is placed first, nearest its car, those before it behind it;
spots are tried nearest the space the die reached first; when none is
clear of everything, the spot on the road farthest from the cars is taken.
"""

from __future__ import annotations

import math

from bot.engine.rallyman.stages.model import FINISH, SpaceKind, Stage
from bot.engine.rallyman.view import PathStep
from bot.render.frame import Frame
from bot.render.options import RenderOptions
from bot.render.rallyman.cars import car_size
from bot.render.rallyman.geometry import add, left_of, stage_fingerprint, stage_shapes, unit
from bot.render.rallyman.placement import Placed

Pt = tuple[float, float]
#: how far along the road from the point a die reached its spot may be (space units, nearest first)
ALONG = (-0.5, 0.5, -0.25, 0.25, -0.75, 0.75, 0.0, -1.0, 1.0, -1.25, -1.5, -1.75, -2.0, -2.5, -3.0)


def die_size(frame: Frame, options: RenderOptions) -> float:
    """A die's side on the map: half a space, its face never below BOARD_FONT_PX (`die_badge`)."""
    return max(54 * options.scale, 0.5 * frame.ppu)


def die_half(frame: Frame, options: RenderOptions) -> float:
    """Half the side of a die as drawn, its rim included."""
    return die_size(frame, options) / 2 + max(3, options.px(5))


def car_corners(frame: Frame, car: Placed, options: RenderOptions) -> list[Pt]:
    """The four corners of a car's sprite body in image pixels."""
    length, width = car_size(frame.ppu, options.scale)
    x, y = frame.px(car.at)
    r = math.radians(frame.heading(car.heading))
    d, n = (math.cos(r), math.sin(r)), (-math.sin(r), math.cos(r))
    return [(x + d[0] * a * length / 2 + n[0] * b * width / 2, y + d[1] * a * length / 2 + n[1] * b * width / 2)
            for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]


def square_meets(centre: Pt, half: float, corners: list[Pt]) -> bool:
    """Whether the axis-aligned square of `half` round `centre` and the convex polygon `corners`
    overlap (separating axes: the square's two and the polygon's edge normals)."""
    cx, cy = centre
    square = [(cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half)]
    axes = [(1.0, 0.0), (0.0, 1.0)]
    axes += [(b[1] - a[1], a[0] - b[0]) for a, b in zip(corners, corners[1:] + corners[:1])]
    for ax, ay in axes:
        p = [ax * x + ay * y for x, y in square]
        q = [ax * x + ay * y for x, y in corners]
        if max(p) <= min(q) or max(q) <= min(p):
            return False
    return True


def inside(point: Pt, polygon: list[Pt]) -> bool:
    """Whether `point` lies inside `polygon` (even-odd rule)."""
    x, y = point
    hit = False
    for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            hit = not hit
    return hit


class Road:
    """The stage's spaces as image polygons, made once per board and filed by the cells of a
    coarse grid their bounding boxes cover: a point is tried only against the few spaces of its
    cell (a board tries a few hundred spots; each against every space's polygon, converted anew,
    cost more than the rest of the board)."""

    CELL = 64.0  # px

    def __init__(self, stage: Stage, frame: Frame) -> None:
        self.cells: dict[tuple[int, int], list[list[Pt]]] = {}
        for sh in stage_shapes(stage).spaces:
            poly = frame.poly(sh.polygon)
            xs, ys = [x for x, _ in poly], [y for _, y in poly]
            for cx in range(math.floor(min(xs) / self.CELL), math.floor(max(xs) / self.CELL) + 1):
                for cy in range(math.floor(min(ys) / self.CELL), math.floor(max(ys) / self.CELL) + 1):
                    self.cells.setdefault((cx, cy), []).append(poly)

    def holds(self, point: Pt) -> bool:
        """Whether an image point is inside a space of the stage's road."""
        cell = (math.floor(point[0] / self.CELL), math.floor(point[1] / self.CELL))
        return any(inside(point, poly) for poly in self.cells.get(cell, ()))


_ROADS: dict[tuple, Road] = {}


def road_of(stage: Stage, frame: Frame) -> Road:
    """The stage's `Road` in `frame`, kept for the next board of the same window (a spectator's
    board between two turns that did not move the camera, a replay's frames); a few dozen kept."""
    key = (stage_fingerprint(stage), frame)
    road = _ROADS.get(key)
    if road is None:
        if len(_ROADS) >= 32:
            _ROADS.clear()
        road = _ROADS[key] = Road(stage, frame)
    return road


def die_spots(stage: Stage, frame: Frame, steps: list[tuple[PathStep, Pt]], placed: list[Placed],
              options: RenderOptions) -> list[tuple[PathStep, Pt]]:
    """Where each die of the path is drawn (image pixels), see the module's docstring."""
    shapes = stage_shapes(stage)
    road = road_of(stage, frame)
    half = die_half(frame, options)
    cars = [car_corners(frame, p, options) for p in placed]
    limits = [frame.px(shapes.shape(s.id).centre) for s in stage.spaces
              if s.note is not None and s.kind is not SpaceKind.SHORTCUT]
    taken: list[Pt] = []

    def clear_of_cars(at: Pt) -> bool:
        return not any(square_meets(at, half, c) for c in cars)

    def clear_of_dice(at: Pt, apart: float = 2.0) -> bool:
        return all(max(abs(at[0] - t[0]), abs(at[1] - t[1])) >= apart * half for t in taken)

    def face_seen(at: Pt) -> bool:  # overlapping another die by less than half its face
        return clear_of_dice(at, 1.5)

    def clear_of_limits(at: Pt) -> bool:
        return not any(abs(at[0] - c[0]) < half * 1.1 and abs(at[1] - c[1]) < half * 1.1 for c in limits)

    tiers = ((clear_of_cars, clear_of_dice, clear_of_limits), (clear_of_cars, clear_of_dice),
             (clear_of_cars, face_seen), (clear_of_cars,))

    def room(at: Pt) -> float:
        """How far the spot is from the nearest car (the fallback keeps the farthest)."""
        return min((math.hypot(at[0] - sum(x for x, _ in c) / 4, at[1] - sum(y for _, y in c) / 4) for c in cars),
                   default=math.inf)

    out = []
    for step, world in reversed(steps):  # the last die first, nearest the car; those before it behind
        sh = None if step.space == FINISH else shapes.shape(step.space)
        h = shapes.finish.heading if sh is None else sh.heading
        d, n = unit(h), left_of(h)
        left, right = (sh.edge_left, sh.edge_right) if sh is not None else (0.5, 0.5)
        sides = (0.0, *(sgn * max(0.0, edge - half / frame.ppu) * f for sgn, edge in ((1, left), (-1, right))
                        for f in (1.0, 0.5)))
        candidates = [frame.px(add(add(world, d, k), n, side)) for k in ALONG for side in sides]
        known: dict[int, bool] = {}  # whether candidate i is on the road, asked only when it is tried

        def on(i: int, candidates: list[Pt] = candidates, known: dict[int, bool] = known) -> bool:
            if i not in known:
                known[i] = road.holds(candidates[i])
            return known[i]

        at = next((s for tests in tiers for i, s in enumerate(candidates) if on(i) and all(t(s) for t in tests)),
                  None)
        if at is None:  # no spot on the road clear enough: as before, among the road's spots
            spots = [s for i, s in enumerate(candidates) if on(i)] or [frame.px(world)]
            at = next((s for tests in tiers for s in spots if all(t(s) for t in tests)), None) or max(spots, key=room)
        taken.append(at)
        out.append((step, at))
    return out[::-1]


def on_road(stage: Stage, frame: Frame, point: Pt) -> bool:
    """Whether an image point is inside a space of the stage's road (one question: `Road` keeps
    the polygons for many)."""
    return Road(stage, frame).holds(point)
