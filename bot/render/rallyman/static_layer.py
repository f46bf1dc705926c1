"""The part of a board that never changes during a rally, drawn once per stage and weather.

Drawn at `options.supersample`× and reduced with a box filter (`Image.reduce`: every output pixel
the mean of k×k drawn ones, which antialiases every edge; LANCZOS cost 5–10× more on a 4000 px
canvas for no visible gain), then turned into a palette image (mode P, ≤ 256 colours chosen by
`layer_palette`, no dithering: mean error ~0.5/255 per channel, a quarter of the memory of RGB).
Contents: zone tints (snow-side zones whitish, RULES A20), terrain strips on each side of the
road (A11.3), every space as a quad or ring sector, corner notes (interior note in a white disc,
skid notes in an outlined square, "K4" on the brown shortcut area, A8), bumps with their note
(A10), split points (A21), the start and finish lines (A4.1, A15.1), zone names. Its words
(START, FINISH, SPLIT) are in `options.lang`, which is part of the key.

Two caches: in memory (`CACHE_BYTES`, per process: each render worker has its own), least
recently used first out; and on disk by stage hash and weather (bot.render.disk_cache), so a
restart or another worker reads the layer (~15 ms) instead of drawing it again. `warm_layer`
draws a layer ahead of its first board.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import SpaceKind, Stage
from bot.render import disk_cache
from bot.render import palette as P
from bot.render.cache import ByteLRU, image_bytes
from bot.render.drawing import dashed, extend, outlined_polygon, pill, pill_size, text_centered
from bot.render.fonts import MIN_FONT_PX, font
from bot.render.frame import Frame
from bot.render.label_placer import LabelPlacer
from bot.render.options import RenderOptions
from bot.render.rallyman.geometry import SpaceShape, StageShapes, add, left_of, stage_fingerprint, stage_shapes, unit
from bot.render.rallyman.layout import MapLayout
from bot.render.rallyman.terrain_marks import terrain_mark
from bot.render.words import labels, word

#: memory kept for static layers in one process (palette images, 1 byte a pixel: the longest
#: shipped stage is ~4 MB, a generated 30-space stage ~2 MB); least recently used go first. The
#: default: a drawing process's render plan sets its share of the plan's budget (bot/sizing.py)
CACHE_BYTES = 64 * 1024 * 1024


@dataclass
class CacheStats:
    """Counters of the static-layer cache, for tests and logs: `hits` and `misses` are the
    memory cache's; a miss is then read from disk (`disk_hits`) or drawn (`drawn`)."""

    hits: int = 0
    misses: int = 0
    disk_hits: int = 0
    drawn: int = 0
    windows: int = 0  # boards whose window was drawn alone (WINDOW_FIRST)


_cache: ByteLRU[Image.Image] = ByteLRU(CACHE_BYTES, "classic_static_layers", share=64)
stats = CacheStats()


def cache_clear() -> None:
    """Forget every layer kept in memory (not on disk), and its labels, and zero the counters."""
    _cache.clear()
    _palettes.clear()
    _labels.clear()
    stats.hits = stats.misses = stats.disk_hits = stats.drawn = stats.windows = 0


def release_memory() -> None:
    """Hand freed heap pages back to the system (glibc's `malloc_trim`; nothing elsewhere): a whole
    layer is drawn on a canvas of up to ~60 MB, and without this the process keeps its pages."""
    global _trim
    if _trim is None:
        try:
            _trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _trim = False
    if _trim:
        _trim(0)


_trim: Any = None


def cache_bytes() -> int:
    """Bytes of layers held in memory now (at most CACHE_BYTES, or one layer if it alone is larger)."""
    return _cache.bytes


