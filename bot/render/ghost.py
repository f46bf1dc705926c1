"""A ghost car, the same for every game's board: a translucent car body, outlined
so it reads on any road, with a small label ("ghost", in the reader's words) beside it.

The body is drawn on its own transparent layer at 4× and alpha-composited onto the board, so the
road and the track marks show through it. A game's overlay draws it before its real cars (under
them) and moves it off a space a real car holds, so it never hides one.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import palette as P
from bot.render.drawing import pill, pill_size
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.options import RenderOptions

Pt = tuple[float, float]
SS = 4
#: the ghost's body: a pale fill seen through (alpha out of 255), a dark outline nearly opaque
FILL = (246, 248, 255, 150)
OUTLINE = (24, 28, 40, 230)
LABEL_BG: P.RGB = (236, 240, 248)
LABEL_INK: P.RGB = (24, 28, 40)


@lru_cache(maxsize=256)
def ghost_layer(length: float, width: float, degrees: float, outline_px: int) -> Image.Image:
    """An RGBA image of the ghost's body pointing at `degrees` (clockwise from +x), centred;
    cached like the car sprites (the overlay rounds the heading to 3°)."""
    side = math.ceil(max(length, width) * 1.2) + 2 * outline_px + 4
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = side * SS / 2
    half_l, half_w = length * SS / 2, width * SS / 2
    rad = math.radians(degrees)
    cs, sn = math.cos(rad), math.sin(rad)
    body = [(-half_l, -half_w * 0.8), (-half_l * 0.9, -half_w), (half_l * 0.45, -half_w),
            (half_l * 0.85, -half_w * 0.78), (half_l, -half_w * 0.4), (half_l, half_w * 0.4),
            (half_l * 0.85, half_w * 0.78), (half_l * 0.45, half_w), (-half_l * 0.9, half_w),
            (-half_l, half_w * 0.8)]
    pts = [(c + x * cs - y * sn, c + x * sn + y * cs) for x, y in body]
    d.polygon(pts, fill=FILL)
    d.line(pts + pts[:2], fill=OUTLINE, width=max(SS, outline_px * SS), joint="curve")
    return big.resize((side, side), Image.Resampling.LANCZOS)


def draw_ghost(canvas: Image.Image, centre: Pt, degrees: float, length: float, width: float,
               options: RenderOptions) -> tuple[float, float, float, float]:
    """The ghost's body at `centre` (image pixels) pointing at `degrees`, alpha-composited onto
    `canvas` (drawn before the real cars: under them); returns its box."""
    layer = ghost_layer(round(length), round(width), round(degrees / 3) * 3 % 360, options.px(4))
    x, y = round(centre[0] - layer.width / 2), round(centre[1] - layer.height / 2)
    canvas.paste(layer, (x, y), layer)
    return x, y, x + layer.width, y + layer.height


def inside(canvas: Image.Image, at: Pt, w: float, h: float, margin: float) -> Pt:
    """`at`, the centre of a w×h label, moved the least so the whole label is on the canvas (a
    ghost near the picture's edge keeps its label readable, not cut by the edge)."""
    x = min(max(at[0], w / 2 + margin), canvas.width - w / 2 - margin)
    y = min(max(at[1], h / 2 + margin), canvas.height - h / 2 - margin)
    return x, y


def label_ghost(canvas: Image.Image, centre: Pt, size: float, label: str, cars: list[Pt],
                options: RenderOptions) -> tuple[float, float, float, float] | None:
    """The ghost's label (drawn after the real cars, so no car covers it), beside the ghost on the
    side away from the nearest real car (`cars`: their centres), above it when none is near, and
    always whole on the canvas; `size` is the car's length in pixels. Returns the label's box."""
    if not label:
        return None
    f = font(max(options.px(BOARD_FONT_PX), BOARD_FONT_PX), bold=True)
    w, h = pill_size(label, f, options.px(5))
    near = min(cars, key=lambda c: math.dist(c, centre), default=None)
    dx, dy = 0.0, -1.0
    if near is not None and 0 < math.dist(near, centre) < size * 2.5:
        dist = math.dist(near, centre)
        dx, dy = (centre[0] - near[0]) / dist, (centre[1] - near[1]) / dist
    reach = size * 0.6 + abs(dx) * w / 2 + abs(dy) * h / 2 + options.px(4)
    at = inside(canvas, (centre[0] + dx * reach, centre[1] + dy * reach), w, h, options.px(4))
    return pill(ImageDraw.Draw(canvas), at, label, f, LABEL_BG, LABEL_INK, options.px(5), OUTLINE[:3], 1)
