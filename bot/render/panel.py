"""The text parts of a board image: the status header above the map and the drivers' table below.

Header: stage title, round and the one-line status (whose turn, deadline, result). Table, one row
per driver in road order (finished first by time, then the cars on the road from the leader back,
then those waiting at the start, knocked-out drivers last): colour token with initials, name,
gear, chrono m:ss (RULES A15.2), ⚠ this turn, damage as dice symbols (black dice lost, white dice
lost, A12), spare tire (A14), second markers (A18). Above it, the dice of the turn just played.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.stage_model import FINISH, START, Stage
from bot.engine.view import BoardView, CarView
from bot.render import palette as P
from bot.render.dice import die_badge, hazard_triangle
from bot.render.drawing import text_centered
from bot.render.fonts import MIN_FONT_PX, fit_text, font
from bot.render.formats import mmss
from bot.render.options import RenderOptions
from bot.render.words import LABELS

ROW_H = 52
TABLE_HEAD_H = 40
DICE_ROW_H = 62
PAD_BOTTOM = 14
# column x positions (design px at 1080 wide)
COL = {"pos": 26, "token": 72, "name": 106, "gear": 470, "time": 566, "hazard": 664,
       "damage": 722, "spare": 900, "seconds": 1000}


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


def draw_header(canvas: Image.Image, title: str, round_no: int, status: str, height: int,
                options: RenderOptions) -> None:
    d = ImageDraw.Draw(canvas)
    w, px = canvas.width, options.px
    d.rectangle((0, 0, w, height), fill=P.HEADER_BG)
    big, small = font(px(36), bold=True), font(max(px(MIN_FONT_PX), px(26)))
    right = LABELS["round"].format(n=round_no) if round_no else ""
    rw = font(px(28), bold=True).getlength(right)
    d.text((px(20), px(14)), fit_text(title, big, w - rw - px(60)), font=big, fill=P.HEADER_TEXT)
    if right:
        d.text((w - px(20) - rw, px(20)), right, font=font(px(28), bold=True), fill=P.FINISH_YELLOW)
    if status:
        d.text((px(20), px(64)), fit_text(status, small, w - px(40)), font=small, fill=P.HEADER_MUTED)


def draw_table(canvas: Image.Image, stage: Stage, view: BoardView, top: int, options: RenderOptions) -> None:
    d = ImageDraw.Draw(canvas)
    px, w = options.px, canvas.width
    d.rectangle((0, top, w, canvas.height), fill=P.PANEL_BG)
    y = top
    if view.path:
        _dice_row(d, view, y, options)
        y += px(DICE_ROW_H)
    head = font(px(MIN_FONT_PX))
    for col, key in (("name", "driver"), ("gear", "gear"), ("time", "time"), ("damage", "damage"),
                     ("spare", "spare"), ("seconds", "seconds")):
        anchor = "lm" if col == "name" else "mm"
        d.text((px(COL[col]) if col == "name" else _mid(col, px), y + px(TABLE_HEAD_H) / 2), LABELS[key],
               font=head, fill=P.PANEL_MUTED, anchor=anchor)
    hazard_triangle(d, (_mid("hazard", px), y + px(TABLE_HEAD_H) / 2), px(26))
    y += px(TABLE_HEAD_H)
    for i, car in enumerate(road_order(stage, view.cars)):
        _row(d, car, i, y, w, options)
        y += px(ROW_H)


def _mid(col: str, px) -> float:
    """Centre x of a column."""
    keys = list(COL)
    i = keys.index(col)
    right = COL[keys[i + 1]] if i + 1 < len(keys) else 1080
    if col in ("gear", "time", "hazard", "damage", "spare"):
        return px((COL[col] + right) / 2)
    return px(COL[col] + 40)


def _row(d: ImageDraw.ImageDraw, car: CarView, i: int, y: float, w: int, options: RenderOptions) -> None:
    px = options.px
    h = px(ROW_H)
    bg = P.PANEL_ACTIVE if car.active else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
    d.rectangle((0, y, w, y + h), fill=bg)
    if car.active:
        d.rectangle((0, y, px(8), y + h), fill=P.BLACK)
    out = car.status == "out"
    ink = P.PANEL_MUTED if out else P.PANEL_TEXT
    cy = y + h / 2
    regular, bold = font(px(26)), font(px(26), bold=True)
    d.text((px(COL["pos"]), cy), str(i + 1), font=font(px(24), bold=True), fill=P.PANEL_MUTED, anchor="mm")
    _token(d, car, (px(COL["token"]) + px(4), cy), px(44), px(34), options)
    name = fit_text(car.name, bold, px(COL["gear"] - COL["name"] - 14))
    d.text((px(COL["name"]), cy), name, font=bold, fill=ink, anchor="lm")
    if out:
        gear = LABELS["dnf"]
    elif car.space == FINISH or car.status == "finished":
        gear = LABELS["finished"]
    elif car.space == START or car.status == "waiting":
        gear = "—"
    else:
        gear = str(car.gear)
    d.text((_mid("gear", px), cy), gear, font=bold, fill=P.HAZARD_RED if out else ink, anchor="mm")
    time_text = mmss(car.chrono_s) if (car.chrono_s or car.status != "waiting") else "—"
    d.text((_mid("time", px), cy), time_text, font=bold if car.status == "finished" else regular, fill=ink,
           anchor="mm")
    hz = str(car.hazards) if car.hazards else "·"
    d.text((_mid("hazard", px), cy), hz, font=bold, fill=P.HAZARD_RED if car.hazards else P.PANEL_MUTED,
           anchor="mm")
    _damage(d, car, px(COL["damage"]) + px(6), cy, options)
    _spare(d, car.spare, (_mid("spare", px), cy), px(15))
    sec = f"−{car.seconds_held}s" if car.seconds_held else "·"
    d.text((_mid("seconds", px), cy), sec, font=regular, fill=ink if car.seconds_held else P.PANEL_MUTED,
           anchor="mm")


def _token(d: ImageDraw.ImageDraw, car: CarView, centre, w: int, h: int, options: RenderOptions) -> None:
    """The driver's colour with initials, as on the map."""
    colour = P.car_colour(car.colour)
    x, y = centre
    d.rounded_rectangle((x - w / 2, y - h / 2, x + w / 2, y + h / 2), radius=h * 0.3, fill=colour,
                        outline=P.BLACK, width=2)
    fg, stroke = P.ink_on(colour)
    f = font(options.px(20) if len(car.initials) > 2 else options.px(MIN_FONT_PX), bold=True)
    text_centered(d, (x, y), car.initials[:3], f, fg, stroke=stroke, stroke_width=1)


