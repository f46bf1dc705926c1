"""The static layer of a DIRT board: everything that never moves during a stage, drawn once.

Hex tiles, the gravel road, every space's outline (corner spaces tinted on their inside line, B8),
slide pairs with their dotted outline and dividing line (B9), shortcuts (B10), jumps' bars (B11),
one-lane points (a narrower road, B7), speed-limit circles, the start and finish lines. It prints
no word (START, FINISH and "Jump 4" are map labels drawn over it, `bot.render.dirt.labels`), so one
layer serves every language. Drawn at `options.supersample`× and reduced (antialiasing), kept as a
palette image in memory (`CACHE_BYTES`) and on disk (`bot.render.disk_cache`), so the first board of
a stage in a new worker reads it instead of drawing it. In a render worker (`WINDOW_FIRST`) a layer
nobody drew yet is drawn for the camera window alone, and the bot warms the whole layer after
(`bot.render.dirt.painter`, `layer_to_warm`).
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path

from PIL import Image, ImageDraw

from bot.engine.dirt.stages.model import DirtStage, SpaceKind
from bot.render import disk_cache
from bot.render import palette as P
from bot.render.cache import ByteLRU, image_bytes
from bot.render.dirt import colours as C
from bot.render.dirt.layout import DirtLayout
from bot.render.dirt.shapes import Pt, stage_shapes
from bot.render.drawing import dashed, outlined_polygon, text_scale
from bot.render.encode import quantize
from bot.render.frame import Frame
from bot.render.layer_cache import LayerStats, kept_layer
from bot.render.options import RenderOptions

CACHE_BYTES = 48 * 1024 * 1024  # the default: the render plan sets its share of the budget (bot/sizing.py)
#: in a render worker: a layer nobody drew yet is drawn for the board's window alone (see module doc)
WINDOW_FIRST = False
#: this package's modules that draw a layer: their source is part of the disk cache's file name
CODE = ("static_layer.py", "shapes.py", "colours.py", "layout.py", "marks.py")  # labels.py: drawn over it


stats = LayerStats()
_cache: ByteLRU[Image.Image] = ByteLRU(CACHE_BYTES, "dirt_static_layers", share=48)
_code: str | None = None


def cache_clear() -> None:
    """Forget every layer kept in memory (not on disk) and zero the counters."""
    _cache.clear()
    stats.reset()


def _code_hash() -> str:
    global _code
    if _code is None:
        h = hashlib.sha256()
        here = Path(__file__).resolve().parent
        for name in CODE:
            try:
                h.update((here / name).read_bytes())
            except OSError:
                h.update(name.encode())
        _code = h.hexdigest()[:16]
    return _code


def _key(stage: DirtStage, layout: DirtLayout, options: RenderOptions) -> tuple:
    return (stage.name, stage.source, layout.frame, layout.static_size, options.supersample)


def _name(stage: DirtStage, layout: DirtLayout, options: RenderOptions) -> str:
    variant = ("dirt", layout.frame, layout.static_size, options.supersample, _code_hash())
    return disk_cache.layer_name(stage, frozenset(), variant)


def cached_layer(stage: DirtStage, layout: DirtLayout, options: RenderOptions) -> Image.Image | None:
    """The layer from memory, else from disk (then kept in memory), else None."""
    return kept_layer(_cache, stats, _key(stage, layout, options), lambda: _name(stage, layout, options),
                      layout.static_size)


def static_layer(stage: DirtStage, layout: DirtLayout, options: RenderOptions) -> Image.Image:
    """The whole layer (palette image, read-only), from memory, else disk, else drawn and kept."""
    img = cached_layer(stage, layout, options)
    if img is None:
        img = quantize(draw_layer(stage, layout.frame, layout.static_size, options))
        stats.drawn += 1
        disk_cache.store(_name(stage, layout, options), img)
        _cache.put(_key(stage, layout, options), img, image_bytes(img))
    return img


def static_window(stage: DirtStage, layout: DirtLayout, options: RenderOptions,
                  box: tuple[int, int, int, int]) -> Image.Image:
    """The part `box` of the layer; in a worker, a layer not drawn yet is drawn for `box` alone."""
    if WINDOW_FIRST and layout.mode == "camera" and cached_layer(stage, layout, options) is None:
        stats.windows += 1
        x0, y0, x1, y1 = box
        return draw_layer(stage, layout.frame.shifted(-x0, -y0), (x1 - x0, y1 - y0), options)
    return static_layer(stage, layout, options).crop(box)


def warm_layer(stage: DirtStage, layout: DirtLayout, options: RenderOptions) -> str:
    """Draw (or read) the whole layer and keep it; its disk file's name."""
    static_layer(stage, layout, options)
    return _name(stage, layout, options)


