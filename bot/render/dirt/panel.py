"""The table under a DIRT board: one row per driver (colour and initials, name, gear, stage time so
far, state: to play, waiting, finished, out) and, under it, the damage tokens on the driver's
dashboard (B10, B13.4); then the "provisional rules" band (B13) that every DIRT image carries.

Every text is a `TextBox` fitted to its cell (`table_texts`), so the tests can check that none
leaves its cell in any language; every word comes from the render catalogue in `options.lang`.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.dirt.view import TOKEN_KINDS, BoardView, CarView
from bot.render import palette as P
from bot.render.ai_mark import draw_ai_mark, driven_by_ai
from bot.render.cache import ByteLRU, image_bytes
from bot.render.dirt import colours as C
from bot.render.dirt.overlay import initials
from bot.render.drawing import text_centered
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.formats import mmss
from bot.render.options import RenderOptions
from bot.render.textbox import TextBox, fit_box
from bot.render.words import word

HEAD_H = 48
LINE_H = 50      # a driver's first line: name, gear, time, state
DAMAGE_H = 44    # its second line: the tokens on the dashboard
BAND_H = 54      # the "provisional rules" band
PAD = 8
#: the word of each token kind (tests check every language has each)
TOKEN_WORDS = {"ok": "dirt_token_ok", "coast": "dirt_token_coast", "minus_one": "dirt_token_minus_one",
               "brake": "dirt_token_brake"}
#: (left, right) of each column at the 1080 px design width
COLUMNS = {"swatch": (12, 76), "name": (84, 536), "gear": (536, 690), "time": (690, 840), "state": (840, 1068)}


def row_height(options: RenderOptions) -> int:
    return options.px(LINE_H) + options.px(DAMAGE_H)


def panel_height(view: BoardView, options: RenderOptions) -> int:
    return options.px(HEAD_H) + row_height(options) * len(view.cars) + options.px(PAD) + options.px(BAND_H)


def state_word(car: CarView, lang: str) -> str:
    if car.to_act:
        return "▶ " + word("dirt_to_act", lang)
    if car.status == "waiting":
        return word("dirt_waiting", lang)
    if car.status == "finished":
        return word("finished", lang)
    if car.status == "out":
        return word("dnf", lang)
    if car.status == "retired":
        return word("dirt_retired", lang)
    return ""


def damage_text(car: CarView, lang: str) -> str:
    parts = [f"{car.tokens[kind]}× {word(TOKEN_WORDS[kind], lang)}" for kind in TOKEN_KINDS if car.tokens.get(kind)]
    return f"{word('damage', lang)}: " + (" · ".join(parts) if parts else "—")


def _cell(col: str, y0: float, y1: float, options: RenderOptions) -> tuple[float, float, float, float]:
    return options.px(COLUMNS[col][0]), y0, options.px(COLUMNS[col][1]), y1


def head_texts(top: float, options: RenderOptions) -> list[TextBox]:
    """The column heads."""
    px, lang, size, pad = options.px, options.lang, options.px(BOARD_FONT_PX), options.px(PAD)
    low = top + px(HEAD_H)
    return [fit_box(word("driver", lang), _cell("name", top, low, options), size, P.PANEL_MUTED, pad=pad,
                    what="head driver"),
            fit_box(word("gear", lang), _cell("gear", top, low, options), size, P.PANEL_MUTED, align="c", pad=pad,
                    what="head gear"),
            fit_box(word("time", lang), _cell("time", top, low, options), size, P.PANEL_MUTED, align="c", pad=pad,
                    what="head time")]


def row_texts(car: CarView, i: int, top: float, options: RenderOptions) -> list[TextBox]:
    """A driver's texts: name, gear, time and state on the first line, damage tokens on the second."""
    px, lang, size, pad = options.px, options.lang, options.px(BOARD_FONT_PX), options.px(PAD)
    low = top + px(LINE_H)
    ink = P.PANEL_MUTED if car.status in ("out", "retired") else P.PANEL_TEXT
    what = f"row {i + 1} "
    return [
        fit_box(car.name, _cell("name", top, low, options), size, ink, bold=True, min_size=size, pad=pad,
                what=what + "name"),
        fit_box(str(car.gear), _cell("gear", top, low, options), max(size, px(34)), ink, align="c", bold=True, pad=pad,
                what=what + "gear"),
        fit_box(mmss(car.seconds), _cell("time", top, low, options), size, ink, align="c", bold=True, pad=pad,
                what=what + "time"),
        fit_box(state_word(car, lang), _cell("state", top, low, options), size,
                P.HAZARD_RED if car.status in ("out", "retired") else ink, align="c", bold=car.to_act,
                min_size=size, pad=pad, what=what + "state"),
        fit_box(damage_text(car, lang), (px(COLUMNS["name"][0]), low, px(COLUMNS["state"][1]), low + px(DAMAGE_H)),
                size, P.PANEL_MUTED, min_size=size, pad=pad, what=what + "damage"),
    ]


