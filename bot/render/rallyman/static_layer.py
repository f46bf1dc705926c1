"""The part of a board that never changes during a rally, drawn once per stage and weather.

Drawn at `options.supersample`× and reduced with a box filter (`Image.reduce`: every output pixel
the mean of k×k drawn ones, which antialiases every edge; LANCZOS cost 5–10× more on a 4000 px
canvas for no visible gain), then turned into a palette image (mode P, ≤ 256 colours chosen by
`layer_palette`, no dithering: mean error ~0.5/255 per channel, a quarter of the memory of RGB).
What it shows is painted by `layer_painter.Painter` (zone tints, terrain strips, spaces, notes,
bumps, splits, start and finish, zone names); its words (START, FINISH, SPLIT) are in
`options.lang`, which is part of the key. This module holds where a layer comes from and how it
is drawn: whole (in bands, `draw_layer`), a part alone (`static_window`), its colours.

Two caches: in memory (`CACHE_BYTES`, per process: each render worker has its own), least
recently used first out; and on disk by stage hash and weather (bot.render.disk_cache), so a
restart or another worker reads the layer (~15 ms) instead of drawing it again. `warm_layer`
draws a layer ahead of its first board.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
from typing import Any

from PIL import Image

from bot.engine.rallyman.stages.model import Stage
from bot.render import disk_cache
from bot.render import palette as P
from bot.render.cache import ByteLRU, image_bytes
from bot.render.drawing import text_scale
from bot.render.frame import Frame
from bot.render.layer_cache import LayerStats, kept_layer
from bot.render.options import RenderOptions
from bot.render.rallyman.geometry import stage_fingerprint
from bot.render.rallyman.layer_painter import MapLabel, Painter
from bot.render.rallyman.layout import MapLayout
from bot.render.words import labels

#: memory kept for static layers in one process (palette images, 1 byte a pixel: the longest
#: shipped stage is ~4 MB, a generated 30-space stage ~2 MB); least recently used go first. The
#: default: a drawing process's render plan sets its share of the plan's budget (bot/sizing.py)
CACHE_BYTES = 64 * 1024 * 1024


_cache: ByteLRU[Image.Image] = ByteLRU(CACHE_BYTES, "classic_static_layers", share=64)
stats = LayerStats()


def cache_clear() -> None:
    """Forget every layer kept in memory (not on disk), and its labels, and zero the counters."""
    _cache.clear()
    _palettes.clear()
    _labels.clear()
    stats.reset()


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

    def labels_kept(img: Image.Image) -> None:
        kept = _labels_of(img.info.get(disk_cache.LABELS_CHUNK))
        if kept is not None:  # what the painter placed, kept with the layer: no second placement
            _keep_labels(key, kept)

    return kept_layer(_cache, stats, key, lambda: _name(stage, layout, snow, options), layout.static_size,
                      labels_kept)


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
#: canvas took ~64 MB at once, the peak of a render worker's memory; 8 MB: +10 MB at the
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
    pixels; the shapes wholly off it are skipped, `Painter.seen`: ~17 ms for a window of
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
    up and left by the largest shape's size (`Painter.reach`), where no shape that shows in the
    part is cut, then cropped; shapes cut by the right and bottom edges are drawn the same."""
    k = options.supersample
    whole = (size[0] * k, size[1] * k)
    painter = Painter(stage, frame.scaled(k), Image.new("RGB", (1, 1)), snow, options, k, detail, size=whole)
    if box is None or box == (0, 0, size[0], size[1]):
        big = Image.new("RGB", whole, P.PAPER)
        painter.attach(big, (0, 0))
        with text_scale(k):
            painter.paint()
        if placed is not None:  # the labels as placed and the K tags, in pixels of the layer (`label_boxes`)
            placed.extend(_unscaled(painter.placed_labels() + painter.shortcut_tags(), k))
        return big if k == 1 else big.reduce(k)
    x0, y0, x1, y1 = (v * k for v in box)
    reach = painter.reach()
    cx, cy = max(0, x0 - reach), max(0, y0 - reach)
    big = Image.new("RGB", (x1 - cx, y1 - cy), P.PAPER)
    painter.attach(big, (cx, cy))
    with text_scale(k):
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
    painter = Painter(stage, layout.frame.scaled(k), Image.new("RGB", (1, 1)), snow, options, k, layout.detail,
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
