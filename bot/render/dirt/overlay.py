"""What changes turn after turn on a DIRT board, drawn over the static layer: the lowered limits of
tiles with "−1" tokens, the path of the turn just played, the dice on their spaces, the cars.

A car is a rounded body in its driver's colour with the driver's initials (colour is never the only
cue) and a dark badge with its gear; it lies along the track, turned 45° when it drifts on a corner's
outside line and across the track (90°) on a slide half (B8, B9). A die is a small square in its
kind's colour (B1: black gear die with its number, white coast, orange leader, red brake with the
letter the reader's language gives it), on its space, or beside the road when a car stands there; a
⚠ face is shown on the die itself ("5⚠") in a thick red frame. A ghost car is drawn
translucent under the cars, moved aside off a space a real car holds, its label last.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.engine.dirt.stages.model import DirtStage, SpaceKind
from bot.engine.dirt.view import BoardView, CarView, GhostView
from bot.render import palette as P
from bot.render.ai_mark import draw_ai_mark, driven_by_ai
from bot.render.dirt import colours as C
from bot.render.dirt.marks import draw_marks
from bot.render.dirt.shapes import Pt, space_centre, stage_shapes, track_heading
from bot.render.drawing import draw_text, length, outlined_polygon, text_centered
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.frame import Frame
from bot.render.ghost import draw_ghost, label_ghost
from bot.render.options import RenderOptions
from bot.render.words import word

HAZARD = "⚠"
POSE_TURN = {"normal": 0.0, "drift": 45.0, "slide": 90.0}
#: the letter of each die that is not a gear die, by its render word (tests check every language has it)
DIE_WORDS = {"coast": "dirt_die_coast", "leader": "dirt_die_leader", "brake": "dirt_die_brake"}


def initials(name: str) -> str:
    """Up to two letters of a driver's name ("Sébastien Morel" → "SM")."""
    parts = [p for p in name.split() if p and p[0].isalnum()]
    letters = "".join(p[0] for p in parts[:2]).upper()
    return letters or (name.strip()[:2].upper() or "?")


def die_label(die: str, lang: str) -> str:
    return die if die.isdigit() else word(DIE_WORDS[die], lang)


def die_kind(die: str) -> str:
    return "gear" if die.isdigit() else die


def draw_overlay(canvas: Image.Image, stage: DirtStage, view: BoardView, frame: Frame, options: RenderOptions) -> None:
    d = ImageDraw.Draw(canvas)
    if view.minus:
        draw_marks(d, stage, frame, options, 1, view.minus, only_lowered=True)
    _path(d, stage, view, frame, options)
    ghost = None
    if view.ghost is not None and 0 <= view.ghost.place < len(stage.spaces):  # under the real cars
        ghost = ghost_centre(stage, view, view.ghost, frame, options)
        draw_ghost(canvas, ghost[0], ghost[1], *car_size(frame, options), options)
    spots = car_spots(stage, view, frame, options)
    for car in sorted(view.cars, key=lambda c: c.to_act):  # the car to act on top
        if car.seat in spots:
            _car(canvas, d, car, *spots[car.seat], frame, options)
    _dice(d, stage, view, frame, options)
    if ghost is not None and view.ghost is not None:  # its label over everything, away from the cars
        cars = [frame.px(space_centre(stage, c.space)) for c in view.cars
                if c.space is not None and 0 <= c.space < len(stage.spaces)]
        label_ghost(canvas, ghost[0], car_size(frame, options)[0], view.ghost.label, cars, options)


def _path(d: ImageDraw.ImageDraw, stage: DirtStage, view: BoardView, frame: Frame, options: RenderOptions) -> None:
    pts = [frame.px(space_centre(stage, s)) for s in view.path if 0 <= s < len(stage.spaces)]
    if len(pts) >= 2:
        d.line(pts, fill=P.BLACK, width=options.px(9), joint="curve")
        d.line(pts, fill=C.PATH, width=options.px(5), joint="curve")
    r = options.px(6)
    for x, y in pts:
        d.ellipse((x - r, y - r, x + r, y + r), fill=C.PATH, outline=P.BLACK, width=2)


