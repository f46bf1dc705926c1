"""Where the parts of a DIRT board go and at what scale the stage is drawn (as classic's layout).

"fit": the whole stage in the map box, when it is readable at the output width (≥ FIT_MIN_PPU
pixels per hex size: a space ~65 px long, a lane ~56 px wide at 1080 px, room for a car's initials).
"camera": the stage at CAMERA_PPU, a window around the action, plus an overview strip of the whole
stage. Layouts depend
only on the stage and the options, so they are kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.engine.dirt.stages.model import DirtStage
from bot.render.board_layout import BoardLayout
from bot.render.dirt.shapes import stage_shapes
from bot.render.frame import Frame, bbox, best_rotation
from bot.render.options import RenderOptions

HEADER_H = 112       # title line + status line (design px at 1080 wide)
MAP_PAD = 16
FIT_MIN_PPU = 112.0  # pixels per hex size below which "auto" switches to the camera view
CAMERA_PPU = 124.0   # pixels per hex size of the camera view
MAX_PPU = 150.0      # a small stage is not blown up further
FIT_MAX_H = 900
PREVIEW_MAX_H = 1500
CAMERA_H = 760
OVERVIEW_H = 260


@dataclass(frozen=True)
class DirtLayout(BoardLayout):
    """A DIRT board's layout: the shared record, nothing of its own."""


_CACHE: dict[tuple, DirtLayout] = {}


def board_layout(stage: DirtStage, options: RenderOptions, preview: bool = False) -> DirtLayout:
    """The layout of the board (or of the preview: always the whole stage) of `stage`, computed once."""
    key = (stage.name, len(stage.spaces), stage.source, options, preview)
    layout = _CACHE.get(key)
    if layout is None:
        layout = _fitted(stage, options, PREVIEW_MAX_H) if preview else _board(stage, options)
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = layout
    return layout


def _fit(stage: DirtStage, options: RenderOptions, max_h: int) -> tuple[float, float, tuple[int, int]]:
    pts = list(stage_shapes(stage).hull)
    w, pad = options.width, options.px(MAP_PAD)
    rotation, ppu = best_rotation(pts, w - 2 * pad, options.px(max_h) - 2 * pad)
    ppu = min(ppu, MAX_PPU * options.scale)
    _, y0, _, y1 = bbox(pts, rotation)
    return rotation, ppu, (w, min(options.px(max_h), math.ceil((y1 - y0) * ppu + 2 * pad)))


def _fitted(stage: DirtStage, options: RenderOptions, max_h: int) -> DirtLayout:
    rotation, ppu, size = _fit(stage, options, max_h)
    frame = Frame.fitting(list(stage_shapes(stage).hull), rotation, ppu, *size)
    return DirtLayout("fit", frame, size, options.px(HEADER_H), size)


def _board(stage: DirtStage, options: RenderOptions) -> DirtLayout:
    _, ppu, _ = _fit(stage, options, FIT_MAX_H)
    if options.mode == "fit" or (options.mode == "auto" and ppu >= FIT_MIN_PPU * options.scale):
        return _fitted(stage, options, FIT_MAX_H)
    pts = list(stage_shapes(stage).hull)
    w, pad = options.width, options.px(MAP_PAD)
    rotation, o_ppu = best_rotation(pts, w - 2 * pad, options.px(OVERVIEW_H) - 2 * pad)
    x0, y0, x1, y1 = bbox(pts, rotation)
    strip_h = min(options.px(OVERVIEW_H), math.ceil((y1 - y0) * o_ppu + 2 * pad))
    overview = Frame.fitting(pts, rotation, o_ppu, w, strip_h)
    cam = CAMERA_PPU * options.scale
    static = (math.ceil((x1 - x0) * cam + 2 * pad), math.ceil((y1 - y0) * cam + 2 * pad))
    frame = Frame.fitting(pts, rotation, cam, *static)
    return DirtLayout("camera", frame, static, options.px(HEADER_H), (w, options.px(CAMERA_H)), overview,
                      (w, strip_h))


def crop_origin(layout: DirtLayout, focus: tuple[float, float]) -> tuple[int, int]:
    """Top-left corner in the static layer of the window centred on `focus` (kept on the stage)."""
    if layout.mode == "fit":
        return 0, 0
    (sw, sh), (ww, wh) = layout.static_size, layout.map_size

    def axis(c: float, total: int, win: int) -> int:
        if total <= win:
            return -((win - total) // 2)
        return int(min(max(c - win / 2, 0), total - win))
    return axis(focus[0], sw, ww), axis(focus[1], sh, wh)
