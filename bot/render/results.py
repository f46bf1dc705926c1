"""The results image posted when a stage ends: classification by time, gaps, DNF last (RULES A17).

For a rally of several specials the same image shows one column per special and the total.

Equal times share a rank (OPEN-5 default). Gaps are to the winner (+0:20); the engine may give
them, else they are computed here.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.view import ResultRow, ResultsView
from bot.render import palette as P
from bot.render.drawing import text_centered
from bot.render.fonts import MIN_FONT_PX, fit_text, font
from bot.render.formats import gap, mmss
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.panel import draw_header
from bot.render.words import LABELS

HEADER_H = 112
ROW_H = 60
HEAD_ROW_H = 44
COLUMNS_X = 470  # a rally's per-special columns: the first one's centre, then one every COLUMN_W
COLUMN_W = 90


def classification(view: ResultsView) -> list[tuple[str, ResultRow, int | None]]:
    """(rank text, row, gap seconds) in display order: finishers by time, ties shared, DNF last."""
    done = sorted(((r.time_s, r) for r in view.rows if r.status == "finished" and r.time_s is not None),
                  key=lambda timed: (timed[0], timed[1].tiebreak_s or 0, timed[1].name))
    dnf = sorted((r for r in view.rows if not (r.status == "finished" and r.time_s is not None)),
                 key=lambda r: r.name)
    out: list[tuple[str, ResultRow, int | None]] = []
    best = done[0][0] if done else 0
    rank = 0
    for i, (time_s, r) in enumerate(done):
        if i == 0 or time_s != done[i - 1][0]:
            rank = i + 1
        out.append((str(rank), r, r.gap_s if r.gap_s is not None else time_s - best))
    out += [("—", r, None) for r in dnf]
    return out


def results_image(view: ResultsView, options: RenderOptions | None = None) -> Image.Image:
    options = options or DEFAULT_OPTIONS
    px, w = options.px, options.width
    rows = classification(view)
    height = px(HEADER_H) + px(HEAD_ROW_H) + px(ROW_H) * max(1, len(rows)) + px(16)
    img = Image.new("RGB", (w, height), P.PANEL_BG)
    finished = sum(1 for r in view.rows if r.status == "finished" and r.time_s is not None)
    subtitle = view.subtitle or LABELS["classified"].format(n=finished)
    draw_header(img, f"{view.title} — {LABELS['results']}", 0, subtitle, px(HEADER_H), options)
    d = ImageDraw.Draw(img)
    y = px(HEADER_H)
    head = font(px(MIN_FONT_PX))
    cx = {"rank": px(44), "token": px(112), "name": px(160), "time": px(800), "gap": px(960)}
    name_w = px(560)
    columns = [px(COLUMNS_X + i * COLUMN_W) for i in range(len(view.columns))]
    if view.columns:  # a rally: one column per special, then the total
        name_w = px(COLUMNS_X - 180)
        cx["time"], cx["gap"] = px(850), px(985)
    d.text((cx["name"], y + px(HEAD_ROW_H) / 2), LABELS["driver"], font=head, fill=P.PANEL_MUTED, anchor="lm")
    for x, label in zip(columns, view.columns):
        d.text((x, y + px(HEAD_ROW_H) / 2), label, font=head, fill=P.PANEL_MUTED, anchor="mm")
    total_label = LABELS["total"] if view.columns else LABELS["time"]
    d.text((cx["time"], y + px(HEAD_ROW_H) / 2), total_label, font=head, fill=P.PANEL_MUTED, anchor="mm")
    d.text((cx["gap"], y + px(HEAD_ROW_H) / 2), LABELS["gap"], font=head, fill=P.PANEL_MUTED, anchor="mm")
    y += px(HEAD_ROW_H)
    big, bold = font(px(30), bold=True), font(px(28), bold=True)
    regular = font(px(28))
    for i, (rank, row, behind) in enumerate(rows):
        h = px(ROW_H)
        dnf = behind is None
        bg = (255, 236, 160) if rank == "1" else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
        d.rectangle((0, y, w, y + h), fill=bg)
        cy = y + h / 2
        ink = P.PANEL_MUTED if dnf else P.PANEL_TEXT
        d.text((cx["rank"], cy), rank, font=big, fill=ink, anchor="mm")
        colour = P.car_colour(row.colour)
        tw, th = px(52), px(38)
        d.rounded_rectangle((cx["token"] - tw / 2, cy - th / 2, cx["token"] + tw / 2, cy + th / 2), radius=th * 0.3,
                            fill=colour, outline=P.BLACK, width=2)
        fg, stroke = P.ink_on(colour)
        initials = (row.initials or "".join(p[0] for p in row.name.split()[:2]) or "?")[:3]
        text_centered(d, (cx["token"], cy), initials, font(px(MIN_FONT_PX), bold=True), fg, stroke=stroke,
                      stroke_width=1)
        d.text((cx["name"], cy), fit_text(row.name, bold, name_w), font=bold, fill=ink, anchor="lm")
        small = font(px(MIN_FONT_PX))
        for x, seconds in zip(columns, row.times):
            d.text((x, cy), mmss(seconds) if seconds is not None else "—", font=small, fill=ink, anchor="mm")
        if behind is None:  # DNF
            d.text((cx["time"], cy), LABELS["dnf"], font=bold, fill=P.HAZARD_RED, anchor="mm")
        else:
            assert row.time_s is not None, "classification() gives a gap to timed rows only"
            d.text((cx["time"], cy), mmss(row.time_s), font=bold, fill=ink, anchor="mm")
            d.text((cx["gap"], cy), gap(behind), font=regular, fill=ink, anchor="mm")
        y += h
    return img