def car_size(frame: Frame, options: RenderOptions) -> tuple[float, float]:
    """(length, width) of a car in pixels: most of a space, never too small to hold its letters."""
    return max(options.px(50), 0.54 * frame.ppu), max(options.px(32), 0.32 * frame.ppu)


def _rotated_box(c: Pt, length: float, width: float, degrees: float) -> list[Pt]:
    a = math.radians(degrees)
    ux, uy = math.cos(a) * length / 2, math.sin(a) * length / 2
    vx, vy = -math.sin(a) * width / 2, math.cos(a) * width / 2
    return [(c[0] - ux - vx, c[1] - uy - vy), (c[0] + ux - vx, c[1] + uy - vy),
            (c[0] + ux + vx, c[1] + uy + vy), (c[0] - ux + vx, c[1] - uy + vy)]


def ghost_centre(stage: DirtStage, view: BoardView, ghost: GhostView, frame: Frame,
                 options: RenderOptions) -> tuple[Pt, float]:
    """Where the ghost car is drawn (image pixels) and its heading: on its space, moved aside (and
    a little back) when a real car stands there, so it never hides one."""
    c = frame.px(space_centre(stage, ghost.place))
    heading = frame.heading(track_heading(stage, ghost.place))
    if any(car.space == ghost.place for car in view.cars):
        length, width = car_size(frame, options)
        a = math.radians(heading)
        side, back = width * 1.25, length * 0.3
        c = (c[0] + math.sin(a) * side - math.cos(a) * back, c[1] - math.cos(a) * side - math.sin(a) * back)
    return c, heading


def car_spots(stage: DirtStage, view: BoardView, frame: Frame, options: RenderOptions) -> dict[str, tuple[Pt, float]]:
    """Where each car on the map is drawn (image pixels) and its heading: on its space, or, still
    waiting to start, in rows of two behind the start line (in the order they start)."""
    out: dict[str, tuple[Pt, float]] = {}
    for car in view.cars:
        if car.space is not None and 0 <= car.space < len(stage.spaces):
            out[car.seat] = (frame.px(space_centre(stage, car.space)),
                             frame.heading(track_heading(stage, car.space) + POSE_TURN[car.pose]))
    waiting = [car for car in view.cars if car.space is None and car.status == "waiting"]
    if waiting and stage.spaces:
        a, b = (frame.px(p) for p in stage_shapes(stage).start)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        first = frame.px(space_centre(stage, 0))
        heading = math.degrees(math.atan2(first[1] - mid[1], first[0] - mid[0]))  # the way the cars go
        back = (-math.cos(math.radians(heading)), -math.sin(math.radians(heading)))
        across = (-back[1], back[0])
        length, _ = car_size(frame, options)
        gap = options.px(14)
        for i, car in enumerate(waiting):  # side by side a body's length apart: their initials are level
            row, col = divmod(i, 2)
            behind = length / 2 + gap + row * (length + 2 * gap)
            aside = (col - 0.5) * (length * 0.8 + gap) if i < len(waiting) - len(waiting) % 2 else 0.0
            out[car.seat] = ((mid[0] + back[0] * behind + across[0] * aside,
                              mid[1] + back[1] * behind + across[1] * aside), heading)
    return out


def car_boxes(stage: DirtStage, view: BoardView, frame: Frame,
              options: RenderOptions) -> list[tuple[float, float, float, float]]:
    """The square each car on the map is drawn in (a body turned any way, its initials on it)."""
    r = car_size(frame, options)[0] / 2
    return [(x - r, y - r, x + r, y + r) for (x, y), _ in car_spots(stage, view, frame, options).values()]


