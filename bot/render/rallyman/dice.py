"""Die badges: what was rolled, as spectators know the dice (RULES A6).

Gear dice are black with a white number, white dice are white with the letter the reader's
language gives the white die (`words.die_face`: "W", FR/DE "G"); a ⚠ face gets a red
border and a red warning triangle on its corner so it stands out even in a small image.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import palette as P
from bot.render.drawing import outlined_polygon, text_centered
from bot.render.fonts import font
from bot.render.words import die_face


def die_badge(canvas: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[float, float], face: str, hazard: bool,
              size: float, lang: str) -> None:
    """A die showing `face` ('1'..'5' or 'W'), `size` pixels wide, centred on `centre`; `draw` draws
    on `canvas` (an RGB image); the white die's letter is the one of `lang`."""
    x, y, h = centre[0], centre[1], size / 2
    white = face.upper() == "W"
    bg, fg = (P.WHITE, P.BLACK) if white else (P.BLACK, P.WHITE)
    border = P.HAZARD_RED if hazard else (P.BLACK if white else P.WHITE)
    bw = max(2, round(size * (0.12 if hazard else 0.07)))
    draw.rounded_rectangle((x - h, y - h, x + h, y + h), radius=size * 0.2, fill=bg, outline=border, width=bw)
    text_centered(draw, (x, y), die_face(face, lang), font(round(size * 0.62), bold=True), fg)
    if hazard:
        hazard_triangle(canvas, draw, (x + h * 0.95, y - h * 0.95), size * 0.62)


def hazard_triangle(canvas: Image.Image, draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A red warning triangle with a white "!" (the ⚠ face); `draw` draws on `canvas`, whose wide
    outline is drawn on a crop of it (`outlined_polygon`)."""
    x, y, s = centre[0], centre[1], size
    pts = [(x, y - s * 0.55), (x + s * 0.58, y + s * 0.45), (x - s * 0.58, y + s * 0.45)]
    outlined_polygon(canvas, pts, P.HAZARD_RED, P.WHITE, max(1, round(s * 0.08)))
    # the "!" drawn as a bar and a dot (a symbol, not a text: it is as small as its triangle)
    bar = max(1.0, s * 0.09)
    draw.rectangle((x - bar, y - s * 0.26, x + bar, y + s * 0.17), fill=P.WHITE)
    draw.ellipse((x - bar * 1.1, y + s * 0.25, x + bar * 1.1, y + s * 0.25 + bar * 2.2), fill=P.WHITE)
