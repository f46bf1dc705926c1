"""The mark of a car an AI drives, on the map and in the table of every board: a small robot head
(a white rounded square with two eyes and an antenna) on the car's or its token's corner. A shape,
not a word or an emoji: the same in every language, and the shipped font has no 🤖 (a name's 🤖 is
dropped when drawn, bot.render.drawing `drawable`), so without it an AI car looked like anyone's.

An AI seat has a negative id (people's ids are positive Discord snowflakes, bot.services.play.ai_drivers).
"""

from __future__ import annotations

from PIL import ImageDraw

from bot.render import palette as P


def driven_by_ai(seat: str) -> bool:
    """Is `seat` (a seat or driver id as the views give it) an AI seat?"""
    try:
        return int(seat) < 0
    except (TypeError, ValueError):
        return False


def draw_ai_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], size: float) -> None:
    """A robot head `size` px wide centred on `centre`."""
    x, y, h = centre[0], centre[1], size / 2
    line = max(1, round(size / 12))
    draw.line((x, y - h * 0.55, x, y - h * 1.05), fill=P.BLACK, width=line + 1)  # the antenna
    draw.ellipse((x - h * 0.22, y - h * 1.25, x + h * 0.22, y - h * 0.85), fill=P.HAZARD_RED, outline=P.BLACK)
    draw.rounded_rectangle((x - h, y - h * 0.6, x + h, y + h * 0.8), radius=h * 0.35, fill=P.WHITE,
                           outline=P.BLACK, width=line + 1)
    eye = h * 0.24
    for ex in (x - h * 0.42, x + h * 0.42):
        draw.ellipse((ex - eye, y + h * 0.1 - eye, ex + eye, y + h * 0.1 + eye), fill=P.BLACK)
