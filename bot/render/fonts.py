"""The shipped fonts (DejaVu Sans regular and bold, see fonts/LICENSE-DejaVu.txt).

Pillow's built-in bitmap font has no é, ü, ß or Ø, so names would turn into boxes; DejaVu Sans
covers Latin, Greek, Cyrillic and the few symbols the images use (⚠ ✓). Fonts are loaded once
per size.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from bot.render.drawing import length

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
#: smallest text on a 1080 px wide image: still readable once a phone shrinks the image
MIN_FONT_PX = 22
#: the width a phone shows a picture at in Discord (a 412 px screen less the margins), and the
#: smallest text readable there
PHONE_WIDTH, PHONE_TEXT_PX = 380, 11
#: smallest text of a board, a preview and the header band at the 1080 px design width:
#: `PHONE_TEXT_PX` once a phone shows the picture `PHONE_WIDTH` wide (a board is read on a phone
#: during play; a results card or a league table keeps `MIN_FONT_PX`)
BOARD_FONT_PX = math.ceil(PHONE_TEXT_PX * 1080 / PHONE_WIDTH)


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold if asked) at `size` pixels."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(6, int(size)))


def fit_text(text: str, f: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text`, shortened with an ellipsis until it fits in `max_width` pixels."""
    if length(f, text) <= max_width:
        return text
    while text and length(f, text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def fitting_font(text: str, size: int, min_size: int, max_width: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The largest font between `min_size` and `size` in which `text` fits `max_width`."""
    for s in range(size, min_size - 1, -1):
        f = font(s, bold)
        if length(f, text) <= max_width:
            return f
    return font(min_size, bold)
