"""A text of an image with the cell it must stay in (board header and table, results image).

The drawing code places every word and name as a `TextBox`, then draws the boxes; tests take the
same boxes and check that each text's ink stays inside its cell, in every language. `fit_box` fits
a text to its cell the same way everywhere: the font shrinks step by step down to `min_size` (never
below the readable MIN_FONT_PX unless asked), then the text is cut with an ellipsis, so a long German
word is never clipped and never runs into the next column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PIL import ImageDraw, ImageFont

from bot.render.drawing import draw_text, length
from bot.render.fonts import fit_text, font
from bot.render.palette import RGB

Box = tuple[float, float, float, float]
Align = Literal["l", "c", "r"]


@dataclass(frozen=True)
class TextBox:
    """`text` as drawn (after fitting): font size and weight, anchor point, and its `cell`."""

    text: str
    size: int
    bold: bool
    xy: tuple[float, float]
    anchor: str
    cell: Box
    ink: RGB
    what: str = ""  # what the text is ("table head gear", "row 2 name" ...), for messages

    @property
    def font(self) -> ImageFont.FreeTypeFont:
        return font(self.size, self.bold)

    def ink_box(self) -> Box:
        """Where the text's pixels land (Pillow's box of the glyphs, at the anchor point)."""
        left, top, right, bottom = self.font.getbbox(self.text, anchor=self.anchor)
        return self.xy[0] + left, self.xy[1] + top, self.xy[0] + right, self.xy[1] + bottom

    def inside(self, slack: float = 1.0) -> bool:
        """The ink box lies within the cell (`slack` pixels of antialiasing allowed)."""
        if not self.text:
            return True
        x0, y0, x1, y1 = self.cell
        a, b, c, d = self.ink_box()
        return x0 - slack <= a and c <= x1 + slack and y0 - slack <= b and d <= y1 + slack

    def draw(self, d: ImageDraw.ImageDraw) -> None:
        if self.text:
            draw_text(d, self.xy, self.text, self.font, self.ink, self.anchor)


def fitted_size(text: str, size: int, min_size: int, room: float, bold: bool) -> int:
    """The largest size from `size` down to `min_size` at which `text` is at most `room` wide."""
    for s in range(size, min(size, min_size) - 1, -1):
        if length(font(s, bold), text) <= room:
            return s
    return min(size, min_size)


def fit_box(text: str, cell: Box, size: int, ink: RGB, *, align: Align = "l", bold: bool = False,
            min_size: int | None = None, pad: float = 0, top: float | None = None, what: str = "") -> TextBox:
    """`text` in `cell`: aligned left, centred or right (`pad` from the edges), vertically centred or,
    with `top`, hanging from that y; shrunk down to `min_size` (default: no shrinking) and then cut
    with "…" until it is at most the cell's width less the padding."""
    x0, y0, x1, y1 = cell
    room = max(0.0, x1 - x0 - 2 * pad)
    chosen = fitted_size(text, size, size if min_size is None else min_size, room, bold)
    f = font(chosen, bold)
    if length(f, text) > room:
        text = fit_text(text, f, room)
    vertical = "a" if top is not None else "m"
    y = top if top is not None else (y0 + y1) / 2
    if align == "r":
        xy, anchor = (x1 - pad, y), "r" + vertical
    elif align == "c":
        xy, anchor = ((x0 + x1) / 2, y), "m" + vertical
    else:
        xy, anchor = (x0 + pad, y), "l" + vertical
    return TextBox(text, chosen, bold, xy, anchor, cell, ink, what)
