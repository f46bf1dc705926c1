"""The career card image: a driver's name, game, rating and its trend, stats, personal bests, last
results and achievements, on one phone-friendly image (1080 px wide, as the results card).

The card's words arrive already in the reader's language (`bot.services.images` renders the
spec's message keys before drawing), so this module only places them: every text is fitted to
its cell (`fit_text`, a smaller font down to MIN_FONT_PX, then an ellipsis), so a long German
label never runs into the next column. Flat colours only: the palette PNG stays small and the
drawing costs a fraction of the encode (`bench render`'s `card_over_encode`).
"""

from __future__ import annotations

from PIL import Image, ImageDraw
from pydantic import BaseModel, ConfigDict, Field

from bot.render.cache import ByteLRU, image_bytes
from bot.render.drawing import draw_text, length
from bot.render.encode import to_png
from bot.render.fonts import MIN_FONT_PX, fit_text, fitting_font, font
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.palette import RGB

W = 1080
PAD = 48
HEADER_H = 250
STAT_ROW_H = 100
LIST_ROW_H = 50
SECTION_HEAD_H = 64
GAP = 28
PILL_H = 52

BG: RGB = (244, 243, 239)
PANEL: RGB = (255, 255, 255)
DARK: RGB = (33, 37, 46)
DARK_2: RGB = (49, 55, 67)
INK: RGB = (30, 30, 30)
GREY: RGB = (105, 105, 105)
LIGHT_INK: RGB = (236, 236, 236)
ACCENT: RGB = (230, 159, 0)   # the first car colour (Okabe–Ito orange)
LINE: RGB = (225, 223, 216)
GOOD: RGB = (0, 158, 115)


class CareerCard(BaseModel):
    """What the card shows, every word in the reader's language."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(max_length=100)
    game: str
    rating: int | None = None
    trend: list[float] = Field(default_factory=list, max_length=1000)
    labels: dict[str, str]
    stats: list[tuple[str, str]] = Field(max_length=12)
    bests: list[tuple[str, str]] = Field(default_factory=list, max_length=10)
    recent: list[tuple[str, str, str]] = Field(default_factory=list, max_length=10)
    achievements: list[str] = Field(default_factory=list, max_length=20)
    more_earned: str = ""  # "and N more" when not every earned one is shown
    to_earn: str = ""


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB, width: float,
          bold: bool = False, anchor: str = "la") -> None:
    """One text fitted to `width` pixels: a smaller font first (down to MIN_FONT_PX), then an ellipsis."""
    f = fitting_font(text, size, min(size, MIN_FONT_PX), width, bold)
    draw_text(draw, xy, fit_text(text, f, width), f, fill, anchor)


def _sparkline(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], trend: list[float]) -> None:
    """The rating's trend, oldest first, scaled to the box; the last point marked."""
    x0, y0, x1, y1 = box
    if len(trend) < 2:
        return
    lo, hi = min(trend), max(trend)
    span = (hi - lo) or 1.0
    step = (x1 - x0) / (len(trend) - 1)
    pts = [(x0 + i * step, y1 - (v - lo) / span * (y1 - y0)) for i, v in enumerate(trend)]
    draw.line(pts, fill=ACCENT, width=5, joint="curve")
    lx, ly = pts[-1]
    draw.ellipse((lx - 8, ly - 8, lx + 8, ly + 8), fill=ACCENT, outline=LIGHT_INK, width=2)


