"""The text parts of a board image: the status header above the map and the drivers' table below.

Header: stage title, "SS2/3" in a rally of several specials, round and the one-line status (whose
turn, deadline, result). Table, one row per driver in road order (finished first by time, then the
cars on the road from the leader back, then those waiting at the start, knocked-out drivers last):
colour token with initials, name, tires (with the weather module, A20.2), gear ("N" for neutral),
chrono m:ss (RULES A15.2), ⚠ this turn, damage as dice symbols (black dice lost, white dice lost,
A12), spare tire (A14), second markers (A18). Above it, the dice of the turn just played.

Every word is in the image's language (`options.lang`). The texts are placed as `TextBox`es with
the cell each must stay in (`header_texts`, `table_texts`): the drawing draws exactly those, and
the tests check every box in every language.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import FINISH, START, Stage
from bot.engine.rallyman.view import BoardView, CarView
from bot.render import palette as P
from bot.render.ai_mark import draw_ai_mark, driven_by_ai
from bot.render.cache import ByteLRU, image_bytes
from bot.render.drawing import length, text_centered
from bot.render.fonts import BOARD_FONT_PX, fitting_font
from bot.render.formats import mmss
from bot.render.header import MARGIN
from bot.render.options import RenderOptions
from bot.render.rallyman.dice import die_badge, hazard_triangle
from bot.render.textbox import TextBox, fit_box
from bot.render.words import word

ROW_H = 60
TABLE_HEAD_H = 48
DICE_ROW_H = 76
PAD_BOTTOM = 14
ROW_TEXT = 36  # a row's gear word, shrunk down to BOARD_FONT_PX when it is long
DIE = 54  # a die of the last turn's band: its face at least BOARD_FONT_PX (bot.render.rallyman.dice)
HEAD_PAD = 4  # least space between a centred text and its column's edges
# column x positions (design px at 1080 wide)
COL = {"pos": 24, "token": 78, "name": 124, "gear": 440, "time": 568, "hazard": 680,
       "damage": 732, "spare": 880, "seconds": 980}
TIRES_X = 276  # the tires column's left edge, when the weather module shows one (it narrows the names)


def panel_height(view: BoardView, options: RenderOptions) -> int:
    rows = len(view.cars)
    dice = DICE_ROW_H if view.path else 0
    return options.px(dice + TABLE_HEAD_H + ROW_H * rows + PAD_BOTTOM)


def road_order(stage: Stage, cars: tuple[CarView, ...]) -> list[CarView]:
    """Finished by time, then on the road from the leader back, then at the start, then out."""
    def key(c: CarView):
        if c.status == "out":
            return (3, 0.0, c.chrono_s)
        if c.space == FINISH or c.status == "finished":
            return (0, c.place or 0, c.chrono_s - c.seconds_held)
        if c.space == START:
            return (2, 0.0, 0)
        return (1, -stage.spaces[c.space].progress, c.chrono_s)
    return sorted(cars, key=key)


def _name_cell(top: float, bottom: float, px, tires: bool = False) -> tuple[float, float, float, float]:
    """The name column's cell: its text starts at COL["name"] (MARGIN inside) and leaves 14 px free
    before the gear column, or before the tires column when the table shows one."""
    return px(COL["name"] - MARGIN), top, px((TIRES_X if tires else COL["gear"]) - 14 + MARGIN), bottom


def _tires_cell(top: float, bottom: float, px) -> tuple[float, float, float, float]:
    """The tires column (weather module, RULES A20.2): between the name and the gear."""
    return px(TIRES_X), top, px(COL["gear"]), bottom


def tires_word(tires: str, lang: str) -> str:
    """A car's tires as the table prints them: "❄ snow" or "asphalt" in `lang`."""
    return word("tires_snow", lang) if tires == "snow" else word("tires_asphalt", lang)


def _cell(col: str, top: float, bottom: float, px) -> tuple[float, float, float, float]:
    """A column's cell between `top` and `bottom` (from its x to the next column's)."""
    keys = list(COL)
    i = keys.index(col)
    right = COL[keys[i + 1]] if i + 1 < len(keys) else 1080
    return px(COL[col]), top, px(right), bottom


