"""The dark header band on top of every image: a title, "SS 2/3 · Round 7" on the right, and a
status line under them (the board, the stage preview, a stage's results, a league table). Every
word is in the image's language (`options.lang`); the texts are placed as `TextBox`es with the cell
each must stay in (`header_texts`), which the drawing draws exactly and the tests check.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import palette as P
from bot.render.drawing import length
from bot.render.fonts import MIN_FONT_PX, font
from bot.render.options import RenderOptions
from bot.render.textbox import TextBox, fit_box
from bot.render.words import text, word

MARGIN = 6  # a left-aligned text's cell begins this far before the text (glyphs such as J overhang)


def header_right(round_no: int, special: tuple[int, int], lang: str) -> str:
    """The header's right-hand text: "Round 7", after "SS 2/3 · " in a rally of several specials."""
    parts = [word("special_of", lang, n=special[0], count=special[1])] if special[0] and special[1] > 1 else []
    if round_no:
        parts.append(word("round", lang, n=round_no))
    return " · ".join(parts)


def header_texts(title: str, round_no: int, status: str, width: int, height: int,
                 options: RenderOptions, special: tuple[int, int] = (0, 0), least: int = MIN_FONT_PX) -> list[TextBox]:
    """The header's texts: the title (bold, cut to leave room for the round), "SS 2/3 · Round 7"
    on the right (`special`: the special being driven and the rally's count), and the status line
    under them (shrunk down to `least` design px, then cut: a board's header keeps BOARD_FONT_PX,
    read on a phone during play)."""
    px, lang = options.px, options.lang
    title, status = text(title, lang), text(status, lang)
    right = header_right(round_no, special, lang)
    round_size = px(max(28, least))
    rw = length(font(round_size, bold=True), right)
    title_bottom = px(62)
    edge = px(MARGIN)  # texts start px(20) from the side (a glyph may overhang its start a little)
    left, right_edge = px(20 - MARGIN), width - px(20 - MARGIN)
    out = [fit_box(title, (left, 0, width - rw - px(40 - MARGIN), title_bottom), px(36), P.HEADER_TEXT,
                   bold=True, pad=edge, top=px(14), what="header title")]
    if right:
        out.append(TextBox(right, round_size, True, (width - px(20) - rw, px(20)), "la",
                           (width - px(20 + MARGIN) - rw, 0, right_edge, title_bottom), P.FINISH_YELLOW,
                           "header round"))
    if status:
        out.append(fit_box(status, (left, title_bottom, right_edge, height), px(max(26, least)), P.HEADER_MUTED,
                           min_size=px(least), pad=edge, top=px(64), what="header status"))
    return out


def draw_header(canvas: Image.Image, title: str, round_no: int, status: str, height: int,
                options: RenderOptions, special: tuple[int, int] = (0, 0), least: int = MIN_FONT_PX) -> None:
    """The dark band on top: title, special and round, status line (`title` and `status` may be
    messages: they are shown in the image's language)."""
    d = ImageDraw.Draw(canvas)
    d.rectangle((0, 0, canvas.width, height), fill=P.HEADER_BG)
    for t in header_texts(title, round_no, status, canvas.width, height, options, special, least):
        t.draw(d)
