"""The course drawn alone (RULES C2, C5, C8): desert ground, the race tiles as blocks with their
boundaries, the road's square spaces, and on them what stands there: the start spaces, the Diner
stage sites (☕) with the stage tiles still on the road (a red disc with its number), the checkpoint
sites (⚑, a yellow flag while the tile is still there), Gas, a Shortcut's start (↷) with an arrow to
its end, General Store ($), Mechanic (⚙), and the finish's final space with its numbered marks.

Symbols rather than letters, so the picture is the same in every language but the legend; Gas has a
letter of the reader's language (`render.rr_icon_gas`): DejaVu Sans has no pump glyph.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.roadrally.road import Road, RoadSpace, SpaceKind
from bot.render import palette as P
from bot.render.drawing import draw_text, length
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.options import RenderOptions
from bot.render.palette import RGB
from bot.render.roadrally.layout import BORDER, CourseLayout
from bot.render.words import word

GROUND: RGB = (214, 190, 146)
TILE: RGB = (232, 214, 176)
TILE_EDGE: RGB = (150, 112, 70)
ROAD: RGB = (84, 88, 96)
ROAD_LINE: RGB = (236, 236, 232)
STAGE_TILE: RGB = (200, 36, 40)
SHORTCUT: RGB = (40, 90, 200)
FLAG: RGB = (250, 210, 40)
FINISH_CHECKS: tuple[RGB, RGB] = ((245, 245, 245), (30, 30, 30))
#: each special space's fill
FILL: dict[SpaceKind, RGB] = {
    SpaceKind.ROAD: ROAD,
    SpaceKind.START: (170, 40, 40),
    SpaceKind.DINER: (120, 84, 60),
    SpaceKind.CHECKPOINT: (30, 110, 70),
    SpaceKind.GAS: (200, 110, 20),
    SpaceKind.SHORTCUT: SHORTCUT,
    SpaceKind.STORE: (120, 60, 150),
    SpaceKind.MECHANIC: (60, 70, 80),
    SpaceKind.FINAL: (250, 250, 250),
}
#: the symbol each special space shows (Gas: a letter of the reader's language, see `icon`)
SYMBOL: dict[SpaceKind, str] = {SpaceKind.DINER: "☕", SpaceKind.CHECKPOINT: "⚑", SpaceKind.SHORTCUT: "↷",
                                SpaceKind.STORE: "$", SpaceKind.MECHANIC: "⚙"}
#: the legend's order and each line's word key (every key is checked in EN/FR/DE by the tests)
LEGEND: tuple[tuple[SpaceKind, str], ...] = (
    (SpaceKind.START, "rr_legend_start"), (SpaceKind.DINER, "rr_legend_diner"),
    (SpaceKind.CHECKPOINT, "rr_legend_checkpoint"), (SpaceKind.GAS, "rr_legend_gas"),
    (SpaceKind.SHORTCUT, "rr_legend_shortcut"), (SpaceKind.STORE, "rr_legend_store"),
    (SpaceKind.MECHANIC, "rr_legend_mechanic"), (SpaceKind.FINAL, "rr_legend_final"),
)


def icon(kind: SpaceKind, lang: str) -> str:
    """What a space of `kind` shows ("" for a plain road or start space, the final space)."""
    if kind is SpaceKind.GAS:
        return word("rr_icon_gas", lang)
    return SYMBOL.get(kind, "")


def heading(road: Road, index: int) -> tuple[float, float]:
    """The road's direction at space `index` (a unit step from the space before, or to the next)."""
    a = road.spaces[max(0, index - 1)] if index else road.spaces[0]
    b = road.spaces[index] if index else road.spaces[1]
    dx, dy = b.x - a.x, b.y - a.y
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


#: the distance between two numbered marks of the final space, in spaces, on a course laid large
MARK_STEP = 0.9
#: the free ring round a numbered mark, in pixels at 1080 px wide (two marks never touch)
MARK_GAP = 4


def mark_radius(lay: CourseLayout, options: RenderOptions) -> tuple[float, int]:
    """A numbered mark's radius and its number's font size (the number at least BOARD_FONT_PX)."""
    size = max(options.px(BOARD_FONT_PX), round(lay.ppu * 0.4))
    return max(lay.ppu * 0.3, size * 0.62), size


def mark_line(road: Road, lay: CourseLayout, options: RenderOptions, marks: int) -> tuple[float, float]:
    """(step, shift) of the final space's numbered marks, in spaces: MARK_STEP apart, or more where
    a mark is wider than that (a course laid small, ~26 px a space: the marks spread across the
    road, apart); the line slid across the road by `shift` where it would leave the course's
    tiles (a final space on the course's edge)."""
    radius, _ = mark_radius(lay, options)
    step = max(MARK_STEP, (2 * radius + options.px(MARK_GAP)) / lay.ppu)
    (px, py), keep = _across(road), radius / lay.ppu
    lo, hi = -math.inf, math.inf
    for x, y in final_marks(road, marks, step):
        for c, a, first, size in ((x, px, lay.origin[0], lay.units[0]), (y, py, lay.origin[1], lay.units[1])):
            if abs(a) > 1e-9:  # first + keep <= c + shift * a <= first + size - keep
                ends = ((first + keep - c) / a, (first + size - keep - c) / a)
                lo, hi = max(lo, min(ends)), min(hi, max(ends))
    shift = (lo + hi) / 2 if lo > hi else min(max(0.0, lo), hi)
    return step, shift


