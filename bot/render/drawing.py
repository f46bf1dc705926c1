"""Small drawing helpers shared by the static layer, the overlay and the panels.

Text is most of a board's drawing time (~60 texts, each rasterised by FreeType), and a rally's
boards print the same names, headings and numbers turn after turn: `draw_text` keeps each text's
glyph mask (per font, text, anchor and sub-pixel start, so the pixels are exactly those of
`ImageDraw.text`) in a cache bounded in bytes (`TEXT_CACHE_BYTES`, per process) from the second
time it draws a text (most texts met once, such as a turn's status line, are drawn directly), and
`length` keeps text widths.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bot.render.cache import ByteLRU
from bot.render.palette import RGB

Pt = tuple[float, float]

#: memory kept for rendered text masks in one process (a board's ~60 texts take ~150 KB)
TEXT_CACHE_BYTES = 4 * 1024 * 1024
_masks: ByteLRU[tuple[Any, tuple[int, int]]] = ByteLRU(TEXT_CACHE_BYTES, "text_masks", share=4)


@lru_cache(maxsize=16384)
def length(f: ImageFont.FreeTypeFont, text: str) -> float:
    """`f.getlength(text)` of the text as drawn (`drawable`), remembered (fonts are shared objects,
    see bot.render.fonts.font)."""
    return f.getlength(drawable(f, text))


#: A code point no font has: its mask is the font's "missing glyph" box.
_NO_GLYPH = "\U0010fffd"


@lru_cache(maxsize=4096)
def _has_glyph(path: str, f: ImageFont.FreeTypeFont, ch: str) -> bool:
    """Does the font file draw `ch` (rather than its missing-glyph box)? Compared by mask with a
    code point no font has; format characters (zero-width joiners, variation selectors) never draw."""
    if unicodedata.category(ch) == "Cf" or 0xFE00 <= ord(ch) <= 0xFE0F:
        return False

    def ink(text: str) -> bytes:
        side = int(f.size * 3)
        mask = Image.new("L", (side, side), 0)
        ImageDraw.Draw(mask).text((f.size, f.size), text, font=f, fill=255)
        return mask.tobytes()

    return ink(ch) != ink(_NO_GLYPH)


def drawable(f: ImageFont.FreeTypeFont, text: str) -> str:
    """`text` without the characters the font cannot draw (a 🤖 or other emoji of a Discord name
    would be a box): names stay readable, their letters intact."""
    if text.isascii():
        return text
    kept = "".join(ch for ch in text if ord(ch) < 0x250 or _has_glyph(str(f.path), f, ch))
    return " ".join(kept.split()) if kept != text else text


def _mask(f: ImageFont.FreeTypeFont, text: str, anchor: str, start: tuple[float, float],
          stroke_width: float, cache: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The glyph mask of `text` (with its stroke, when `stroke_width`) as an "L" image, and where
    its corner lies from the anchor point's whole pixel. Drawn by `ImageDraw.text` itself, at
    the anchor point's sub-pixel `start`, on a black image with a margin round the font's box of
    the text, so the mask is the very one `ImageDraw.text` blends onto a canvas."""
    key = (f.path, f.size, text, anchor, start, stroke_width)
    found = _masks.get(key) if cache else None
    if found is None:
        left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=stroke_width)
        # a sub-pixel start moves ink < 1 px; the corner is never right of or below the anchor, so the
        # mask's text starts at a point >= 0 with the same fraction (`ImageDraw.text` places a
        # negative start differently: a glyph's top or left row could be lost)
        x0, y0 = min(0, math.floor(left) - 2), min(0, math.floor(top) - 2)
        size = (max(1, math.ceil(right) + 3 - x0), max(1, math.ceil(bottom) + 3 - y0))
        mask = Image.new("L", size, 0)
        ImageDraw.Draw(mask).text((start[0] - x0, start[1] - y0), text, font=f, fill=255, anchor=anchor,
                                  stroke_width=stroke_width, stroke_fill=255 if stroke_width else None)
        found = (mask, (x0, y0))
        if cache:
            _masks.put(key, found, size[0] * size[1] + 200)
    return found


@dataclass(frozen=True)
class DrawnText:
    """A text `draw_text` drew: the text as drawn, its font size and its anchor point, both in
    pixels of the finished picture (a supersampled layer's divided by its factor, `text_scale`)."""

    text: str
    size: float
    xy: Pt


_drawn: ContextVar[list[DrawnText] | None] = ContextVar("drawn_texts", default=None)
_scale: ContextVar[int] = ContextVar("text_scale", default=1)


@contextmanager
def recording_texts() -> Iterator[list[DrawnText]]:
    """Every text drawn inside the block, in order (what the phone-size tests measure: the smallest
    text of a picture, whatever part of the renderer drew it). Only what is drawn is seen: clear
    the caches of drawn layers first to see theirs."""
    drawn: list[DrawnText] = []
    token = _drawn.set(drawn)
    try:
        yield drawn
    finally:
        _drawn.reset(token)


@contextmanager
def text_scale(k: int) -> Iterator[None]:
    """Texts drawn inside the block are on a canvas `k` times the finished picture's size (a
    supersampled layer, reduced afterwards): `recording_texts` divides their sizes by `k`."""
    token = _scale.set(k)
    try:
        yield
    finally:
        _scale.reset(token)


