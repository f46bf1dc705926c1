"""The moving part of a board, drawn on a copy of the static layer after every turn.

Order matters for legibility: dirt markers and the path line first, then a ghost car
(translucent, under the real cars, moved off a space a real car holds), cars on top (the active car
last, with its halo; a spun car with its spin mark), then the dice of the turn just played placed
beside the cars rather than under them, and last the ghost's label.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import FINISH, START, Stage
from bot.engine.rallyman.view import BoardView, GhostView, PathStep
from bot.render import palette as P
from bot.render.ai_mark import draw_ai_mark, driven_by_ai
from bot.render.drawing import pill, pill_size, text_centered
from bot.render.fonts import BOARD_FONT_PX, fitting_font, font
from bot.render.frame import Frame
from bot.render.ghost import draw_ghost, label_ghost
from bot.render.options import RenderOptions
from bot.render.rallyman.cars import car_size, car_sprite, paste_car
from bot.render.rallyman.dice import die_badge
from bot.render.rallyman.die_spots import die_size, die_spots
from bot.render.rallyman.geometry import add, left_of, stage_shapes, unit
from bot.render.rallyman.placement import Placed, world_position
from bot.render.words import word

Pt = tuple[float, float]
#: how far to the side a ghost sharing a real car's space is drawn (space units)
GHOST_SHIFT = 0.62


def draw_overlay(canvas: Image.Image, stage: Stage, view: BoardView, frame: Frame, placed: list[Placed],
                 options: RenderOptions, window: tuple[float, float, float, float] | None = None) -> None:
    """Dirt markers, the path just driven, the cars and the dice of the last turn (`window`: the
    map's box in the image, which a visible corner's dirt tag stays in)."""
    draw = ImageDraw.Draw(canvas)
    _dirt(draw, stage, view, frame, options, window)
    steps = path_points(stage, view)
    colour = _path_colour(view)
    if steps:
        _path_line(draw, [frame.px(p) for _, p in steps], colour, frame.ppu, options)
    car_px = [frame.px(p.at) for p in placed]
    length, width = car_size(frame.ppu, options.scale)
    ghost = ghost_point(stage, view.ghost, placed) if view.ghost is not None else None
    if ghost is not None:  # under the real cars, never on top of one
        draw_ghost(canvas, frame.px(ghost[0]), frame.heading(ghost[1]), length, width, options)
    for p, at in zip(placed, car_px):
        angle = round(frame.heading(p.heading) / 3) * 3 % 360
        paste_car(canvas, car_sprite(p.car.colour, angle, length, width, p.car.active), at)
        _initials(draw, p, at, length, width, options)
        if driven_by_ai(p.car.driver_id):
            draw_ai_mark(draw, ai_mark_at(at, length, [c for c in car_px if c is not at]), options.px(28))
        if p.car.pose == "spun":
            spin_mark(draw, spin_mark_at(at, length), width * 0.62)
    if steps:
        _path_dice(canvas, draw, stage, frame, steps, placed, colour, options)
    if ghost is not None and view.ghost is not None:  # its label over everything, away from the cars
        label_ghost(canvas, frame.px(ghost[0]), length, view.ghost.label, car_px, options)


def ghost_point(stage: Stage, ghost: GhostView, placed: list[Placed]) -> tuple[Pt, float] | None:
    """Where the ghost car is drawn (space units) and its heading: at its space's centre, or on the
    start / finish line; moved aside (and a little back) when a real car stands there,
    so it never hides one. None: a space this stage does not have."""
    shapes = stage_shapes(stage)
    if ghost.place == START:
        line, sgn = shapes.start, -1.0
    elif ghost.place == FINISH:
        line, sgn = shapes.finish, 1.0
    elif 0 <= ghost.place < len(stage.spaces):
        sh = shapes.shape(ghost.place)
        at, heading = sh.centre, sh.heading
        if any(p.car.space == ghost.place for p in placed):  # beside it, a little behind
            at = add(add(at, left_of(heading), GHOST_SHIFT), unit(heading), -0.3)
        return at, heading
    else:
        return None
    at = add(line.mid, unit(line.heading), sgn * 0.5)
    if any(p.car.space == ghost.place for p in placed):  # beside the real cars' rows
        at = add(at, left_of(line.heading), -1.2)
    return at, line.heading


def _initials(draw: ImageDraw.ImageDraw, p: Placed, at: Pt, length: int, width: int, options: RenderOptions) -> None:
    text = p.car.initials[:3] or "?"
    size = max(round(BOARD_FONT_PX * options.scale), round(width * 0.62))
    f = fitting_font(text, size, round(BOARD_FONT_PX * options.scale), length * 0.92, bold=True)
    fg, stroke = P.ink_on(P.car_colour(p.car.colour))
    text_centered(draw, at, text, f, fg, stroke=stroke, stroke_width=max(1, round(1.5 * options.scale)))


def ai_mark_at(car_at: Pt, length: int, others: list[Pt]) -> Pt:
    """Centre of an AI car's robot mark: the corner of the car farthest from the other cars (a car
    sharing its space keeps its initials in sight)."""
    corners = [(car_at[0] + sx * length * 0.45, car_at[1] + sy * length * 0.4) for sy in (-1, 1) for sx in (-1, 1)]
    return max(corners, key=lambda c: min((math.hypot(c[0] - o[0], c[1] - o[1]) for o in others), default=0.0))


#: the spin mark's glyph: a turning arrow, as the loss-of-control card's spin (RULES A12.2)
SPIN_GLYPH = "↻"


def spin_mark_at(car_at: Pt, length: int) -> Pt:
    """Centre of a spun car's mark: on its upper right, clear of its initials."""
    return car_at[0] + length * 0.5, car_at[1] - length * 0.42