def _across(road: Road) -> tuple[float, float]:
    """The unit vector across the road on the final space (the marks' line)."""
    dx, dy = heading(road, road.final)
    return -dy, dx


def final_marks(road: Road, marks: int, step: float = MARK_STEP, shift: float = 0.0) -> list[tuple[float, float]]:
    """The course points (in units) of the final space's numbered marks 1..`marks`, `step` spaces
    apart: a line across the road on the final space (slid `shift` spaces across it), mark 1
    first (C8: cars are placed on the marks in arrival order)."""
    f = road.spaces[road.final]
    px, py = _across(road)
    return [(f.x + 0.5 + px * ((m - (marks - 1) / 2) * step + shift),
             f.y + 0.5 + py * ((m - (marks - 1) / 2) * step + shift)) for m in range(marks)]


def final_area(road: Road, marks: int, step: float = MARK_STEP,
               shift: float = 0.0) -> tuple[float, float, float, float]:
    """The final space drawn large: its square, widened across the road to hold every mark."""
    f = road.spaces[road.final]
    px, py = _across(road)
    half = max(0.5, (marks * step) / 2)
    across_x, across_y = abs(px) * (half - 0.5), abs(py) * (half - 0.5)
    return (f.x - across_x + px * shift, f.y - across_y + py * shift,
            f.x + 1 + across_x + px * shift, f.y + 1 + across_y + py * shift)


def draw_course(img: Image.Image, road: Road, lay: CourseLayout, options: RenderOptions,
                stage_tiles: Iterable[tuple[int, int]], checkpoint_tiles: Iterable[int], marks: int) -> None:
    """Ground, tiles, spaces, shortcuts, stage and checkpoint tiles, the final space with `marks` marks."""
    d = ImageDraw.Draw(img)
    ppu, px = lay.ppu, options.px
    edge = max(1, round(ppu / 18))
    for box, n in lay.blocks:
        x0, y0, x1, y1 = lay.box(*box)
        d.rectangle((x0, y0, x1, y1), fill=TILE, outline=TILE_EDGE, width=max(2, px(3)))
        draw_text(d, (x0 + px(6), y0 + px(4)), str(n + 1), font(px(BOARD_FONT_PX)), TILE_EDGE, "la")
    tiles_left = dict(stage_tiles)
    flags = set(checkpoint_tiles)
    for s in road.spaces:
        if s.kind is not SpaceKind.FINAL:
            _space(d, s, lay, options, tiles_left.get(s.index), s.index in flags, edge)
    size = max(px(BOARD_FONT_PX), round(ppu * 0.55))
    for chip in stage_chips(road, lay, options, tiles_left):  # over every space: a moved chip is whole
        cx, cy = lay.centre(road.spaces[chip.space].x, road.spaces[chip.space].y)
        (x, y), r = chip.at, chip.radius
        if (x, y) != (cx, cy):  # moved off its space: a white leader back to it
            d.line((cx, cy, x, y), fill=P.WHITE, width=max(2, edge * 2))
            d.ellipse((cx - ppu * 0.12, cy - ppu * 0.12, cx + ppu * 0.12, cy + ppu * 0.12), fill=STAGE_TILE)
        d.ellipse((x - r, y - r, x + r, y + r), fill=STAGE_TILE, outline=P.WHITE, width=edge)
        draw_text(d, (x, y), str(chip.number), font(size, True), P.WHITE, "mm")
    for s in road.spaces:
        if s.shortcut_to is not None:
            _arrow(d, lay, s, road.spaces[s.shortcut_to], max(3, round(ppu / 9)))
    _final(d, road, lay, options, marks, edge)


def _space(d: ImageDraw.ImageDraw, s: RoadSpace, lay: CourseLayout, options: RenderOptions, stage: int | None,
           flag: bool, edge: int) -> None:
    ppu = lay.ppu
    x0, y0, x1, y1 = lay.box(s.x, s.y, s.x + 1, s.y + 1)
    inset = max(1, ppu * 0.04)
    d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill=FILL[s.kind], outline=ROAD_LINE, width=edge)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    size = max(options.px(BOARD_FONT_PX), round(ppu * 0.55))
    if stage is not None:  # the stage tile still on its Diner site: its chip is drawn over every space
        return
    if s.kind is SpaceKind.CHECKPOINT and flag:  # the checkpoint tile still there: a yellow flag
        pole = cx - ppu * 0.2
        d.line((pole, cy - ppu * 0.34, pole, cy + ppu * 0.34), fill=P.WHITE, width=max(2, edge))
        d.polygon([(pole, cy - ppu * 0.34), (cx + ppu * 0.32, cy - ppu * 0.16), (pole, cy + ppu * 0.02)],
                  fill=FLAG, outline=P.BLACK)
        return
    mark = icon(s.kind, options.lang)
    if mark:
        ink = P.WHITE if s.kind is not SpaceKind.CHECKPOINT else (170, 200, 180)  # a taken flag: faded
        draw_text(d, (cx, cy), mark, font(size, True), ink, "mm")