def _damage(d: ImageDraw.ImageDraw, car: CarView, x: float, cy: float, options: RenderOptions) -> None:
    """■ per black die lost, □ per white die lost (flat tire); a dash when the car is intact."""
    s, gap = options.px(20), options.px(5)
    if not car.black_lost and not car.white_lost:
        d.text((options.px((COL["damage"] + COL["spare"]) / 2), cy), "·", font=font(options.px(26)),
               fill=P.PANEL_MUTED, anchor="mm")
        return
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


def _dice_row(d: ImageDraw.ImageDraw, view: BoardView, y: float, options: RenderOptions) -> None:
    """"Last turn · Name:" followed by the dice in the order rolled."""
    px = options.px
    h = px(DICE_ROW_H)
    d.rectangle((0, y, options.width, y + h), fill=P.PANEL_ALT)
    who = next((c for c in view.cars if c.driver_id == view.path_driver), None)
    label = LABELS["last_turn"] + (f" · {who.name}" if who else "")
    f = font(px(24), bold=True)
    label = fit_text(label, f, px(520))
    cy = y + h / 2
    d.text((px(20), cy), label, font=f, fill=P.PANEL_TEXT, anchor="lm")
    x = px(20) + f.getlength(label) + px(30)
    size = px(38)
    for step in view.path:
        die_badge(d, (x, cy), step.die, step.hazard, size)
        x += size + px(14)
    hazards = sum(1 for s in view.path if s.hazard)
    if hazards:
        d.text((x + px(6), cy), f"= {hazards} ⚠", font=f, fill=P.HAZARD_RED, anchor="lm")