def _height(card: CareerCard) -> int:
    rows_stats = (len(card.stats) + 1) // 2
    bests = max(1, len(card.bests))
    recent = max(1, len(card.recent))
    pills = max(1, (len(card.achievements) + 1) // 2) + 1
    return (HEADER_H + GAP + SECTION_HEAD_H + rows_stats * STAT_ROW_H + GAP + SECTION_HEAD_H + bests * LIST_ROW_H
            + GAP + SECTION_HEAD_H + recent * LIST_ROW_H + GAP + SECTION_HEAD_H + pills * (PILL_H + 14) + PAD)


def _layout(card: CareerCard) -> tuple[int, int, int, int, int]:
    """What the card's frame depends on: its rows of stats, bests, results and achievements, and
    whether it has a trend to draw (the frame is kept per layout, its words never are)."""
    return ((len(card.stats) + 1) // 2, max(1, len(card.bests)), max(1, len(card.recent)),
            len(card.achievements), int(len(card.trend) >= 2))


def _panel(draw: ImageDraw.ImageDraw, y: int, rows: int, row_h: int) -> int:
    """A white panel for a section of `rows` rows; returns the y of its first row."""
    draw.rectangle((PAD - 16, y, W - PAD + 16, y + SECTION_HEAD_H + rows * row_h + 8), fill=PANEL)
    return y + SECTION_HEAD_H


def _frame(card: CareerCard) -> Image.Image:
    """The card's wordless frame (bands, panels, rules, pills), drawn once per layout and kept:
    a card then costs its words and the sparkline, a fraction of its PNG's encode."""
    key = _layout(card)
    kept = _frames.get(key)
    if kept is not None:
        return kept
    stat_rows, bests, recent, earned, trend = key
    img = Image.new("RGB", (W, _height(card)), BG)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, W, HEADER_H), fill=DARK)
    draw.rectangle((0, HEADER_H - 8, W, HEADER_H), fill=ACCENT)
    if trend:
        draw.rectangle((SPARK[0] - 20, SPARK[1] - 24, SPARK[2] + 20, SPARK[3] + 24), fill=DARK_2)
    y = _panel(draw, HEADER_H + GAP, stat_rows, STAT_ROW_H) + stat_rows * STAT_ROW_H + GAP
    for rows in (bests, recent):
        top = _panel(draw, y, rows, LIST_ROW_H)
        for i in range(1, rows):
            draw.line((PAD, top + i * LIST_ROW_H, W - PAD, top + i * LIST_ROW_H), fill=LINE, width=2)
        y = top + rows * LIST_ROW_H + GAP
    top = _panel(draw, y, max(1, (earned + 1) // 2) + 1, PILL_H + 14)
    pill_w = (W - 2 * PAD - 20) // 2
    for i in range(earned):
        px = PAD + (i % 2) * (pill_w + 20)
        py = top + (i // 2) * (PILL_H + 14)
        draw.rounded_rectangle((px, py, px + pill_w, py + PILL_H), radius=PILL_H // 2, fill=DARK)
        draw.ellipse((px + 10, py + 10, px + PILL_H - 10, py + PILL_H - 10), fill=GOOD)
        draw_text(draw, (px + PILL_H / 2, py + PILL_H / 2), "✓", font(24, True), PANEL, "mm", cache=False)
    _frames.put(key, img, image_bytes(img))
    return img


#: the frames of the last layouts drawn, bounded in bytes (each ~6 MB), within the process's
#: picture budget (`bot.render.cache.set_budget`): none kept when the budget's share holds none
_frames: ByteLRU[Image.Image] = ByteLRU(32 * 1024 * 1024, "career_frames", share=8, keep_newest=False)
SPARK = (600, 56, W - PAD - 12, 176)


def card_image(card: CareerCard, options: RenderOptions = DEFAULT_OPTIONS) -> Image.Image:
    """The career card as an RGB image (1080 px wide; its height follows what it lists)."""
    img = _frame(card).copy()
    draw = ImageDraw.Draw(img)
    labels = card.labels
    inner = W - 2 * PAD
    left = SPARK[0] - PAD - 40

    # header: name, game, rating and its sparkline
    _text(draw, (PAD, 40), card.name, 58, LIGHT_INK, left, bold=True)
    _text(draw, (PAD, 118), card.game, 32, ACCENT, left)
    if card.rating is not None:
        _text(draw, (PAD, 172), f"{labels.get('rating', '')} {card.rating}", 36, LIGHT_INK, left, bold=True)
    else:
        _text(draw, (PAD, 176), labels.get("no_rating", ""), 30, LIGHT_INK, left)
    if len(card.trend) >= 2:  # no trend yet: no empty frame either
        _sparkline(draw, SPARK, card.trend)

    # stats: two columns of label over value
    y = HEADER_H + GAP
    rows = (len(card.stats) + 1) // 2
    _text(draw, (PAD, y + 16), labels.get("stats", ""), 32, INK, inner, bold=True)
    top = y + SECTION_HEAD_H
    col_w = inner // 2
    for i, (label, value) in enumerate(card.stats):
        x = PAD + (i % 2) * col_w
        ry = top + (i // 2) * STAT_ROW_H
        _text(draw, (x, ry + 6), label, 26, GREY, col_w - 24)
        _text(draw, (x, ry + 40), value, 42, INK, col_w - 24, bold=True)
    y = top + rows * STAT_ROW_H + GAP

    # personal bests: stage → score
    _text(draw, (PAD, y + 16), labels.get("bests", ""), 32, INK, inner, bold=True)
    top = y + SECTION_HEAD_H
    if not card.bests:
        _text(draw, (PAD, top + 8), labels.get("none_yet", ""), 28, GREY, inner)
    for i, (stage, score) in enumerate(card.bests):
        ry = top + i * LIST_ROW_H
        score_w = min(220.0, length(font(30, True), score) + 8)
        _text(draw, (PAD, ry + 10), stage, 28, INK, inner - score_w - 24)
        _text(draw, (W - PAD, ry + 8), score, 30, INK, score_w, bold=True, anchor="ra")
    y = top + max(1, len(card.bests)) * LIST_ROW_H + GAP

    # recent results: stage, place, score
    _text(draw, (PAD, y + 16), labels.get("recent", ""), 32, INK, inner, bold=True)
    top = y + SECTION_HEAD_H
    if not card.recent:
        _text(draw, (PAD, top + 8), labels.get("none_yet", ""), 28, GREY, inner)
    for i, (stage, place, score) in enumerate(card.recent):
        ry = top + i * LIST_ROW_H
        _text(draw, (PAD, ry + 10), stage, 28, INK, inner - 400)
        _text(draw, (W - PAD - 220, ry + 10), place, 28, GREY, 150, anchor="ra")
        _text(draw, (W - PAD, ry + 8), score, 30, INK, 200, bold=True, anchor="ra")
    y = top + max(1, len(card.recent)) * LIST_ROW_H + GAP

    # achievements: earned ones as pills (in the frame), two a row; then how many remain
    pill_rows = max(1, (len(card.achievements) + 1) // 2)
    _text(draw, (PAD, y + 16), labels.get("achievements", ""), 32, INK, inner, bold=True)
    top = y + SECTION_HEAD_H
    pill_w = (inner - 20) // 2
    if not card.achievements:
        _text(draw, (PAD, top + 10), labels.get("none_yet", ""), 28, GREY, inner)
    for i, name in enumerate(card.achievements):
        px = PAD + (i % 2) * (pill_w + 20)
        py = top + (i // 2) * (PILL_H + 14)
        _text(draw, (px + PILL_H + 6, py + 12), name, 26, LIGHT_INK, pill_w - PILL_H - 24)
    more = f"{card.more_earned} · {card.to_earn}" if card.more_earned else card.to_earn
    _text(draw, (PAD, top + pill_rows * (PILL_H + 14) + 10), more, 26, GREY, inner)
    return img


def render_career(card: CareerCard, options: RenderOptions | None = None) -> bytes:
    """The career card as a palette PNG."""
    options = options or DEFAULT_OPTIONS
    return to_png(card_image(card, options), options.compress_level, options.palette)
