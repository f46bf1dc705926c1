"""The results image posted when a stage ends: classification by time, gaps, DNF last (RULES A17).

For a rally of several specials the same image shows one column per special (each special's fastest
time marked ★, its winner) and the total; after the last special the caller titles it the rally
classification. A DNF's reason, when the view gives one, follows "DNF".

Equal times share a rank (OPEN-5 default). Gaps are to the winner (+0:20); the engine may give
them, else they are computed here. Every word is in `options.lang`; every text is a `TextBox` fitted
to its column (`results_texts`), so the tests check that none leaves its cell in any language.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.core.ranking import shared_ranks
from bot.engine.rallyman.view import ResultRow, ResultsView
from bot.render import palette as P
from bot.render.drawing import text_centered
from bot.render.fonts import MIN_FONT_PX, font
from bot.render.formats import gap, mmss
from bot.render.header import header_texts
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.textbox import TextBox, fit_box
from bot.render.words import text, word

HEADER_H = 112
ROW_H = 60
HEAD_ROW_H = 44
COLUMNS_X = 470  # a rally's per-special columns: the first one's centre, then one every COLUMN_W
COLUMN_W = 90
CELL_PAD = 6  # least space between a centred text and its column's edges
NAME_PAD = 8  # the name column's cell begins this far before its text (glyphs such as J overhang)


def classification(view: ResultsView) -> list[tuple[str, ResultRow, int | None]]:
    """(rank text, row, gap seconds) in display order: finishers by time, ties shared, DNF last."""
    done = sorted(((r.time_s, r) for r in view.rows if r.status == "finished" and r.time_s is not None),
                  key=lambda timed: (timed[0], timed[1].tiebreak_s or 0, timed[1].name))
    dnf = sorted((r for r in view.rows if not (r.status == "finished" and r.time_s is not None)),
                 key=lambda r: r.name)
    out: list[tuple[str, ResultRow, int | None]] = []
    best = done[0][0] if done else 0
    for (time_s, r), rank in zip(done, shared_ranks([time_s for time_s, _ in done])):
        out.append((str(rank), r, r.gap_s if r.gap_s is not None else time_s - best))
    out += [("—", r, None) for r in dnf]
    return out


#: before a special's fastest time in a rally's classification (the legend says so in the subtitle)
WINNER_MARK = "★"


def special_bests(view: ResultsView) -> list[int | None]:
    """The fastest time of each special of a rally (None where nobody finished it): the specials'
    winners, marked in their columns."""
    out: list[int | None] = []
    for i in range(len(view.columns)):
        timed = [r.times[i] for r in view.rows if i < len(r.times) and r.times[i] is not None]
        out.append(min(t for t in timed if t is not None) if timed else None)
    return out


def _cells(view: ResultsView, options: RenderOptions) -> dict[str, tuple[float, float]]:
    """(left, right) of the rank, name, total time and gap columns; a rally's specials come between
    the name and the total, COLUMN_W each, centred from COLUMNS_X."""
    px = options.px
    if view.columns:  # a rally: one column per special, then the total
        return {"rank": (px(4), px(84)), "name": (px(160 - NAME_PAD), px(COLUMNS_X - COLUMN_W / 2)),
                "time": (px(785), px(915)), "gap": (px(915), px(1055))}
    return {"rank": (px(4), px(84)), "name": (px(160 - NAME_PAD), px(720)), "time": (px(720), px(880)),
            "gap": (px(880), px(1040))}


def _specials(view: ResultsView, options: RenderOptions) -> list[tuple[float, float]]:
    px = options.px
    return [(px(COLUMNS_X + i * COLUMN_W - COLUMN_W / 2), px(COLUMNS_X + i * COLUMN_W + COLUMN_W / 2))
            for i in range(len(view.columns))]


def results_texts(view: ResultsView, options: RenderOptions | None = None) -> list[TextBox]:
    """Every text of the results image with its cell: header, column heads, one line per driver."""
    options = options or DEFAULT_OPTIONS
    px, lang, w = options.px, options.lang, options.width
    rows = classification(view)
    finished = sum(1 for r in view.rows if r.status == "finished" and r.time_s is not None)
    subtitle = text(view.subtitle, lang) or word("classified", lang, n=finished)
    # a rally's title is given whole ("Rally classification", "SS1 — … — Results")
    title = text(view.title, lang) if view.columns else f"{text(view.title, lang)} — {word('results', lang)}"
    out = header_texts(title, 0, subtitle, w, px(HEADER_H), options)
    best = special_bests(view)
    cells, specials = _cells(view, options), _specials(view, options)
    pad = px(CELL_PAD)
    y: float = px(HEADER_H)
    bottom = y + px(HEAD_ROW_H)
    head = px(MIN_FONT_PX)

    def at(col: str, top: float, low: float) -> tuple[float, float, float, float]:
        return cells[col][0], top, cells[col][1], low
    out.append(fit_box(word("driver", lang), at("name", y, bottom), head, P.PANEL_MUTED, pad=px(NAME_PAD),
                       what="head driver"))
    for (x0, x1), label in zip(specials, view.columns):
        out.append(fit_box(text(label, lang), (x0, y, x1, bottom), head, P.PANEL_MUTED, align="c", pad=pad,
                           what="head special"))
    total = word("total", lang) if view.columns else word("time", lang)
    out.append(fit_box(total, at("time", y, bottom), head, P.PANEL_MUTED, align="c", pad=pad, what="head total"))
    out.append(fit_box(word("gap", lang), at("gap", y, bottom), head, P.PANEL_MUTED, align="c", pad=pad,
                       what="head gap"))
    y = bottom
    for i, (rank, row, behind) in enumerate(rows):
        low = y + px(ROW_H)
        ink = P.PANEL_MUTED if behind is None else P.PANEL_TEXT
        what = f"row {i + 1} "
        out.append(fit_box(rank, at("rank", y, low), px(30), ink, align="c", bold=True, min_size=px(MIN_FONT_PX),
                           what=what + "rank"))
        out.append(fit_box(row.name, at("name", y, low), px(28), ink, bold=True, min_size=px(24), pad=px(NAME_PAD),
                           what=what + "name"))
        for (x0, x1), seconds, fastest in zip(specials, row.times, best):
            won = seconds is not None and seconds == fastest
            shown = (f"{WINNER_MARK}{mmss(seconds)}" if won else mmss(seconds)) if seconds is not None else "—"
            out.append(fit_box(shown, (x0, y, x1, low), head, ink, align="c", bold=won, min_size=px(16), pad=px(4),
                               what=what + ("special_winner" if won else "special")))
        if behind is None:  # DNF, and why when the view says (over the total and gap columns)
            label = word("dnf", lang) + (f" · {text(row.reason, lang)}" if row.reason else "")
            out.append(fit_box(label, (cells["time"][0], y, cells["gap"][1], low), px(26), P.HAZARD_RED,
                               align="c", bold=True, min_size=px(16), pad=pad, what=what + "dnf"))
        else:
            assert row.time_s is not None, "classification() gives a gap to timed rows only"
            out.append(fit_box(mmss(row.time_s), at("time", y, low), px(28), ink, align="c", bold=True,
                               min_size=px(MIN_FONT_PX), pad=pad, what=what + "time"))
            out.append(fit_box(gap(behind), at("gap", y, low), px(28), ink, align="c", min_size=px(MIN_FONT_PX),
                               pad=pad, what=what + "gap"))
        y = low
    return out


def results_image(view: ResultsView, options: RenderOptions | None = None) -> Image.Image:
    """The classification as an RGB image `options.width` wide, its words in `options.lang`."""
    options = options or DEFAULT_OPTIONS
    px, w = options.px, options.width
    rows = classification(view)
    height = px(HEADER_H) + px(HEAD_ROW_H) + px(ROW_H) * max(1, len(rows)) + px(16)
    img = Image.new("RGB", (w, height), P.PANEL_BG)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, w, px(HEADER_H)), fill=P.HEADER_BG)
    y = px(HEADER_H) + px(HEAD_ROW_H)
    token_x = px(112)
    for i, (rank, row, _behind) in enumerate(rows):
        h = px(ROW_H)
        bg = (255, 236, 160) if rank == "1" else (P.PANEL_ALT if i % 2 else P.PANEL_BG)
        d.rectangle((0, y, w, y + h), fill=bg)
        cy = y + h / 2
        colour = P.car_colour(row.colour)
        tw, th = px(52), px(38)
        d.rounded_rectangle((token_x - tw / 2, cy - th / 2, token_x + tw / 2, cy + th / 2), radius=th * 0.3,
                            fill=colour, outline=P.BLACK, width=2)
        fg, stroke = P.ink_on(colour)
        initials = (row.initials or "".join(p[0] for p in row.name.split()[:2]) or "?")[:3]
        text_centered(d, (token_x, cy), initials, font(px(MIN_FONT_PX), bold=True), fg, stroke=stroke,
                      stroke_width=1)
        y += h
    for t in results_texts(view, options):
        t.draw(d)
    return img
