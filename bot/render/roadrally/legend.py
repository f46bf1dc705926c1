"""The legend under a course (RULES C5): each special space as drawn on the course, with its word
in the reader's language, two to a line (one to a line when a word is too long for half a line)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.roadrally.road import SpaceKind
from bot.render import palette as P
from bot.render.drawing import draw_text, drawable
from bot.render.fonts import BOARD_FONT_PX, fit_text, font
from bot.render.options import RenderOptions
from bot.render.roadrally.course import FILL, FINISH_CHECKS, LEGEND, STAGE_TILE, TILE, TILE_EDGE, icon
from bot.render.words import word

TEXT = 24


def entries(lang: str) -> list[tuple[str, str]]:
    """(what, text) of each legend line: "tiles", "stage_tile", then each special space's kind."""
    out = [("tiles", word("rr_legend_tiles", lang)), ("stage_tile", word("rr_legend_stage_tile", lang))]
    return out + [(kind.value, word(key, lang)) for kind, key in LEGEND]


def _columns(options: RenderOptions) -> int:
    f = font(max(options.px(TEXT), options.px(BOARD_FONT_PX)))
    half = options.width / 2 - options.px(20 + 60)
    return 2 if all(f.getlength(t) <= half for _, t in entries(options.lang)) else 1


def legend_height(options: RenderOptions) -> int:
    rows = -(-len(entries(options.lang)) // _columns(options))
    return options.px(20) + options.px(TEXT + 12) + rows * options.px(TEXT + 22) + options.px(10)


def draw_legend(img: Image.Image, top: int, options: RenderOptions) -> None:
    d = ImageDraw.Draw(img)
    px, lang = options.px, options.lang
    d.rectangle((0, top, img.width, top + legend_height(options)), fill=P.PANEL_ALT)
    size = max(px(TEXT), px(BOARD_FONT_PX))
    f, bold = font(size), font(size, True)
    draw_text(d, (px(20), top + px(14)), word("rr_legend", lang), bold, P.PANEL_TEXT, "la")
    cols = _columns(options)
    col_w = (img.width - px(40)) / cols
    sq = px(TEXT + 12)
    for n, (what, text) in enumerate(entries(lang)):
        row, col = divmod(n, cols)
        x = px(20) + col * col_w
        y = top + px(20) + px(TEXT + 12) + row * px(TEXT + 22)
        box = (x, y, x + sq, y + sq)
        cx, cy = x + sq / 2, y + sq / 2
        if what == "tiles":
            d.rectangle(box, fill=TILE, outline=TILE_EDGE, width=px(3))
            draw_text(d, (cx, cy), "1", font(round(sq * 0.6), True), TILE_EDGE, "mm")
        elif what == "stage_tile":
            d.ellipse(box, fill=STAGE_TILE, outline=P.WHITE)
            draw_text(d, (cx, cy), "7", font(round(sq * 0.6), True), P.WHITE, "mm")
        elif what == SpaceKind.FINAL.value:
            half = sq / 2
            for i in range(2):
                for j in range(2):
                    d.rectangle((x + i * half, y + j * half, x + (i + 1) * half, y + (j + 1) * half),
                                fill=FINISH_CHECKS[(i + j) % 2])
        else:
            kind = SpaceKind(what)
            d.rectangle(box, fill=FILL[kind], outline=P.WHITE)
            mark = icon(kind, lang)
            if mark:
                draw_text(d, (cx, cy), mark, font(round(sq * 0.62), True), P.WHITE, "mm")
        room = col_w - sq - px(20)
        draw_text(d, (x + sq + px(12), cy), drawable(f, fit_text(text, f, room)), f, P.PANEL_TEXT, "lm")
