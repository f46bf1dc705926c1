"""Where each car is drawn on the stage and which way it points (space units, headings in degrees).

- on a space: at its centre, facing the road's heading; cars sharing a space sit side by side
  (and staggered when more than fit across), so none hides another (RULES A13.1);
- skid pose: sideways, nose towards the inside of the corner (RULES A8.2);
- off_left / off_right: beside the road on that side of the direction of travel, turned away
  from it (RULES A11.2);
- spun: facing backwards (RULES A11.2);
- START: in rows behind the start line (A4.1); FINISH: in rows past the finish line (A15.1);
- knocked out ("out"): not on the board (A12.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.engine.rallyman.stages.model import FINISH, START, Stage
from bot.engine.rallyman.view import BoardView, CarView
from bot.render.rallyman.geometry import GRID_ROW, Line, add, left_of, stage_shapes, unit

CAR_GAP = 0.58  # centre-to-centre of cars side by side, space units


@dataclass(frozen=True)
class Placed:
    car: CarView
    at: tuple[float, float]
    heading: float           # where the nose points
    road_heading: float      # direction of travel there


def place_cars(stage: Stage, view: BoardView) -> list[Placed]:
    """Every car still on the board, with its drawing position and heading."""
    shapes = stage_shapes(stage)
    out: list[Placed] = []
    groups: dict[tuple[int, Literal["road", "off_left", "off_right"]], list[CarView]] = {}
    starting, finished = [], []
    for car in view.cars:
        if car.status == "out":
            continue
        if car.space == START:
            starting.append(car)
        elif car.space == FINISH:
            finished.append(car)
        else:
            where = car.pose if car.pose in ("off_left", "off_right") else "road"
            groups.setdefault((car.space, where), []).append(car)
    out += _grid(starting, shapes.start, -1.0)
    out += _grid(finished, shapes.finish, 1.0)
    for (space_id, where), cars in groups.items():
        sh = shapes.shape(space_id)
        h = sh.heading
        d, n = unit(h), left_of(h)
        if where == "road":
            for car, (side, along) in zip(cars, _offsets(len(cars), sh.half_width)):
                at = add(add(sh.centre, n, side), d, along)
                out.append(Placed(car, at, _nose(stage, car, space_id, h), h))
        else:
            sgn = 1.0 if where == "off_left" else -1.0
            edge = sh.edge_left if sgn > 0 else sh.edge_right
            base = add(sh.centre, n, sgn * (edge + 0.42))
            for i, car in enumerate(cars):
                at = add(base, d, (i - (len(cars) - 1) / 2) * 0.62)
                out.append(Placed(car, at, _nose(stage, car, space_id, h), h))
    order = {c.driver_id: i for i, c in enumerate(view.cars)}
    out.sort(key=lambda p: (p.car.active, order[p.car.driver_id]))  # the active car drawn last, on top
    return out


def _offsets(count: int, half_width: float) -> list[tuple[float, float]]:
    """(sideways, along) offsets of `count` cars sharing a space of half width `half_width`."""
    if count == 1:
        return [(0.0, 0.0)]
    across = max(1, min(count, int((2 * half_width) // CAR_GAP)))
    rows = -(-count // across)
    out = []
    for i in range(count):
        row, col = divmod(i, across)
        in_row = min(across, count - row * across)
        side = ((in_row - 1) / 2 - col) * CAR_GAP
        along = ((rows - 1) / 2 - row) * 0.5 if rows > 1 else 0.0
        if across == 1:  # a one-lane space holding two cars (A11.6 puts a car back anyway)
            side = (0.5 - (i % 2)) * 0.36
        out.append((side, along))
    return out


def _nose(stage: Stage, car: CarView, space_id: int, h: float) -> float:
    if car.pose == "skid":
        space = stage.spaces[space_id]
        inward = -1.0 if space.corner is not None and stage.corners[space.corner].direction == "left" else 1.0
        return h + inward * 70.0
    if car.pose == "spun":
        return h + 180.0
    if car.pose == "off_left":
        return h - 35.0
    if car.pose == "off_right":
        return h + 35.0
    return h


def _grid(cars: list[CarView], line: Line, sgn: float) -> list[Placed]:
    """Rows of cars behind the start line (sgn −1) or past the finish line (sgn +1)."""
    if not cars:
        return []
    per_row = 2 if len(cars) <= 4 else 3
    d, n = unit(line.heading), left_of(line.heading)
    out = []
    for i, car in enumerate(cars):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(cars) - row * per_row)
        side = ((in_row - 1) / 2 - col) * (0.64 if per_row == 2 else 0.6)
        at = add(add(line.mid, d, sgn * (0.5 + row * GRID_ROW)), n, side)
        out.append(Placed(car, at, line.heading, line.heading))
    return out


def world_position(stage: Stage, position: int) -> tuple[float, float]:
    """Centre of a space, or of the start / finish line for START / FINISH."""
    shapes = stage_shapes(stage)
    if position == START:
        return shapes.start.mid
    if position == FINISH:
        return shapes.finish.mid
    return shapes.shape(position).centre