def table_texts(view: BoardView, top: int, options: RenderOptions) -> list[TextBox]:
    """Every text of the table and of the band under it, with its cell (as drawn)."""
    out = head_texts(top, options)
    y = top + options.px(HEAD_H)
    for i, car in enumerate(view.cars):
        out += row_texts(car, i, y, options)
        y += row_height(options)
    out.append(provisional_box(y + options.px(PAD), options))
    return out


def provisional_box(top: float, options: RenderOptions) -> TextBox:
    """The words "provisional rules" (B13) in the band at `top`."""
    return fit_box(word("dirt_provisional", options.lang), (0, top, options.width, top + options.px(BAND_H)),
                   options.px(BOARD_FONT_PX), C.PROVISIONAL_TEXT, align="c", bold=True,
                   min_size=options.px(BOARD_FONT_PX),
                   pad=options.px(PAD), what="provisional rules")


def draw_provisional(d: ImageDraw.ImageDraw, top: float, options: RenderOptions) -> None:
    d.rectangle((0, top, options.width, top + options.px(BAND_H)), fill=C.PROVISIONAL_BG)
    provisional_box(top, options).draw(d)


#: drawn rows, kept: turn after turn most drivers' rows are the same (a row is ~0.2 MB)
_rows: ByteLRU[Image.Image] = ByteLRU(8 * 1024 * 1024, "dirt_panel_rows", share=8)


def _row_image(car: CarView, i: int, options: RenderOptions) -> Image.Image:
    key = (car.model_dump_json(), i % 2, options)
    img = _rows.get(key)
    if img is not None:
        return img
    px, w, h = options.px, options.width, row_height(options)
    bg = P.PANEL_ACTIVE if car.to_act else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    if car.to_act:
        d.rectangle((0, 0, px(6), h), fill=P.BLACK)
    colour = P.car_colour(car.colour)
    x0, x1 = px(COLUMNS["swatch"][0]), px(COLUMNS["swatch"][1])
    cy = px(LINE_H) / 2 + px(4)
    d.rounded_rectangle((x0, cy - px(22), x1, cy + px(22)), radius=px(8), fill=colour, outline=P.BLACK, width=2)
    fg, stroke = P.ink_on(colour)
    text_centered(d, ((x0 + x1) / 2, cy), initials(car.name), font(px(BOARD_FONT_PX), bold=True), fg, stroke=stroke,
                  stroke_width=1)
    if driven_by_ai(car.seat):  # under its swatch, on the damage line
        draw_ai_mark(d, ((x0 + x1) / 2, cy + px(22) + px(DAMAGE_H) / 2), px(26))
    for t in row_texts(car, i, 0, options):
        t.draw(d)
    _rows.put(key, img, image_bytes(img))
    return img


def draw_table(canvas: Image.Image, view: BoardView, top: int, options: RenderOptions) -> None:
    """The head, a row per driver (kept from turn to turn while it is the same) and the band."""
    head, band = _fixed_parts(options)
    canvas.paste(head, (0, top))
    y = top + options.px(HEAD_H)
    for i, car in enumerate(view.cars):
        canvas.paste(_row_image(car, i, options), (0, y))
        y += row_height(options)
    canvas.paste(band, (0, y))


_fixed: dict[RenderOptions, tuple[Image.Image, Image.Image]] = {}


def _fixed_parts(options: RenderOptions) -> tuple[Image.Image, Image.Image]:
    """The head row and the band under the rows (with the gap above it), drawn once per options."""
    parts = _fixed.get(options)
    if parts is None:
        w, px = options.width, options.px
        head = Image.new("RGB", (w, px(HEAD_H)), P.PANEL_BG)
        d = ImageDraw.Draw(head)
        for t in head_texts(0, options):
            t.draw(d)
        band = Image.new("RGB", (w, px(PAD) + px(BAND_H)), P.PANEL_BG)
        draw_provisional(ImageDraw.Draw(band), px(PAD), options)
        parts = _fixed[options] = (head, band)
    return parts
