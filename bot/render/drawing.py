"""Small drawing helpers shared by the static layer, the overlay and the panels."""

from __future__ import annotations

from PIL import ImageDraw, ImageFont

from bot.render.palette import RGB

Pt = tuple[float, float]


def text_centered(draw: ImageDraw.ImageDraw, centre: Pt, text: str, f: ImageFont.FreeTypeFont, fill: RGB,
                  stroke: RGB | None = None, stroke_width: int = 0) -> None:
    """`text` centred on `centre` (middle of its ink box, so digits sit right in badges)."""
    draw.text(centre, text, font=f, fill=fill, anchor="mm",
              stroke_width=stroke_width if stroke else 0, stroke_fill=stroke)


def pill(draw: ImageDraw.ImageDraw, centre: Pt, text: str, f: ImageFont.FreeTypeFont, bg: RGB, fg: RGB,
         pad: float, outline: RGB | None = None, outline_w: int = 0) -> tuple[float, float, float, float]:
    """A rounded label; returns its box."""
    w = f.getlength(text)
    asc, desc = f.getmetrics()
    h = asc + desc * 0.3
    box = (centre[0] - w / 2 - pad, centre[1] - h / 2 - pad * 0.6,
           centre[0] + w / 2 + pad, centre[1] + h / 2 + pad * 0.6)
    draw.rounded_rectangle(box, radius=(box[3] - box[1]) / 2, fill=bg, outline=outline, width=outline_w)
    text_centered(draw, centre, text, f, fg)
    return box


def pill_size(text: str, f: ImageFont.FreeTypeFont, pad: float) -> tuple[float, float]:
    asc, desc = f.getmetrics()
    return f.getlength(text) + 2 * pad, asc + desc * 0.3 + 1.2 * pad


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