def spin_mark(draw: ImageDraw.ImageDraw, centre: Pt, radius: float) -> None:
    """A red disc with a white turning arrow beside a car that spun (it stands in neutral, turned
    round, until its next turn): seen at a glance, not by its pose alone."""
    x, y, r = centre[0], centre[1], radius
    draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=P.WHITE)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=P.HAZARD_RED)
    text_centered(draw, (x, y), SPIN_GLYPH, font(max(10, round(r * 1.5)), bold=True), P.WHITE)


# -- the path just driven ------------------------------------------------------------------------

def _path_colour(view: BoardView) -> P.RGB:
    for car in view.cars:
        if car.driver_id == view.path_driver:
            return P.car_colour(car.colour)
    return P.WHITE


def path_points(stage: Stage, view: BoardView) -> list[tuple[PathStep, Pt]]:
    """Each die of the last turn with the point it reached (steps naming no space are skipped)."""
    shapes = stage_shapes(stage)
    out = []
    for step in view.path:
        if step.space == FINISH:
            fi = shapes.finish
            out.append((step, add(fi.mid, unit(fi.heading), 0.25)))
        elif 0 <= step.space < len(stage.spaces):
            out.append((step, world_position(stage, step.space)))
    return out


def _path_line(draw: ImageDraw.ImageDraw, pts: list[Pt], colour: P.RGB, ppu: float, options: RenderOptions) -> None:
    w = max(round(6 * options.scale), round(0.12 * ppu))
    if len(pts) > 1:
        draw.line(pts, fill=P.BLACK, width=w + 4, joint="curve")
        draw.line(pts, fill=colour, width=w, joint="curve")
    for x, y in pts:
        r = w * 0.9
        draw.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=P.BLACK)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def _path_dice(canvas: Image.Image, draw: ImageDraw.ImageDraw, stage: Stage, frame: Frame,
               steps: list[tuple[PathStep, Pt]], placed: list[Placed], colour: P.RGB, options: RenderOptions) -> None:
    """One die badge per step (`die_spots`), on a rim of the path's colour: a die of the turn is
    never read as a space's speed limit."""
    size = die_size(frame, options)
    rim = max(3, options.px(5))
    for step, (x, y) in die_spots(stage, frame, steps, placed, options):
        h = size / 2 + rim
        draw.rounded_rectangle((x - h, y - h, x + h, y + h), radius=size * 0.28, fill=colour, outline=P.BLACK,
                               width=max(1, rim // 2))
        die_badge(canvas, draw, (x, y), step.die, step.hazard, size, options.lang)


# -- dirt markers ----------------------------------------------------------------------------------

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DirtTag:
    """The brown tag of a dirty corner: its text, centre and box, and whether its corner is in the
    visible window (a tag of a corner off the camera window may be cut: nobody sees the corner)."""

    text: str
    at: Pt
    box: Box
    visible: bool


def dirt_tags(stage: Stage, view: BoardView, frame: Frame, options: RenderOptions,
              window: Box | None = None) -> list[DirtTag]:
    """The tag outside each dirty corner. A tag whose corner is in the visible `window` is kept
    inside it, so a long word ("● Schmutz −1") is never cut by the map's edge."""
    shapes = stage_shapes(stage)
    f = font(round(BOARD_FONT_PX * options.scale), bold=True)
    pad = 0.35 * f.size
    out = []
    for corner_id, count in sorted(view.dirt.items()):
        if count <= 0 or not 0 <= corner_id < len(stage.corners):
            continue
        corner = stage.corners[corner_id]
        mid = shapes.shape(corner.interior[len(corner.interior) // 2])
        outward = -1.0 if corner.direction == "left" else 1.0  # away from the corner's centre
        edge = mid.edge_right if corner.direction == "left" else mid.edge_left
        n = left_of(mid.heading)
        x, y = frame.px(add(mid.centre, n, outward * (edge + 0.55)))
        text = word("dirt", options.lang, n=count)
        w, h = pill_size(text, f, pad)
        visible = True
        if window is not None:
            corner_at = frame.px(mid.centre)
            x0, y0, x1, y1 = window
            visible = x0 <= corner_at[0] <= x1 and y0 <= corner_at[1] <= y1
            if visible:
                x = min(max(x, x0 + w / 2 + 2), x1 - w / 2 - 2)
                y = min(max(y, y0 + h / 2 + 2), y1 - h / 2 - 2)
        out.append(DirtTag(text, (x, y), (x - w / 2, y - h / 2, x + w / 2, y + h / 2), visible))
    return out


def _dirt(draw: ImageDraw.ImageDraw, stage: Stage, view: BoardView, frame: Frame, options: RenderOptions,
          window: Box | None) -> None:
    """A brown tag outside each dirty corner: its notes are lowered by that many (RULES A8.5)."""
    f = font(round(BOARD_FONT_PX * options.scale), bold=True)
    for tag in dirt_tags(stage, view, frame, options, window):
        pill(draw, tag.at, tag.text, f, P.DIRT_MARKER, P.WHITE, 0.35 * f.size, outline=P.WHITE, outline_w=2)
