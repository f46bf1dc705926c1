"""The panel under the course (RULES C3, C10.8): this round's turn order with "L" on the last,
then per seat only what is public: its car, race place or finish mark, hand size, draw deck size,
discard size, stage tiles, checkpoints, VP tiles and the count of unscored stage cards. The seat
whose turn it is has the "active" row colour and a black bar, so it is not marked by colour alone.
Every word is in the reader's language; every text is fitted to its line with an ellipsis."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from bot.engine.roadrally.view import RRView
from bot.render import palette as P
from bot.render.ai_mark import driven_by_ai
from bot.render.drawing import draw_text, drawable
from bot.render.fonts import BOARD_FONT_PX, fit_text, font
from bot.render.options import RenderOptions
from bot.render.roadrally.cars import chip
from bot.render.words import word

TEXT = 32    # design px of the panel's text at 1080 px wide (at least BOARD_FONT_PX)
HEAD = 34
ROW_GAP = 10


def _line_height(options: RenderOptions) -> int:
    return options.px(TEXT + 8)


def seat_lines(view: RRView, seat_index: int, lang: str) -> tuple[str, str]:
    """A seat's two lines of public counts: its cards (stage cards as a count), then its scoring pieces."""
    s = view.seats[seat_index]
    cards = " · ".join((word("rr_hand", lang, n=s.hand_size), word("rr_deck", lang, n=s.deck_size),
                        word("rr_discard", lang, n=len(s.discard)), word("rr_stage_cards", lang, n=s.stage_cards)))
    pieces = " · ".join((word("rr_stage_tiles", lang, n=len(s.stage_tiles)),
                         word("rr_checkpoints", lang, n=s.checkpoints), word("rr_vp", lang, n=s.vp)))
    return cards, pieces


def panel_height(view: RRView, options: RenderOptions) -> int:
    px = options.px
    return px(20) + px(HEAD + 30) + len(view.seats) * (3 * _line_height(options) + px(ROW_GAP)) + px(10)


def draw_panel(img: Image.Image, top: int, view: RRView, names: Mapping[str, str], colours: Mapping[str, P.RGB],
               labels: Mapping[str, str], options: RenderOptions) -> None:
    """The panel, from pixel row `top` to the image's bottom."""
    d = ImageDraw.Draw(img)
    px, lang, width = options.px, options.lang, img.width
    d.rectangle((0, top, width, img.height), fill=P.PANEL_BG)
    size = max(px(TEXT), px(BOARD_FONT_PX))
    y = top + px(20)
    head = font(px(HEAD), True)
    label = f"{word('rr_order', lang)}:"
    draw_text(d, (px(20), y), label, head, P.PANEL_TEXT, "la")
    r = max(px(HEAD) * 0.75, px(BOARD_FONT_PX) * 0.9)
    x = px(20) + head.getlength(label) + px(16) + r
    cy = y + px(HEAD) * 0.6
    for i, seat in enumerate(view.order):  # the order as cars, the last one with its "L" tile (C3)
        chip(d, (x, cy), r, colours[seat], labels[seat], px(BOARD_FONT_PX),
             seat == view.current, driven_by_ai(seat))
        if i == len(view.order) - 1:
            last = word("rr_last", lang)
            side = px(HEAD) * 1.1
            box = (x + r + px(10), cy - side / 2, x + r + px(10) + side, cy + side / 2)
            d.rectangle(box, fill=P.BLACK)
            draw_text(d, ((box[0] + box[2]) / 2, cy), last, font(max(px(HEAD) - 2, px(BOARD_FONT_PX)), True), P.WHITE,
                      "mm")
        else:
            draw_text(d, (x + r + px(12), cy), "→", head, P.PANEL_TEXT, "lm")
        x += 2 * r + px(12) + head.getlength("→") + px(12)
    y += px(HEAD + 30)
    lh = _line_height(options)
    regular, bold = font(size), font(size, True)
    for i, s in enumerate(view.seats):
        row_h = 3 * lh + px(ROW_GAP)
        active = s.id == view.current or (view.choice is not None and view.choice[0] == s.id)
        fill = P.PANEL_ACTIVE if active else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
        d.rectangle((0, y, width, y + row_h), fill=fill)
        if active:
            d.rectangle((0, y, px(8), y + row_h), fill=P.BLACK)
        r = lh * 0.9
        chip(d, (px(20) + r, y + px(ROW_GAP) // 2 + r + lh * 0.5), r, colours[s.id], labels[s.id], size,
             s.id == view.current, driven_by_ai(s.id))
        x = px(20) + 2 * r + px(16)
        if s.retired:
            where = word("rr_retired", lang)
        elif s.mark is not None:
            where = word("rr_finished", lang, n=s.mark)
        else:
            where = word("rr_place", lang, n=s.place)
        name = f"{names[s.id]} · {where}"
        ink = P.PANEL_MUTED if s.retired else P.PANEL_TEXT
        room = width - x - px(20)
        draw_text(d, (x, y + px(ROW_GAP) // 2), drawable(bold, fit_text(name, bold, room)), bold, ink, "la")
        for k, text in enumerate(seat_lines(view, i, lang), 1):
            draw_text(d, (x, y + px(ROW_GAP) // 2 + k * lh), drawable(regular, fit_text(text, regular, room)),
                      regular, ink, "la")
        y += row_h
