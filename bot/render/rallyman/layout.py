"""Where the parts of a board image go, and at what scale the stage is drawn.

"fit": the whole stage in the map box. "camera": the stage at a readable scale, cropped around
the car of interest, plus an overview strip of the whole stage. "auto" picks fit when the whole
stage is readable at the output width (≥ `min_ppu` pixels per space), else camera.
Layouts depend only on the stage and the options, so they are cached and `space_pixel` can
answer without drawing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.engine.rallyman.stages.model import Stage
from bot.render.board_layout import BoardLayout
from bot.render.frame import Frame, Outline, bbox, best_rotation
from bot.render.options import RenderOptions
from bot.render.rallyman.geometry import stage_fingerprint, stage_shapes

HEADER_H = 112          # title line + status line (design px at 1080 wide)
MAP_PAD = 16            # free border round the stage inside the map
FIT_MAX_H = 700         # tallest fitted map of a board image
PREVIEW_MAX_H = 1300    # a preview may be taller: it has no panel below
CAMERA_H = 600          # camera window height
OVERVIEW_H = 280        # overview strip height (at most)
#: notes and labels need this many pixels per space; below it the static layer draws a sketch
DETAIL_PPU = 40.0
#: the whole-stage static layer of a camera view is kept below this many pixels per side
MAX_STATIC_SIDE = 7000


@dataclass(frozen=True)
class MapLayout(BoardLayout):
    """A classic board's layout: the shared record, and whether the map is drawn in detail."""

    detail: bool = True                  # notes and labels drawn


_CACHE: dict[tuple, MapLayout] = {}


def board_layout(stage: Stage, options: RenderOptions, preview: bool = False) -> MapLayout:
    """The layout of the board image (or of the preview) of `stage`, computed once."""
    key = (stage_fingerprint(stage), options, preview)
    layout = _CACHE.get(key)
    if layout is None:
        outline = Outline(stage_shapes(stage).hull)  # its rotated boxes computed once for this layout
        layout = _preview(options, outline) if preview else _board(options, outline)
        if len(_CACHE) > 256:
            _CACHE.clear()
        _CACHE[key] = layout
    return layout


def _fit(pts: Outline, options: RenderOptions, max_h: int) -> tuple[float, float, tuple[int, int]]:
    w, pad = options.width, options.px(MAP_PAD)
    rotation, ppu = best_rotation(pts, w - 2 * pad, options.px(max_h) - 2 * pad)
    ppu = min(ppu, options.max_ppu * options.scale)
    _, y0, _, y1 = bbox(pts, rotation)
    h = min(options.px(max_h), math.ceil((y1 - y0) * ppu + 2 * pad))
    return rotation, ppu, (w, h)


def _board(options: RenderOptions, outline: Outline) -> MapLayout:
    header = options.px(HEADER_H)
    rotation, ppu, size = _fit(outline, options, FIT_MAX_H)
    if options.mode == "fit" or (options.mode == "auto" and ppu >= options.min_ppu * options.scale):
        frame = Frame.fitting(outline, rotation, ppu, *size)
        return MapLayout("fit", frame, size, header, size, detail=ppu >= DETAIL_PPU * options.scale)
    return _camera(outline, options, header)


def _camera(pts: Outline, options: RenderOptions, header: int) -> MapLayout:
    w, pad = options.width, options.px(MAP_PAD)
    strip_box_h = options.px(OVERVIEW_H)
    rotation, o_ppu = best_rotation(pts, w - 2 * pad, strip_box_h - 2 * pad)
    x0, y0, x1, y1 = bbox(pts, rotation)
    strip_h = min(strip_box_h, math.ceil((y1 - y0) * o_ppu + 2 * pad))
    overview = Frame.fitting(pts, rotation, o_ppu, w, strip_h)
    ppu = options.camera_ppu * options.scale
    side = max(x1 - x0, y1 - y0) * ppu * options.supersample
    if side > MAX_STATIC_SIDE:
        ppu *= MAX_STATIC_SIDE / side
    static = (math.ceil((x1 - x0) * ppu + 2 * pad), math.ceil((y1 - y0) * ppu + 2 * pad))
    frame = Frame.fitting(pts, rotation, ppu, *static)
    window = (w, options.px(CAMERA_H))
    return MapLayout("camera", frame, static, header, window, overview, (w, strip_h),
                     detail=ppu >= DETAIL_PPU * options.scale)


def _preview(options: RenderOptions, outline: Outline) -> MapLayout:
    header = options.px(HEADER_H)
    rotation, ppu, size = _fit(outline, options, PREVIEW_MAX_H)
    frame = Frame.fitting(outline, rotation, ppu, *size)
    return MapLayout("fit", frame, size, header, size, detail=ppu >= DETAIL_PPU * options.scale)


def crop_origin(layout: MapLayout, focus: tuple[float, float]) -> tuple[int, int]:
    """Top-left corner in the static layer of the window centred on `focus` (kept on the stage)."""
    (sw, sh), (ww, wh) = layout.static_size, layout.map_size
    if layout.mode == "fit":
        return 0, 0

    def axis(c: float, total: int, win: int) -> int:
        if total <= win:
            return -((win - total) // 2)
        return int(min(max(c - win / 2, 0), total - win))
    return axis(focus[0], sw, ww), axis(focus[1], sh, wh)
