"""Car tokens: an arrow-nosed body in the driver's colour, outlined so it reads on any road.

Bodies are drawn at 4× and downscaled (antialiased), then cached per colour, angle and size, so
a turn only pastes a few small sprites. Initials are drawn upright on top by the overlay, never
rotated, so they stay readable whichever way the car points.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import palette as P

SS = 4  # supersampling of sprites


def car_size(ppu: float, scale: float) -> tuple[int, int]:
    """(length, width) of a car in pixels: 0.88 × 0.56 of a space, never below a legible minimum."""
    return max(round(48 * scale), round(0.88 * ppu)), max(round(32 * scale), round(0.56 * ppu))


@lru_cache(maxsize=512)
def car_sprite(colour: int, angle: int, length: int, width: int, halo: bool) -> Image.Image:
    """RGBA sprite of a car pointing at `angle` degrees (clockwise from +x), centred in its image."""
    side = math.ceil(max(length, width) * (1.55 if halo else 1.2)) + 6
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = side * SS / 2
    fill = P.car_colour(colour)
    if halo:
        r = max(length, width) * 0.72 * SS
        w = max(3, round(width * 0.16)) * SS
        d.ellipse((c - r - SS, c - r - SS, c + r + SS, c + r + SS), outline=P.BLACK + (255,), width=w + 2 * SS)
        d.ellipse((c - r, c - r, c + r, c + r), outline=P.HALO + (255,), width=w)
    L, W = length * SS / 2, width * SS / 2
    rad = math.radians(angle)
    cs, sn = math.cos(rad), math.sin(rad)

    def turn(shape: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(c + x * cs - y * sn, c + x * sn + y * cs) for x, y in shape]

    # seen from above: a body narrowing to a rounded nose, and a dark windscreen near the front
    body = [(-L, -W * 0.8), (-L * 0.9, -W), (L * 0.45, -W), (L * 0.85, -W * 0.78), (L, -W * 0.4), (L, W * 0.4),
            (L * 0.85, W * 0.78), (L * 0.45, W), (-L * 0.9, W), (-L, W * 0.8)]
    screen = [(L * 0.5, -W * 0.74), (L * 0.7, -W * 0.56), (L * 0.7, W * 0.56), (L * 0.5, W * 0.74)]
    rim = P.WHITE if colour % len(P.CAR_COLOURS) == len(P.CAR_COLOURS) - 1 else P.BLACK
    pts = turn(body)
    d.polygon(pts, fill=fill + (255,), outline=P.WHITE + (255,), width=round(2.2 * SS))
    d.line(pts + pts[:2], fill=rim + (255,), width=round(1.6 * SS), joint="curve")
    glass = (40, 44, 52) if rim == P.BLACK else (200, 206, 214)
    d.polygon(turn(screen), fill=glass + (255,))
    return big.resize((side, side), Image.Resampling.LANCZOS)


def paste_car(canvas: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    canvas.paste(sprite, (x, y), sprite)
