"""The figures printed on a DIRT stage: speed-limit circles (B8), shortcut limits (B10), jumps (B11).

The static layer draws them all as printed (a jump's bar across the road is the layer's own, its
"Jump 4" badge a map label); a board with "−1" tokens on a tile (B10) draws that
tile's corner circles again over the layer with the effective limit on a pink face and a red "−1"
chip (one per token: "−2" for two), so the lowered limit is what the reader sees. A limit lowered to
0 or below closes the space: its circle shows "✕".
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import ImageDraw

from bot.engine.dirt.stages.model import DirtStage
from bot.render import palette as P
from bot.render.dirt import colours as C
from bot.render.dirt.shapes import Mark, stage_shapes
from bot.render.drawing import draw_text, length
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.frame import Frame
from bot.render.options import RenderOptions

CLOSED = "✕"


def radius(options: RenderOptions, ppu: float) -> float:
    """A limit circle's radius in final pixels: readable text inside, never bigger than a lane."""
    return max(options.px(17), min(0.17 * ppu, options.px(26)))


def text_size(options: RenderOptions, ppu: float) -> int:
    return max(options.px(BOARD_FONT_PX), round(radius(options, ppu) * 1.25))


def lowered(mark: Mark, minus: Mapping[int, int]) -> int:
    """The limit a reader must respect: a corner's limit less the tile's "−1" tokens."""
    return mark.value - (minus.get(mark.tile, 0) if mark.corner else 0)


def draw_marks(d: ImageDraw.ImageDraw, stage: DirtStage, frame: Frame, options: RenderOptions, k: int,
               minus: Mapping[int, int], only_lowered: bool = False) -> None:
    """Every mark (or, `only_lowered`, only the corner circles of tiles with "−1" tokens) through
    `frame` (`k`: the canvas's supersampling)."""
    ppu = frame.ppu / k
    r = radius(options, ppu) * k
    f = font(text_size(options, ppu) * k, bold=True)
    for mark in stage_shapes(stage).marks:
        if only_lowered and not (mark.corner and minus.get(mark.tile)):
            continue
        x, y = frame.px(mark.at)
        if mark.kind == "jump":  # its badge is a map label (bot.render.dirt.labels)
            continue
        value = lowered(mark, minus)
        face = C.LOWERED_FACE if value != mark.value else C.LIMIT_FACE
        if mark.kind == "shortcut":
            d.rounded_rectangle((x - r, y - r, x + r, y + r), radius=r * 0.3, fill=face, outline=C.SHORTCUT,
                                width=max(2, round(r * 0.22)))
        else:
            d.ellipse((x - r, y - r, x + r, y + r), fill=face, outline=C.LIMIT_RING, width=max(2, round(r * 0.22)))
        draw_text(d, (x, y), str(value) if value > 0 else CLOSED, f, P.BLACK, "mm", cache=k == 1)
        if value != mark.value:
            chip = f"−{mark.value - value}"
            cf = font(max(options.px(BOARD_FONT_PX), options.px(22)) * k, bold=True)
            cw, ch = length(cf, chip) + 8 * k, cf.size * 1.15
            cx, cy = x + r * 0.9, y - r * 0.9
            d.rounded_rectangle((cx - cw / 2, cy - ch / 2, cx + cw / 2, cy + ch / 2), radius=ch / 2,
                                fill=C.MINUS_CHIP, outline=P.WHITE, width=max(1, k))
            draw_text(d, (cx, cy), chip, cf, P.WHITE, "mm", cache=k == 1)