@dataclass(frozen=True)
class StageChip:
    """A stage tile still on the road, as drawn: its space, number, centre and radius (pixels)."""

    space: int
    number: int
    at: tuple[float, float]
    radius: float


#: where a chip may go when its space's spot is taken: across the road, then along it (spaces)
CHIP_MOVES = ((0.0, 0.0), (1.0, 0.0), (-1.0, 0.0), (1.5, 0.5), (-1.5, 0.5), (1.5, -0.5), (-1.5, -0.5),
              (2.0, 0.0), (-2.0, 0.0), (2.5, 0.0), (-2.5, 0.0))


def stage_chips(road: Road, lay: CourseLayout, options: RenderOptions,
                stage_tiles: Mapping[int, int]) -> list[StageChip]:
    """Each stage tile's chip: a red disc never smaller than its number (BOARD_FONT_PX), on its
    space, or, where a chip drawn before already covers that spot (a course laid small has spaces
    smaller than a chip), beside the road, the nearest spot that overlaps no other chip and stays in
    the picture (a leader line ties it to its space)."""
    size = max(options.px(BOARD_FONT_PX), round(lay.ppu * 0.55))
    f = font(size, True)
    width = 2 * lay.left + lay.shown[0] * lay.ppu
    top, bottom = lay.top - BORDER * lay.ppu, lay.height
    out: list[StageChip] = []
    for index, number in sorted(stage_tiles.items()):
        s = road.spaces[index]
        r = max(lay.ppu * 0.44, length(f, str(number)) * 0.5 + options.px(6))
        cx, cy = lay.centre(s.x, s.y)
        ux, uy = lay.direction(*heading(road, index))
        spots = [(cx - uy * a * lay.ppu + ux * b * lay.ppu, cy + ux * a * lay.ppu + uy * b * lay.ppu)
                 for a, b in CHIP_MOVES]
        inside = [(x, y) for x, y in spots if r <= x <= width - r and top + r <= y <= bottom - r] or spots[:1]
        at = next((p for p in inside
                   if all(math.hypot(p[0] - c.at[0], p[1] - c.at[1]) >= r + c.radius + 2 for c in out)), inside[0])
        out.append(StageChip(index, number, at, r))
    return out


def _arrow(d: ImageDraw.ImageDraw, lay: CourseLayout, a: RoadSpace, b: RoadSpace, width: int) -> None:
    """A shortcut: a dashed blue arrow from its start space to its end space."""
    (x0, y0), (x1, y1) = lay.centre(a.x, a.y), lay.centre(b.x, b.y)
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    start, stop = lay.ppu * 0.35, length - lay.ppu * 0.45
    dash = lay.ppu * 0.3
    t = start
    while t < stop - dash * 0.5:
        e = min(t + dash, stop)
        d.line((x0 + ux * t, y0 + uy * t, x0 + ux * e, y0 + uy * e), fill=SHORTCUT, width=width)
        t += dash * 1.7
    hx, hy = x0 + ux * (stop + lay.ppu * 0.1), y0 + uy * (stop + lay.ppu * 0.1)
    head = lay.ppu * 0.3
    d.polygon([(hx, hy), (hx - ux * head - uy * head * 0.6, hy - uy * head + ux * head * 0.6),
               (hx - ux * head + uy * head * 0.6, hy - uy * head - ux * head * 0.6)], fill=SHORTCUT,
              outline=P.WHITE)


def _final(d: ImageDraw.ImageDraw, road: Road, lay: CourseLayout, options: RenderOptions, marks: int,
           edge: int) -> None:
    """The final space, checkered, with its numbered marks."""
    step, shift = mark_line(road, lay, options, marks)
    x0, y0, x1, y1 = lay.box(*final_area(road, marks, step, shift))
    cells_x = max(2, round((x1 - x0) / (lay.ppu / 4)))
    cells_y = max(2, round((y1 - y0) / (lay.ppu / 4)))
    cw, ch = (x1 - x0) / cells_x, (y1 - y0) / cells_y
    for i in range(cells_x):
        for j in range(cells_y):
            d.rectangle((x0 + i * cw, y0 + j * ch, x0 + (i + 1) * cw, y0 + (j + 1) * ch),
                        fill=FINISH_CHECKS[(i + j) % 2])
    d.rectangle((x0, y0, x1, y1), outline=P.FINISH_YELLOW, width=max(2, edge * 2))
    r, size = mark_radius(lay, options)
    f = font(size, True)
    for m, (x, y) in enumerate(final_marks(road, marks, step, shift), 1):
        cx, cy = lay.point(x, y)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=P.FINISH_YELLOW, outline=P.BLACK)
        draw_text(d, (cx, cy), str(m), f, P.BLACK, "mm")
