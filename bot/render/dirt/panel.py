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
from bot.render.dirt import colours as C
from bot.render.dirt.overlay import initials
from bot.render.drawing import text_centered
from bot.render.fonts import MIN_FONT_PX, font
from bot.render.formats import mmss
from bot.render.options import RenderOptions
from bot.render.textbox import TextBox, fit_box
from bot.render.words import word

HEAD_H = 40
LINE_H = 40      # a driver's first line: name, gear, time, state
DAMAGE_H = 32    # its second line: the tokens on the dashboard
BAND_H = 48      # the "provisional rules" band
PAD = 8
#: the word of each token kind (tests check every language has each)
TOKEN_WORDS = {"ok": "dirt_token_ok", "coast": "dirt_token_coast", "minus_one": "dirt_token_minus_one",
               "brake": "dirt_token_brake"}
#: (left, right) of each column at the 1080 px design width
COLUMNS = {"swatch": (12, 76), "name": (84, 560), "gear": (560, 690), "time": (690, 840), "state": (840, 1068)}


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


def table_texts(view: BoardView, top: int, options: RenderOptions) -> list[TextBox]:
    """Every text of the table and of the band under it, with its cell."""
    px, lang = options.px, options.lang

    def cell(col: str, y0: float, y1: float) -> tuple[float, float, float, float]:
        return px(COLUMNS[col][0]), y0, px(COLUMNS[col][1]), y1

    size, pad = px(MIN_FONT_PX), px(PAD)
    y: float = top
    out = [fit_box(word("driver", lang), cell("name", y, y + px(HEAD_H)), size, P.PANEL_MUTED, pad=pad,
                   what="head driver"),
           fit_box(word("gear", lang), cell("gear", y, y + px(HEAD_H)), size, P.PANEL_MUTED, align="c", pad=pad,
                   what="head gear"),
           fit_box(word("time", lang), cell("time", y, y + px(HEAD_H)), size, P.PANEL_MUTED, align="c", pad=pad,
                   what="head time")]
    y += px(HEAD_H)
    for i, car in enumerate(view.cars):
        low = y + px(LINE_H)
        ink = P.PANEL_MUTED if car.status in ("out", "retired") else P.PANEL_TEXT
        what = f"row {i + 1} "
        out.append(fit_box(car.name, cell("name", y, low), px(26), ink, bold=True, min_size=size, pad=pad,
                           what=what + "name"))
        out.append(fit_box(str(car.gear), cell("gear", y, low), px(28), ink, align="c", bold=True, pad=pad,
                           what=what + "gear"))
        out.append(fit_box(mmss(car.seconds), cell("time", y, low), px(26), ink, align="c", bold=True, pad=pad,
                           what=what + "time"))
        out.append(fit_box(state_word(car, lang), cell("state", y, low), px(24),
                           P.HAZARD_RED if car.status in ("out", "retired") else ink, align="c", bold=car.to_act,
                           min_size=size, pad=pad, what=what + "state"))
        out.append(fit_box(damage_text(car, lang), (px(COLUMNS["name"][0]), low, px(COLUMNS["state"][1]),
                                                    low + px(DAMAGE_H)),
                           size, P.PANEL_MUTED, min_size=size, pad=pad, what=what + "damage"))
        y = low + px(DAMAGE_H)
    y += px(PAD)
    out.append(provisional_box(y, options))
    return out


def provisional_box(top: float, options: RenderOptions) -> TextBox:
    """The words "provisional rules" (B13) in the band at `top`."""
    return fit_box(word("dirt_provisional", options.lang), (0, top, options.width, top + options.px(BAND_H)),
                   options.px(26), C.PROVISIONAL_TEXT, align="c", bold=True, min_size=options.px(MIN_FONT_PX),
                   pad=options.px(PAD), what="provisional rules")


def draw_provisional(d: ImageDraw.ImageDraw, top: float, options: RenderOptions) -> None:
    d.rectangle((0, top, options.width, top + options.px(BAND_H)), fill=C.PROVISIONAL_BG)
    provisional_box(top, options).draw(d)


def draw_table(canvas: Image.Image, view: BoardView, top: int, options: RenderOptions) -> None:
    px, w = options.px, canvas.width
    d = ImageDraw.Draw(canvas)
    d.rectangle((0, top, w, canvas.height), fill=P.PANEL_BG)
    y = top + px(HEAD_H)
    for i, car in enumerate(view.cars):
        h = row_height(options)
        bg = P.PANEL_ACTIVE if car.to_act else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
        d.rectangle((0, y, w, y + h), fill=bg)
        if car.to_act:
            d.rectangle((0, y, px(6), y + h), fill=P.BLACK)
        colour = P.car_colour(car.colour)
        x0, x1 = px(COLUMNS["swatch"][0]), px(COLUMNS["swatch"][1])
        cy = y + px(LINE_H) / 2 + px(4)
        d.rounded_rectangle((x0, cy - px(20), x1, cy + px(20)), radius=px(8), fill=colour, outline=P.BLACK, width=2)
        fg, stroke = P.ink_on(colour)
        text_centered(d, ((x0 + x1) / 2, cy), initials(car.name), font(px(MIN_FONT_PX), bold=True), fg,
                      stroke=stroke, stroke_width=1)
        y += h
    for t in table_texts(view, top, options):
        if t.what == "provisional rules":
            draw_provisional(d, t.cell[1], options)
        else:
            t.draw(d)