def table_texts(stage: Stage, view: BoardView, top: int, options: RenderOptions) -> list[TextBox]:
    """Every text of the panel under the map: the last turn's label, the column heads, the rows."""
    y, out = _head_texts(view, top, options)
    for i, car in enumerate(road_order(stage, view.cars)):
        out += _row_texts(car, i, y, options)
        y += options.px(ROW_H)
    return out


def _head_texts(view: BoardView, top: int, options: RenderOptions) -> tuple[int, list[TextBox]]:
    """The texts above the rows (the last turn's label, the column heads) and the first row's top."""
    px, lang = options.px, options.lang
    out: list[TextBox] = []
    y = top
    if view.path:
        out += _dice_texts(view, y, options)
        y += px(DICE_ROW_H)
    bottom = y + px(TABLE_HEAD_H)
    tires = any(c.tires for c in view.cars)
    # the ⚠ and spare tire columns are headed by their symbols (`draw_table`): their words are too
    # wide for a phone's column
    for col, key in (("name", "driver"), ("gear", "gear"), ("time", "time"), ("damage", "damage"),
                     ("seconds", "seconds")):
        cell = _name_cell(y, bottom, px, tires) if col == "name" else _cell(col, y, bottom, px)
        out.append(fit_box(word(key, lang), cell, px(BOARD_FONT_PX), P.PANEL_MUTED, align="l" if col == "name" else "c",
                           pad=px(MARGIN) if col == "name" else px(HEAD_PAD), what=f"table head {key}"))
    if tires:
        out.append(fit_box(word("tires", lang), _tires_cell(y, bottom, px), px(BOARD_FONT_PX), P.PANEL_MUTED,
                           align="c", min_size=px(BOARD_FONT_PX), pad=px(HEAD_PAD), what="table head tires"))
    return bottom, out


#: memory kept for drawn rows of the drivers' table in one process (~0.2 MB a row at 1080 px):
#: from one turn to the next only the rows of the cars that moved change
ROW_CACHE_BYTES = 4 * 1024 * 1024
_rows: ByteLRU[Image.Image] = ByteLRU(ROW_CACHE_BYTES, "classic_panel_rows", share=4)


def draw_table(canvas: Image.Image, stage: Stage, view: BoardView, top: int, options: RenderOptions) -> None:
    d = ImageDraw.Draw(canvas)
    px, w = options.px, canvas.width
    d.rectangle((0, top, w, canvas.height), fill=P.PANEL_BG)
    y = top
    if view.path:
        _dice_row(canvas, d, view, y, options)
        y += px(DICE_ROW_H)
    hazard_triangle(canvas, d, (_mid("hazard", px), y + px(TABLE_HEAD_H) / 2), px(BOARD_FONT_PX))
    _spare(d, True, (_mid("spare", px), y + px(TABLE_HEAD_H) / 2), px(15))
    y, head = _head_texts(view, top, options)
    for i, car in enumerate(road_order(stage, view.cars)):
        canvas.paste(_row_image(car, i, w, options), (0, y))  # in order: each row covers the last one's bottom line
        y += px(ROW_H)
    for t in head:
        t.draw(d)


def _row_image(car: CarView, i: int, w: int, options: RenderOptions) -> Image.Image:
    """A driver's row with its texts, drawn at y = 0 (rows start on whole pixels, so the texts land
    on the very pixels they would on the board), one pixel taller than the row like its band."""
    key = (car, i, w, options)
    img = _rows.get(key)
    if img is None:
        img = Image.new("RGB", (w, options.px(ROW_H) + 1), P.PANEL_BG)
        d = ImageDraw.Draw(img)
        _row(d, car, i, 0, w, options)
        for t in _row_texts(car, i, 0, options):
            t.draw(d)
        _rows.put(key, img, image_bytes(img))
    return img