def _key(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> tuple:
    return (stage_fingerprint(stage), tuple(sorted(snow)), layout.static_size, layout.frame, options.supersample,
            layout.detail, options.lang)


def _name(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> str:
    return disk_cache.layer_name(stage, snow, _variant(layout, options))


def cached_layer(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> Image.Image | None:
    """The static layer from memory, else from disk (then kept in memory), else None."""
    key = _key(stage, layout, snow, options)
    img = _cache.get(key)
    if img is not None:
        stats.hits += 1
        return img
    stats.misses += 1
    img = disk_cache.load(_name(stage, layout, snow, options))
    if img is None or img.size != layout.static_size:
        return None
    stats.disk_hits += 1
    _cache.put(key, img, image_bytes(img))
    kept = _labels_of(img.info.get(disk_cache.LABELS_CHUNK))
    if kept is not None:  # what the painter placed, kept with the layer: no second placement
        _keep_labels(key, kept)
    return img


def static_layer(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> Image.Image:
    """The static layer as a palette image (mode P), from memory, else disk, else drawn (treat it
    as read-only: crop or convert it before drawing on it)."""
    img = cached_layer(stage, layout, snow, options)
    return img if img is not None else _draw_and_keep(stage, layout, snow, options)


def _draw_and_keep(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> Image.Image:
    placed: list[MapLabel] = []  # the labels the painter places anyway: kept for `label_boxes`
    img = draw_layer(stage, layout, snow, options, placed)
    _keep_labels(_key(stage, layout, snow, options), placed)
    stats.drawn += 1
    release_memory()  # the bands' canvases are gone: give their pages back
    disk_cache.store(_name(stage, layout, snow, options), img, _labels_json(placed))
    _cache.put(_key(stage, layout, snow, options), img, image_bytes(img))
    return img


#: bytes of supersampled canvas a layer is drawn on at a time (`draw_layer`): a long stage's whole
#: canvas took ~64 MB at once, the peak of a render worker's memory (issue 28); 8 MB: +10 MB at the
#: peak for the longest stage, drawn in ~2.3× the time of one canvas (in the background)
BAND_BYTES = 8 * 1024 * 1024


def draw_layer(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions,
               placed: list[MapLabel] | None = None) -> Image.Image:
    """The whole static layer in its colours (mode P), drawn in horizontal bands of at most
    `BAND_BYTES` of supersampled canvas each, rather than on one canvas of the whole stage: each
    band is a part drawn alone (`draw_static` with a box: the very pixels of the whole layer,
    shapes off it skipped), turned to the layer's palette and pasted. The same pixels as one
    canvas; a sixth of the memory at its peak for the longest stage, for about twice the time (the
    layer is drawn once per stage and weather, in the background: `warm_layer`)."""
    palette = layer_palette(stage, layout, snow, options)
    w, h = layout.static_size
    k = options.supersample
    rows = max(64, BAND_BYTES // (w * k * k * 4))  # rows of the layer a band holds (4 bytes a pixel)
    if rows >= h:
        return to_palette(draw_static(stage, layout.frame, layout.static_size, snow, options, layout.detail,
                                      placed=placed), palette)
    img: Image.Image | None = None
    for y in range(0, h, rows):
        band = to_palette(draw_static(stage, layout.frame, layout.static_size, snow, options, layout.detail,
                                      (0, y, w, min(h, y + rows)), placed if y == 0 else None), palette)
        if img is None:
            img = Image.new("P", (w, h))
            img.putpalette(band.getpalette() or [])
        img.paste(band, (0, y))
    assert img is not None
    return img


def _keep_labels(key: tuple, placed: list[MapLabel]) -> None:
    """Keep a layer's placed labels (the first placement of that layer wins), within the bound."""
    if key not in _labels:
        if len(_labels) >= LABELS_KEPT:
            _labels.clear()
        _labels[key] = placed


#: a layer nobody has drawn yet: draw only the part a board shows (`static_window`) and leave the
#: whole layer to `warm_layer`. True in the render worker processes, whose new layers the bot then
#: warms (bot.services.images); False elsewhere, where nothing would draw the whole layer later.
WINDOW_FIRST = False


def static_window(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions,
                  box: tuple[int, int, int, int]) -> Image.Image:
    """The part `box` (x0, y0, x1, y1, pixels of the layer) of the static layer: a crop of the
    kept layer; or, with `WINDOW_FIRST` and no layer kept, that part drawn alone (the same
    pixels; the shapes wholly off it are skipped, `_Painter.seen`: ~17 ms for a window of
    greystone-col, whose whole layer takes ~150 ms), in the layer's colours (`layer_palette`)."""
    img = cached_layer(stage, layout, snow, options)
    if img is None:
        if WINDOW_FIRST and box != (0, 0, *layout.static_size):
            stats.windows += 1
            placed: list[MapLabel] = []
            part = draw_static(stage, layout.frame, layout.static_size, snow, options, layout.detail, box, placed)
            _keep_labels(_key(stage, layout, snow, options), placed)
            return to_palette(part, layer_palette(stage, layout, snow, options))
        img = _draw_and_keep(stage, layout, snow, options)
    return img if box == (0, 0, img.width, img.height) else img.crop(box)


def warm_layer(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> str:
    """Make sure the layer is kept (in this process's memory or on disk), drawing it if it is in
    neither; says which: "memory", "disk" or "drawn"."""
    if _cache.get(_key(stage, layout, snow, options)) is not None:
        return "memory"
    if disk_cache.exists(_name(stage, layout, snow, options)):
        return "disk"
    _draw_and_keep(stage, layout, snow, options)
    return "drawn"


def _variant(layout: MapLayout, options: RenderOptions) -> tuple:
    """What the layer depends on besides the stage and the weather (part of its file name)."""
    words = sorted(labels(options.lang).items())
    return (layout.static_size, layout.frame, layout.detail, options.supersample, options.scale, options.lang, words)


#: the layer's colours are chosen on the layer drawn at this scale (a quarter of the pixels)
PALETTE_SAMPLE = 0.5
_palettes: ByteLRU[Image.Image] = ByteLRU(1024 * 1024)


def layer_palette(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> Image.Image:
    """A 1×1 palette image holding the layer's ≤ 256 colours: the fast octree of the layer drawn
    at half scale (same shapes, colours and antialiasing; ~15 ms for the longest stage). A
    function of the stage and options alone, so a part of the layer drawn alone maps to the very
    pixels of the whole layer (mean error of the mapping ~0.3–0.5/255 per channel)."""
    key = _key(stage, layout, snow, options)
    found = _palettes.get(key)
    if found is None:
        w, h = layout.static_size
        size = (max(1, round(w * PALETTE_SAMPLE)), max(1, round(h * PALETTE_SAMPLE)))
        sample = draw_static(stage, layout.frame.scaled(PALETTE_SAMPLE), size, snow, options, layout.detail)
        chosen = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        found = Image.new("P", (1, 1))
        found.putpalette(chosen.getpalette() or [])
        _palettes.put(key, found, 1024)
    return found


def to_palette(img: Image.Image, palette: Image.Image) -> Image.Image:
    """`img` in the colours of `palette` (each pixel its nearest colour, no dithering: flat
    areas stay flat, and a pixel's index depends on its colour alone)."""
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def draw_static(stage: Stage, frame: Frame, size: tuple[int, int], snow: frozenset[str],
                options: RenderOptions, detail: bool = True,
                box: tuple[int, int, int, int] | None = None, placed: list[MapLabel] | None = None) -> Image.Image:
    """Draw the static layer of `stage` at `size` (supersampled, then reduced), or only its part
    `box` (RGB), with the very pixels of that part of the whole layer.

    Pillow rasterises a shape cut by the canvas's top or left edge differently from the same shape
    drawn whole (its scanlines start at the edge), so a part is drawn on a canvas reaching further
    up and left by the largest shape's size (`_Painter.reach`), where no shape that shows in the
    part is cut, then cropped; shapes cut by the right and bottom edges are drawn the same."""
    k = options.supersample
    whole = (size[0] * k, size[1] * k)
    painter = _Painter(stage, frame.scaled(k), Image.new("RGB", (1, 1)), snow, options, k, detail, size=whole)
    if box is None or box == (0, 0, size[0], size[1]):
        big = Image.new("RGB", whole, P.PAPER)
        painter.attach(big, (0, 0))
        painter.paint()
        if placed is not None:  # the labels as placed and the K tags, in pixels of the layer (`label_boxes`)
            placed.extend(_unscaled(painter.placed_labels() + painter.shortcut_tags(), k))
        return big if k == 1 else big.reduce(k)
    x0, y0, x1, y1 = (v * k for v in box)
    reach = painter.reach()
    cx, cy = max(0, x0 - reach), max(0, y0 - reach)
    big = Image.new("RGB", (x1 - cx, y1 - cy), P.PAPER)
    painter.attach(big, (cx, cy))
    painter.paint()
    if placed is not None:  # placed over the whole layer, even when a part is drawn
        placed.extend(_unscaled(painter.placed_labels() + painter.shortcut_tags(), k))
    part = (x0 - cx, y0 - cy, x1 - cx, y1 - cy)
    return big.crop(part) if k == 1 else big.reduce(k, box=part)  # the part's pixels alone, reduced


#: the labels of a static layer, by the layer's key (a few hundred bytes each), at most LABELS_KEPT
#: layers' (then forgotten at once: placed again when asked, from the layer's stage)
LABELS_KEPT = 512
_labels: dict[tuple, list[MapLabel]] = {}


def label_boxes(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> list[MapLabel]:
    """The labels of the static layer (START, FINISH, splits, zone names) as they are placed, and
    the shortcuts' K tags, in pixels of the layer: what the tests check for fit (in the layer, none
    over START or FINISH), and what a camera window draws again inside its frame when it cuts one
    (`bot.render.rallyman.camera`). Placed once per layer."""
    key = _key(stage, layout, snow, options)
    found = _labels.get(key)
    if found is None:
        found = _place_labels(stage, layout, snow, options)
        _keep_labels(key, found)
    return found


def _place_labels(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> list[MapLabel]:
    k = options.supersample
    painter = _Painter(stage, layout.frame.scaled(k), Image.new("RGB", (1, 1)), snow, options, k, layout.detail,
                       size=(layout.static_size[0] * k, layout.static_size[1] * k))
    return _unscaled(painter.placed_labels() + painter.shortcut_tags(), k)


def _labels_json(labels: list[MapLabel]) -> str:
    """The labels of a layer as JSON text (kept in its PNG on disk)."""
    return json.dumps([[x.text, list(x.box), list(x.at), list(x.bg), list(x.fg), x.size] for x in labels],
                      ensure_ascii=False, separators=(",", ":"))


def _labels_of(text: object) -> list[MapLabel] | None:
    """Back from `_labels_json`; None for a layer stored without them (or anything unreadable)."""
    if not isinstance(text, str):
        return None
    try:
        return [MapLabel(str(t), (b[0], b[1], b[2], b[3]), (a[0], a[1]), (bg[0], bg[1], bg[2]), (fg[0], fg[1], fg[2]),
                         float(size)) for t, b, a, bg, fg, size in json.loads(text)]
    except (ValueError, TypeError, IndexError):
        return None


def _unscaled(labels: list[MapLabel], k: int) -> list[MapLabel]:
    """Labels placed on the supersampled canvas, their boxes in pixels of the layer."""
    return [MapLabel(label.text, (label.box[0] / k, label.box[1] / k, label.box[2] / k, label.box[3] / k),
                     label.at, label.bg, label.fg, label.size / k) for label in labels]


@dataclass(frozen=True)
class MapLabel:
    """A label's text, its pill's box (x0, y0, x1, y1) and centre, and its colours."""

    text: str
    box: tuple[float, float, float, float]
    at: tuple[float, float]
    bg: P.RGB
    fg: P.RGB
    size: float = 0.0  # its font's size in pixels of the layer; 0: the map labels' font (a shortcut's K tag: its own)


_reaches: dict[tuple, tuple[float, ...]] = {}


def space_reach(stage: Stage) -> tuple[float, ...]:
    """For each space, in space units: how far its outline and terrain strips reach from its
    centre (computed once per stage; a turned and scaled frame keeps the proportions)."""
    key = stage_fingerprint(stage)
    found = _reaches.get(key)
    if found is None:
        if len(_reaches) >= 64:
            _reaches.clear()
        found = _reaches[key] = tuple(
            max(math.hypot(x - sh.centre[0], y - sh.centre[1])
                for x, y in (*sh.polygon, *(p for st in sh.strips for p in st.polygon)))
            for sh in stage_shapes(stage).spaces)
    return found


class _Moved:
    """`frame`'s pixels less a whole-pixel `offset`, subtracted after `frame.px` (exactly, so a
    part drawn alone gets the very coordinates of the whole layer, moved)."""

    def __init__(self, frame: Frame, offset: tuple[int, int]) -> None:
        self.frame, self.ox, self.oy = frame, offset[0], offset[1]
        self.ppu = frame.ppu

    def px(self, p: tuple[float, float]) -> tuple[float, float]:
        x, y = self.frame.px(p)
        return x - self.ox, y - self.oy

    def poly(self, pts) -> list[tuple[float, float]]:
        return [self.px(p) for p in pts]

    def heading(self, h: float) -> float:
        return self.frame.heading(h)


class _Painter:
    def __init__(self, stage: Stage, frame: Frame, img: Image.Image, snow: frozenset[str],
                 options: RenderOptions, k: int, detail: bool, size: tuple[int, int] | None = None,
                 offset: tuple[int, int] = (0, 0)) -> None:
        # `frame` places labels in the whole layer; `self.f` draws on `img`, the part at `offset`
        self.stage, self.snow, self.k = stage, snow, k
        self.whole = frame
        self.detail, self.lang = detail, options.lang
        self.size = size or img.size
        self.attach(img, offset)
        self.shapes: StageShapes = stage_shapes(stage)
        self.u = frame.ppu  # pixels per space unit at this (supersampled) size
        s = options.scale * k
        self.label_font = font(round(MIN_FONT_PX * s), bold=True)
        self.note_font = font(round(max(MIN_FONT_PX * s, min(0.4 * self.u, 32 * s))), bold=True)
        self.line_w = max(1, round(0.045 * self.u))
        centres = [self.whole.px(sh.centre) for sh in self.shapes.spaces]
        for line, sgn in ((self.shapes.start, -1.0), (self.shapes.finish, 1.0)):  # room for cars there
            for along in (0.5, 1.2, 1.9):
                for side in (-0.3, 0.3):
                    centres.append(self.whole.px(add(add(line.mid, unit(line.heading), sgn * along),
                                                 left_of(line.heading), side)))
        self.placer = LabelPlacer(centres, 0.55 * self.u, size or img.size)
        self._labels: list[MapLabel] | None = None
        self._reach: tuple[float, ...] | None = None

    def attach(self, img: Image.Image, offset: tuple[int, int]) -> None:
        """Draw on `img`, the part of the whole layer whose top-left corner is at `offset`."""
        self.img, self.offset = img, offset
        self.f: Frame | _Moved = _Moved(self.whole, offset) if offset != (0, 0) else self.whole
        self.draw = ImageDraw.Draw(img)
        #: a part of the layer (a board's window): shapes wholly off `img` are skipped (`seen`)
        self.part = offset != (0, 0) or img.size != self.size

    def seen(self, x0: float, y0: float, x1: float, y1: float, margin: float) -> bool:
        """Whether a shape within the box (x0, y0, x1, y1) grown by `margin` (pixels of `img`) may
        touch `img`: always, when the whole layer is drawn. A shape wholly off a part leaves every
        pixel of it as it was, so skipping it keeps the part's pixels those of the whole layer
        (and a window drawn first costs what it shows, not the whole stage: issue 28)."""
        return not self.part or (x1 + margin >= 0 and y1 + margin >= 0 and x0 - margin <= self.img.width
                                 and y0 - margin <= self.img.height)

    def seen_space(self, sh: SpaceShape) -> bool:
        """Whether a space's outline or strips may touch `img` (skipped before their points are
        turned into pixels: most of a long stage lies off a board's window)."""
        if not self.part:
            return True
        if self._reach is None:
            self._reach = space_reach(self.stage)
        c = self.f.px(sh.centre)
        return self.seen(c[0], c[1], c[0], c[1], self._reach[sh.id] * self.u + 2 * self.line_w + 8)

    def seen_points(self, pts: list[tuple[float, float]], margin: float) -> bool:
        if not self.part:
            return True
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return self.seen(min(xs), min(ys), max(xs), max(ys), margin)

    def seen_pieces(self, pts: list[tuple[float, float]], margin: float) -> list[list[tuple[float, float]]]:
        """The runs of consecutive segments of the polyline `pts` that may touch `img` (`margin`: at
        least half the line's width), as polylines. Pillow draws a wide line segment by segment, so
        the pieces draw the very pixels `pts` draws on `img` (a line drawn with joints would lose
        only joints whose dropped segment, grown by `margin`, holds them: off `img` too)."""
        if not self.part:
            return [pts]
        pieces: list[list[tuple[float, float]]] = []
        current: list[tuple[float, float]] = []
        for a, b in zip(pts, pts[1:]):
            if self.seen(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]), margin):
                if not current:
                    current = [a]
                current.append(b)
            elif current:
                pieces.append(current)
                current = []
        if current:
            pieces.append(current)
        return pieces

    def reach(self) -> int:
        """Pixels (a multiple of k) that bound the width and height of every shape drawn: the
        zone tint's widest segment (its band is 4.4 spaces wide), the label pills, and 4.5 spaces
        for the rest (spaces, strips, bumps, zone seams and notes are smaller)."""
        f = self.whole
        w = round(4.4 * self.u)
        pts = [f.px(self.shapes.start.mid)]
        pts += [f.px((s.x, s.y)) for s in sorted(self.stage.spaces, key=lambda s: s.progress)
                if s.kind not in (SpaceKind.SKID, SpaceKind.SHORTCUT)]
        pts.append(f.px(self.shapes.finish.mid))
        longest = max((abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(pts, pts[1:])), default=0.0)
        pills = [max(label.box[2] - label.box[0], label.box[3] - label.box[1]) for label in self.placed_labels()]
        reach = max(longest + w, 4.5 * self.u, *pills) + 4 * self.k
        return -(-math.ceil(reach) // self.k) * self.k

    def snowy(self, zone: str) -> bool:
        return zone in self.snow

    def paint(self) -> None:
        self.zone_tints()
        self.strips()
        self.road()
        self.bumps()
        self.zone_borders()
        self.lines()
        if self.detail:
            self.notes()
        self.labels()

    # -- layers ----------------------------------------------------------------------------------
    def zone_tints(self) -> None:
        """A broad band of the zone's colour under the road; snow-side zones are whitish."""
        order = {z: i for i, z in enumerate(self.stage.zone_order)}
        w = round(4.4 * self.u)
        spaces = sorted(self.stage.spaces, key=lambda s: s.progress)
        runs: list[tuple[str, list]] = []
        for s in spaces:
            if s.kind in (SpaceKind.SKID, SpaceKind.SHORTCUT):
                continue
            p = self.f.px((s.x, s.y))
            if runs and runs[-1][0] == s.zone:
                runs[-1][1].append(p)
            else:
                if runs:
                    runs[-1][1].append(p)
                runs.append((s.zone, [p]))
        runs[0][1].insert(0, self.f.px(self.shapes.start.mid))
        runs[-1][1].append(self.f.px(self.shapes.finish.mid))
        margin = w / 2 + 4  # a segment's half width and more
        for zone, pts in runs:
            colour = P.SNOW_TINT if self.snowy(zone) else P.ZONE_TINTS[order.get(zone, 0) % 2]
            for piece in self.seen_pieces(pts, margin):
                # no `joint="curve"`: each joint's pie (radius w/2 - 1) and gap line lie inside the
                # disc drawn below at its point, in the same colour (the same pixels without them,
                # checked on every shipped stage; ~250 pies fewer per layer)
                self.draw.line(piece, fill=colour, width=w)
            for p in pts:  # round caps and joints; also hides hairline seams between wide segments
                if self.seen(p[0], p[1], p[0], p[1], margin):
                    self.draw.ellipse((p[0] - w / 2, p[1] - w / 2, p[0] + w / 2, p[1] + w / 2), fill=colour)

    def strips(self) -> None:
        """Terrain beside the road, each with a small mark so colour is not the only cue."""
        marks = []
        for sh in self.shapes.spaces:
            if not self.seen_space(sh):
                continue
            snowy = self.snowy(self.stage.spaces[sh.id].zone)
            for st in sh.strips:
                colour = P.TERRAIN[st.terrain]
                if snowy:
                    colour = P.mix(colour, P.WHITE, P.SNOW_BLEACH)
                pts = self.f.poly(st.polygon)
                if not self.seen_points(pts, 4):
                    continue  # wholly off this part of the layer: its mark (inside it) too
                self.draw.polygon(pts, fill=colour)
                centroid = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
                marks.append((st.terrain, colour, centroid))
        if self.detail:
            r = 0.13 * self.u
            for terrain, colour, c in marks:
                if self.seen(c[0], c[1], c[0], c[1], 2 * r + 4):  # a mark stays within 1.2 r of its centre
                    terrain_mark(self.draw, terrain, colour, c, r)

    def road(self) -> None:
        for sh in self.shapes.spaces:
            if not self.seen_space(sh):
                continue
            space = self.stage.spaces[sh.id]
            snow_surface = space.surface(self.snowy(space.zone)).value == "snow"
            if sh.kind is SpaceKind.SHORTCUT:
                fill, line = P.SHORTCUT, P.mix(P.SHORTCUT, P.WHITE, 0.5)
            elif snow_surface:
                fill, line = P.SNOW_ROAD, P.SNOW_LINE
            else:
                fill, line = P.ASPHALT, P.ASPHALT_LINE
            outlined_polygon(self.img, self.f.poly(sh.polygon), fill, line, self.line_w)

    def bumps(self) -> None:
        """A yellow speed-bump band across the bump space (RULES A10); its note is drawn with the notes."""
        for sh in self.shapes.spaces:
            if sh.kind is not SpaceKind.BUMP:
                continue
            d, n = unit(sh.heading), left_of(sh.heading)
            hw, depth = sh.half_width * 0.96, 0.17
            band = [add(add(sh.centre, n, hw), d, -depth), add(add(sh.centre, n, hw), d, depth),
                    add(add(sh.centre, n, -hw), d, depth), add(add(sh.centre, n, -hw), d, -depth)]
            outlined_polygon(self.img, self.f.poly(band), P.BUMP, P.ROAD_EDGE, self.line_w)
            for i in range(-3, 4):  # black chevron stripes, like a painted bump
                a = add(add(sh.centre, n, i * hw / 3.5 + 0.08), d, -depth)
                b = add(add(sh.centre, n, i * hw / 3.5 - 0.08), d, depth)
                self.draw.line([self.f.px(a), self.f.px(b)], fill=P.ROAD_EDGE, width=max(1, round(0.06 * self.u)))

    def zone_borders(self) -> None:
        """Where a new zone board begins (RULES A1): a seam across road and verges, like two boards meeting."""
        prev = None
        for s in sorted(self.stage.spaces, key=lambda s: s.progress):
            if s.kind in (SpaceKind.SKID, SpaceKind.SHORTCUT):
                continue
            if prev is not None and s.zone != prev:
                sh = self.shapes.shape(s.id)
                a, b = extend(self.f.px(sh.entry[0]), self.f.px(sh.entry[1]), 1.2 * self.u)
                self.draw.line([a, b], fill=P.ROAD_EDGE, width=max(2, round(0.07 * self.u)))
            prev = s.zone

    def lines(self) -> None:
        """Start (red), finish (chequered on yellow), split points (dashed purple)."""
        w = max(2, round(0.16 * self.u))
        st = self.shapes.start
        self.draw.line([self.f.px(st.a), self.f.px(st.b)], fill=P.START_RED, width=w)
        fi = self.shapes.finish
        self._chequer(fi.a, fi.b, fi.heading)
        for sp in self.shapes.splits:
            dashed(self.draw, self.f.px(sp.a), self.f.px(sp.b), P.SPLIT, max(2, round(0.1 * self.u)), 0.16 * self.u)

    def _chequer(self, a, b, heading) -> None:
        d = unit(heading)
        n_sq = 8
        depth = 0.22
        for row in range(2):
            for i in range(n_sq):
                t0, t1 = i / n_sq, (i + 1) / n_sq
                p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
                p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
                o0, o1 = (row - 1) * depth, row * depth
                quad = [add(p0, d, o0), add(p1, d, o0), add(p1, d, o1), add(p0, d, o1)]
                colour = P.BLACK if (i + row) % 2 else P.WHITE
                self.draw.polygon(self.f.poly(quad), fill=colour)

    def notes(self) -> None:
        nf = self.note_font
        r = 0.26 * self.u
        shortcuts = []
        for sh in self.shapes.spaces:
            space = self.stage.spaces[sh.id]
            if space.note is None:
                continue
            c = self.f.px(sh.centre)
            text = str(space.note)
            if not self.seen(c[0], c[1], c[0], c[1], 2 * r + nf.size * (len(text) + 3) + 8):
                continue  # its disc, square or K tag (text and padding) lies wholly off this part
            if sh.kind is SpaceKind.INTERIOR:
                self.draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=P.WHITE, outline=P.ROAD_EDGE,
                                  width=self.line_w)
                text_centered(self.draw, c, text, nf, P.BLACK, cache=False)
            elif sh.kind is SpaceKind.SKID:
                self.draw.rounded_rectangle((c[0] - r, c[1] - r, c[0] + r, c[1] + r), radius=r * 0.3,
                                            outline=P.WHITE, width=max(2, self.line_w))
                text_centered(self.draw, c, text, nf, P.WHITE, cache=False)
            elif sh.kind is SpaceKind.SHORTCUT:
                shortcuts.append((c, f"K{text}"))
            elif sh.kind is SpaceKind.BUMP:
                self.draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=P.BUMP, outline=P.BLACK,
                                  width=self.line_w)
                text_centered(self.draw, c, text, nf, P.BLACK, cache=False)
        for c, text in shortcuts:  # last, on a brown tag: tight hairpins squeeze the shortcut area
            pill(self.draw, c, text, nf, P.SHORTCUT, P.WHITE, 0.18 * nf.size, outline=P.WHITE, outline_w=self.k,
                 cache=False)

    def labels(self) -> None:
        """START, FINISH, SPLIT and zone names, each in a pill beside the road."""
        lf, pad = self.label_font, 0.4 * self.label_font.size
        ox, oy = self.offset
        for label in self.placed_labels():
            x0, y0, x1, y1 = label.box
            if not self.seen(x0 - ox, y0 - oy, x1 - ox, y1 - oy, lf.size + 2 * self.k + 8):
                continue  # its pill (box, outline and text) lies wholly off this part
            pill(self.draw, (label.at[0] - ox, label.at[1] - oy), label.text, lf, label.bg, label.fg, pad,
                 outline=P.ROAD_EDGE, outline_w=max(1, self.k), cache=False)

    def shortcut_tags(self) -> list[MapLabel]:
        """The K tags of the shortcut spaces as `notes` draws them (text, pill box, centre, colours,
        font size), in pixels of the whole layer: a camera window that cuts one draws it again."""
        nf, tags = self.note_font, []
        for sh in self.shapes.spaces:
            space = self.stage.spaces[sh.id]
            if space.note is None or sh.kind is not SpaceKind.SHORTCUT:
                continue
            c = self.whole.px(sh.centre)
            text = f"K{space.note}"
            w, h = pill_size(text, nf, 0.18 * nf.size)
            tags.append(MapLabel(text, (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2), c, P.SHORTCUT,
                                 P.WHITE, float(nf.size)))
        return tags

    def placed_labels(self) -> list[MapLabel]:
        """Where each label goes (its text and pill box); the words are in the image's language.
        Placed once (the placer remembers what it placed)."""
        if self._labels is None:
            self._labels = self._place_labels()
        return self._labels

    def _place_labels(self) -> list[MapLabel]:
        lf, pad = self.label_font, 0.4 * self.label_font.size
        dists = tuple(x * self.u for x in (1.25, 1.7, 2.3, 3.0, 3.8, 4.8))  # far ones: long words in tight spots
        st, fi = self.shapes.start, self.shapes.finish
        items = [
            (self.whole.px(add(st.mid, unit(st.heading), -0.6)), st.heading, word("start", self.lang), P.START_RED,
             P.WHITE),
            (self.whole.px(add(fi.mid, unit(fi.heading), 0.6)), fi.heading, word("finish_line", self.lang),
             P.FINISH_YELLOW, P.BLACK),
        ]
        for i, sp in enumerate(self.shapes.splits, 1):
            name = word("split", self.lang) if len(self.shapes.splits) == 1 else word("split_n", self.lang, n=i)
            items.append((self.whole.px(sp.mid), sp.heading, name, P.SPLIT, P.WHITE))
        if self.detail or len(self.stage.zone_order) > 1:
            seen: set[str] = set()
            for s in sorted(self.stage.spaces, key=lambda s: s.progress):
                if s.zone in seen:
                    continue
                seen.add(s.zone)
                zone = self.stage.zones[s.zone]
                text = f"{zone.letter} · {zone.name}" + (" ❄" if self.snowy(s.zone) else "")
                items.append((self.whole.px((s.x, s.y)), s.heading, text, P.WHITE, P.PANEL_TEXT))
        out = []
        for anchor, heading, text, bg, fg in items:
            w, h = pill_size(text, lf, pad)
            at = self.placer.place(anchor, self.whole.heading(heading), (w, h), dists)
            out.append(MapLabel(text, (at[0] - w / 2, at[1] - h / 2, at[0] + w / 2, at[1] + h / 2), at, bg, fg))
        return out