def draw_text(draw: ImageDraw.ImageDraw, xy: Pt, text: str, f: ImageFont.FreeTypeFont, fill: RGB,
              anchor: str = "la", stroke: RGB | None = None, stroke_width: int = 0, cache: bool = True) -> None:
    """`draw.text(xy, text, font=f, fill=fill, anchor=anchor, stroke...)` for one line of text on
    an RGB or RGBA canvas, the same pixels. From the second time a text is drawn (same font,
    anchor and sub-pixel start) its glyph masks are kept and blended with `ImageDraw.bitmap`;
    the first time, with `cache` False (text drawn once, such as a static layer's) and in any
    other case, `draw.text` draws it."""
    text = drawable(f, text)
    if not text:
        return
    drawn = _drawn.get()
    if drawn is not None:
        k = _scale.get()
        drawn.append(DrawnText(text, f.size / k, (xy[0] / k, xy[1] / k)))
    start = (math.modf(xy[0])[0], math.modf(xy[1])[0])
    if not cache or "\n" in text or draw.fontmode != "L" or not isinstance(f, ImageFont.FreeTypeFont) or \
            _first_sighting((f.path, f.size, text, anchor, start, stroke_width if stroke else 0)):
        # drawn once, or seen for the first time (a turn's status line mostly never comes back):
        # `ImageDraw.text` itself, without making a mask to keep
        draw.text(xy, text, font=f, fill=fill, anchor=anchor, stroke_width=stroke_width if stroke else 0,
                  stroke_fill=stroke)
        return
    x, y = int(xy[0]), int(xy[1])
    if stroke is not None and stroke_width:
        mask, (ox, oy) = _mask(f, text, anchor, start, stroke_width, cache)
        draw.bitmap((x + ox, y + oy), mask, fill=stroke)
        if tuple(fill) == tuple(stroke):  # as `ImageDraw.text`: one colour, the stroke mask covers it
            return
    mask, (ox, oy) = _mask(f, text, anchor, start, 0, cache)
    draw.bitmap((x + ox, y + oy), mask, fill=fill)


#: texts `draw_text` has met (a count, not bytes): a mask is kept from a text's second sighting on
_seen: ByteLRU[bool] = ByteLRU(16384)


def _first_sighting(key: tuple) -> bool:
    """True the first time `key` is met (then remembered), False later (or while its mask is kept)."""
    if _seen.get(key) is not None:
        return False
    _seen.put(key, True, 1)
    return True


def text_centered(draw: ImageDraw.ImageDraw, centre: Pt, text: str, f: ImageFont.FreeTypeFont, fill: RGB,
                  stroke: RGB | None = None, stroke_width: int = 0, cache: bool = True) -> None:
    """`text` centred on `centre` (middle of its ink box, so digits sit right in badges)."""
    draw_text(draw, centre, text, f, fill, "mm", stroke, stroke_width, cache)


def outlined_polygon(img: Image.Image, pts: list[Pt], fill: RGB, outline: RGB, width: int) -> None:
    """`ImageDraw.polygon(pts, fill, outline, width)` drawn on a crop round the polygon: Pillow
    masks a wide outline with an image the size of the whole canvas, which on a supersampled
    static layer (16 Mpx) cost ~0.3 ms per space."""
    if width <= 1 or not pts:
        ImageDraw.Draw(img).polygon(pts, fill=fill, outline=outline, width=width)
        return
    margin = 2 * width + 2
    x0 = max(0, math.floor(min(p[0] for p in pts)) - margin)
    y0 = max(0, math.floor(min(p[1] for p in pts)) - margin)
    x1 = min(img.width, math.ceil(max(p[0] for p in pts)) + margin)
    y1 = min(img.height, math.ceil(max(p[1] for p in pts)) + margin)
    if x0 >= x1 or y0 >= y1:
        return
    part = img.crop((x0, y0, x1, y1))
    ImageDraw.Draw(part).polygon([(x - x0, y - y0) for x, y in pts], fill=fill, outline=outline, width=width)
    img.paste(part, (x0, y0))


def pill(draw: ImageDraw.ImageDraw, centre: Pt, text: str, f: ImageFont.FreeTypeFont, bg: RGB, fg: RGB,
         pad: float, outline: RGB | None = None, outline_w: int = 0,
         cache: bool = True) -> tuple[float, float, float, float]:
    """A rounded label; returns its box."""
    w = length(f, text)
    asc, desc = f.getmetrics()
    h = asc + desc * 0.3
    box = (centre[0] - w / 2 - pad, centre[1] - h / 2 - pad * 0.6,
           centre[0] + w / 2 + pad, centre[1] + h / 2 + pad * 0.6)
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) / 2, fill=bg, outline=outline, width=outline_w)
    text_centered(draw, centre, text, f, fg, cache=cache)
    return box


def pill_size(text: str, f: ImageFont.FreeTypeFont, pad: float) -> tuple[float, float]:
    asc, desc = f.getmetrics()
    return length(f, text) + 2 * pad, asc + desc * 0.3 + 1.2 * pad


def dashed(draw: ImageDraw.ImageDraw, a: Pt, b: Pt, fill: RGB, width: int, dash: float) -> None:
    """A dashed segment from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    if length == 0:
        return
    n = max(1, int(length // dash))
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        draw.line([(a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1)], fill=fill, width=width)


def extend(a, b, by: float):
    """Segment a-b lengthened by `by` pixels at each end."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-6)
    ux, uy = dx / length * by, dy / length * by
    return (a[0] - ux, a[1] - uy), (b[0] + ux, b[1] + uy)