def _mid(col: str, px) -> float:
    """Centre x of a column."""
    keys = list(COL)
    i = keys.index(col)
    right = COL[keys[i + 1]] if i + 1 < len(keys) else 1080
    if col in ("gear", "time", "hazard", "damage", "spare"):
        return px((COL[col] + right) / 2)
    return px(COL[col] + 40)


def _row_texts(car: CarView, i: int, y: float, options: RenderOptions) -> list[TextBox]:
    """A driver's row: place, name, gear (or DNF / finished), time, ⚠ count, seconds held."""
    px, lang = options.px, options.lang
    bottom = y + px(ROW_H)
    out = car.status == "out"
    ink = P.PANEL_MUTED if out else P.PANEL_TEXT
    if out:
        gear = word("dnf", lang)
    elif car.space == FINISH or car.status == "finished":
        gear = word("finished", lang)
    elif car.status == "waiting":  # the text says "waiting to start": no gear yet
        gear = "—"
    else:
        gear = word("neutral", lang) if car.gear == 0 else str(car.gear)  # as the gear cards say (RULES A6.2)
    time_text = mmss(car.chrono_s) if (car.chrono_s or car.status != "waiting") else "—"
    what = f"row {i + 1} "
    size = px(BOARD_FONT_PX)
    texts = [
        fit_box(str(i + 1), (0, y, px(COL["pos"] * 2), bottom), size, P.PANEL_MUTED, align="c", bold=True,
                what=what + "place"),
        fit_box(car.name, _name_cell(y, bottom, px, car.tires is not None), size, ink, bold=True, pad=px(MARGIN),
                what=what + "name"),
        fit_box(gear, _cell("gear", y, bottom, px), px(ROW_TEXT), P.HAZARD_RED if out else ink, align="c", bold=True,
                min_size=size, pad=px(HEAD_PAD), what=what + "gear"),
        fit_box(time_text, _cell("time", y, bottom, px), size, ink, align="c", bold=car.status == "finished",
                min_size=size, pad=px(HEAD_PAD), what=what + "time"),
        fit_box(str(car.hazards) if car.hazards else "·", _cell("hazard", y, bottom, px), size,
                P.HAZARD_RED if car.hazards else P.PANEL_MUTED, align="c", bold=True, what=what + "hazards"),
    ]
    if car.tires is not None:
        texts.append(fit_box(tires_word(car.tires, lang), _tires_cell(y, bottom, px), size, ink, align="c",
                             min_size=size, pad=px(HEAD_PAD), what=what + "tires"))
    if not car.black_lost and not car.white_lost:
        texts.append(fit_box("·", _cell("damage", y, bottom, px), px(BOARD_FONT_PX), P.PANEL_MUTED, align="c",
                             what=what + "damage"))
    sec = f"−{car.seconds_held}s" if car.seconds_held else "·"
    texts.append(fit_box(sec, _cell("seconds", y, bottom, px), size, ink if car.seconds_held else P.PANEL_MUTED,
                         align="c", min_size=px(BOARD_FONT_PX), pad=px(HEAD_PAD), what=what + "seconds"))
    return texts


def _row(d: ImageDraw.ImageDraw, car: CarView, i: int, y: float, w: int, options: RenderOptions) -> None:
    """A driver's row without its texts: background, colour token, damage, spare tire."""
    px = options.px
    h = px(ROW_H)
    bg = P.PANEL_ACTIVE if car.active else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
    d.rectangle((0, y, w, y + h), fill=bg)
    if car.active:
        d.rectangle((0, y, px(8), y + h), fill=P.BLACK)
    cy = y + h / 2
    _token(d, car, (px(COL["token"]) + px(10), cy), px(62), px(44), options)
    _damage(d, car, px(COL["damage"]) + px(6), cy, options)
    _spare(d, car.spare, (_mid("spare", px), cy), px(15))