def draw_layer(stage: DirtStage, frame: Frame, size: tuple[int, int], options: RenderOptions) -> Image.Image:
    """The layer of `stage` seen through `frame`, `size` pixels, RGB (drawn supersampled, reduced)."""
    k = options.supersample
    img = Image.new("RGB", (size[0] * k, size[1] * k), C.GROUND)
    with text_scale(k):
        Painter(stage, frame.scaled(k), img, options, k).paint()
    return img.reduce(k) if k > 1 else img


class Painter:
    """Draws the fixed parts of a stage on `img` through `frame` (`k`: the supersampling factor)."""

    def __init__(self, stage: DirtStage, frame: Frame, img: Image.Image, options: RenderOptions, k: int) -> None:
        self.stage, self.frame, self.img, self.options, self.k = stage, frame, img, options, k
        self.d = ImageDraw.Draw(img)
        self.shapes = stage_shapes(stage)
        self.ppu = frame.ppu / k  # pixels per unit in the final image

    def w(self, px: float) -> int:
        """A final-image width in pixels, at the canvas's supersampling."""
        return max(1, round(px * self.k))

    def poly(self, pts: tuple[Pt, ...] | list[Pt]) -> list[Pt]:
        return self.frame.poly(pts)

    def paint(self) -> None:
        self.tiles()
        self.road()
        self.spaces()
        self.slides()
        self.jumps()
        self.lines()
        from bot.render.dirt.marks import draw_marks  # one module draws marks for the layer and the overlay
        draw_marks(self.d, self.stage, self.frame, self.options, self.k, {})

    def tiles(self) -> None:
        for hexagon in self.shapes.hexes:
            outlined_polygon(self.img, self.poly(hexagon), C.TILE, C.TILE_EDGE, self.w(2))

    def road(self) -> None:
        for poly in self.shapes.road:
            outlined_polygon(self.img, self.poly(poly), C.GRAVEL, C.ROAD_EDGE, self.w(3))
        for poly in self.shapes.road:  # the edges between two tiles' road are not edges of the road
            self.d.polygon(self.poly(poly), fill=C.GRAVEL)

    def spaces(self) -> None:
        for space, poly in zip(self.stage.spaces, self.shapes.spaces, strict=True):
            if space.kind is SpaceKind.SLIDE:
                continue
            if space.kind is SpaceKind.SHORTCUT:
                outlined_polygon(self.img, self.poly(poly), C.SHORTCUT, C.SPACE_LINE, self.w(3))
                continue
            fill = C.GRAVEL_INSIDE if space.inside else C.GRAVEL
            outlined_polygon(self.img, self.poly(poly), fill, C.SPACE_LINE, self.w(2))

    def slides(self) -> None:
        """A slide pair: its halves outlined dotted, and the dotted line between them (B9)."""
        for space, poly in zip(self.stage.spaces, self.shapes.spaces, strict=True):
            if space.kind is not SpaceKind.SLIDE:
                continue
            pts = self.poly(poly)
            for a, b in zip(pts, pts[1:] + pts[:1]):
                dashed(self.d, a, b, C.SLIDE_LINE, self.w(3), self.w(7))

    def jumps(self) -> None:
        """A jump's edge: a yellow and black bar across the road (its gear is on the badge beside)."""
        for a, b in self.shapes.jumps:
            pa, pb = self.frame.px(a), self.frame.px(b)
            self.d.line([pa, pb], fill=C.JUMP, width=self.w(8))
            dashed(self.d, pa, pb, P.BLACK, self.w(8), self.w(8))

    def lines(self) -> None:
        """The start line red and the finish line chequered, as on a classic board (their words are
        map labels, `bot.render.dirt.labels`)."""
        a, b = self.shapes.start
        self.d.line([self.frame.px(a), self.frame.px(b)], fill=P.START_RED, width=self.w(0.16 * self.ppu))
        a, b = self.shapes.finish
        self._chequer(self.frame.px(a), self.frame.px(b))

    def _chequer(self, a: Pt, b: Pt) -> None:
        n = 8
        dx, dy = (b[0] - a[0]) / n, (b[1] - a[1]) / n
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        side = length
        for row in range(2):
            for i in range(n):
                o = (row - 1) * side
                p0 = (a[0] + dx * i + nx * o, a[1] + dy * i + ny * o)
                quad = [p0, (p0[0] + dx, p0[1] + dy), (p0[0] + dx + nx * side, p0[1] + dy + ny * side),
                        (p0[0] + nx * side, p0[1] + ny * side)]
                self.d.polygon(quad, fill=P.BLACK if (i + row) % 2 else P.WHITE)