def _car(canvas: Image.Image, d: ImageDraw.ImageDraw, car: CarView, c: Pt, heading: float, frame: Frame,
         options: RenderOptions) -> None:
    length, width = car_size(frame, options)
    colour = P.car_colour(car.colour)
    if car.to_act:
        d.polygon(_rotated_box(c, length + options.px(14), width + options.px(14), heading), fill=P.WHITE)
    outlined_polygon(canvas, _rotated_box(c, length, width, heading), colour, P.BLACK, options.px(3))
    nose = _rotated_box((c[0] + math.cos(math.radians(heading)) * length * 0.43,
                         c[1] + math.sin(math.radians(heading)) * length * 0.43), length * 0.1, width * 0.8, heading)
    d.polygon(nose, fill=P.BLACK)
    fg, stroke = P.ink_on(colour)
    text_centered(d, c, initials(car.name), font(options.px(BOARD_FONT_PX), bold=True), fg, stroke=stroke,
                  stroke_width=1)
    if driven_by_ai(car.seat):
        draw_ai_mark(d, (c[0] - length * 0.45, c[1] - length * 0.4), options.px(28))
    if car.status == "waiting":  # no gear yet
        return
    # the gear badge, beside the body towards the top-right (round its digit)
    r = options.px(21)
    bx, by = c[0] + length * 0.42, c[1] - width * 0.62
    d.ellipse((bx - r, by - r, bx + r, by + r), fill=P.BLACK, outline=P.WHITE, width=2)
    text_centered(d, (bx, by), str(car.gear), font(options.px(BOARD_FONT_PX), bold=True), P.WHITE)


def die_spot(stage: DirtStage, space: int, n: int, occupied: bool, frame: Frame, side: float) -> Pt:
    """Where the `n`-th die laid on `space` is drawn: on the space, or beside the road when a car
    stands on it (on the space's own side: a left-lane space's die on the left verge)."""
    s = stage.spaces[space]
    a = math.radians(frame.heading(track_heading(stage, space)))
    x, y = frame.px(space_centre(stage, space))
    along, across = (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))  # across: to the right
    if occupied:
        sign = -1.0 if s.lanes == (0,) else 1.0
        reach = frame.ppu * (0.66 if s.lanes in ((0,), (1,)) else 0.5 if s.kind is SpaceKind.SLIDE else 0.55)
        x, y = x + across[0] * sign * reach, y + across[1] * sign * reach
    # a second die on the space (a brake die with its gear die) just behind the first
    return x - along[0] * n * side * 1.1, y - along[1] * n * side * 1.1


def _dice(d: ImageDraw.ImageDraw, stage: DirtStage, view: BoardView, frame: Frame, options: RenderOptions) -> None:
    side = options.px(32)
    on_space: dict[int, int] = {}
    occupied = {c.space for c in view.cars if c.space is not None}
    f = font(options.px(BOARD_FONT_PX), bold=True)
    for die in view.dice:
        if not 0 <= die.space < len(stage.spaces):
            continue
        n = on_space.get(die.space, 0)
        on_space[die.space] = n + 1
        x, y = die_spot(stage, die.space, n, die.space in occupied, frame, side)
        kind = die_kind(die.die)
        face, ink = C.DICE[kind]
        label = die_label(die.die, options.lang)
        if not die.hazard:
            d.rounded_rectangle((x - side / 2, y - side / 2, x + side / 2, y + side / 2), radius=side * 0.2,
                                fill=face, outline=P.BLACK, width=2)
            draw_text(d, (x, y), label, f, ink, "mm")
            continue
        # a ⚠ face: the die widened to show its kind and the ⚠ side by side, in a thick red frame
        lw, hw = length(f, label), length(f, HAZARD)
        half = max(side, lw + hw + options.px(14)) / 2
        d.rounded_rectangle((x - half, y - side / 2, x + half, y + side / 2), radius=side * 0.2, fill=face,
                            outline=P.HAZARD_RED, width=options.px(4))
        left = x - (lw + hw + options.px(4)) / 2
        draw_text(d, (left, y), label, f, ink, "lm")
        draw_text(d, (left + lw + options.px(4), y), HAZARD, f, C.HAZARD_INK[kind], "lm")