def _token(d: ImageDraw.ImageDraw, car: CarView, centre, w: int, h: int, options: RenderOptions) -> None:
    """The driver's colour with initials, as on the map."""
    colour = P.car_colour(car.colour)
    x, y = centre
    d.rounded_rectangle((x - w / 2, y - h / 2, x + w / 2, y + h / 2), radius=h * 0.3, fill=colour,
                        outline=P.BLACK, width=2)
    if driven_by_ai(car.driver_id):
        draw_ai_mark(d, (x - w / 2, y - h / 2 + options.px(7)), options.px(24))
    fg, stroke = P.ink_on(colour)
    size = options.px(BOARD_FONT_PX)
    f = fitting_font(car.initials[:3], size, size, w - options.px(4), bold=True)
    w = max(w, round(length(f, car.initials[:3])) + options.px(8))  # three wide initials widen the token
    text_centered(d, (x, y), car.initials[:3], f, fg, stroke=stroke, stroke_width=1)


def _damage(d: ImageDraw.ImageDraw, car: CarView, x: float, cy: float, options: RenderOptions) -> None:
    """■ per black die lost, □ per white die lost (flat tire); a dot (a text) when the car is intact."""
    s, gap = options.px(20), options.px(5)
    for _ in range(min(car.black_lost, 5)):
        d.rectangle((x, cy - s / 2, x + s, cy + s / 2), fill=P.BLACK)
        x += s + gap
    if car.black_lost and car.white_lost:
        x += gap * 2
    for _ in range(min(car.white_lost, 2)):
        d.rectangle((x, cy - s / 2, x + s, cy + s / 2), fill=P.WHITE, outline=P.BLACK, width=2)
        x += s + gap


def _spare(d: ImageDraw.ImageDraw, available: bool, centre, r: int) -> None:
    """A tire: solid when the spare is still there, faint outline once used."""
    x, y = centre
    if available:
        d.ellipse((x - r, y - r, x + r, y + r), fill=P.ROAD_EDGE)
        d.ellipse((x - r * 0.45, y - r * 0.45, x + r * 0.45, y + r * 0.45), fill=(200, 200, 200))
    else:
        d.ellipse((x - r, y - r, x + r, y + r), outline=P.PANEL_MUTED, width=2)
        d.line((x - r, y + r, x + r, y - r), fill=P.PANEL_MUTED, width=2)


def _dice_texts(view: BoardView, y: float, options: RenderOptions) -> list[TextBox]:
    """"Last turn · Name" (shrunk, then cut to its cell) and, after the dice, "= 2 ⚠"."""
    px = options.px
    h = px(DICE_ROW_H)
    who = next((c for c in view.cars if c.driver_id == view.path_driver), None)
    label = word("last_turn", options.lang) + (f" · {who.name}" if who else "")
    out = [fit_box(label, (px(20 - MARGIN), y, px(540 + MARGIN), y + h), px(BOARD_FONT_PX), P.PANEL_TEXT, bold=True,
                   min_size=px(BOARD_FONT_PX), pad=px(MARGIN), what="last turn")]
    hazards = sum(1 for s in view.path if s.hazard)
    if hazards:
        x = _dice_x(out[0], options) + (px(DIE) + px(14)) * len(view.path) + px(6)
        out.append(fit_box(f"= {hazards} ⚠", (x - px(MARGIN), y, options.width, y + h), px(BOARD_FONT_PX), P.HAZARD_RED,
                           bold=True, pad=px(MARGIN), what="last turn hazards"))
    return out


def _dice_x(label: TextBox, options: RenderOptions) -> float:
    """Centre x of the first die after the last turn's label."""
    return label.xy[0] + length(label.font, label.text) + options.px(30)


def _dice_row(canvas: Image.Image, d: ImageDraw.ImageDraw, view: BoardView, y: float, options: RenderOptions) -> None:
    """The band of the last turn: the dice in the order rolled (its texts are `_dice_texts`)."""
    px = options.px
    h = px(DICE_ROW_H)
    d.rectangle((0, y, options.width, y + h), fill=P.PANEL_ALT)
    x = _dice_x(_dice_texts(view, y, options)[0], options)
    cy = y + h / 2
    size = px(DIE)
    for step in view.path:
        die_badge(canvas, d, (x, cy), step.die, step.hazard, size, options.lang)
        x += size + px(14)
