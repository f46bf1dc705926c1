"""DIRT's classification card, posted when a stage (or the rally) ends: rank, driver, one column
per stage, total and gap, drivers out or retired last with why; under it the "provisional rules"
band (B13), as on every DIRT image.

Laid out by the shared `bot.render.table` (every text fitted and clipped to its cell, a reason
wrapped under its row); the ranks and gaps are the engine's (`ResultRow.rank`, `gap`); rows without
a rank follow the ranked ones in the order given.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.dirt.view import ResultRow, ResultsView
from bot.render.dirt.panel import BAND_H, draw_provisional
from bot.render.formats import gap, mmss
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.table import Column, TableRow, TableView, plain, table_image
from bot.render.words import word

EMPTY = "—"


def ordered(view: ResultsView) -> list[ResultRow]:
    """Ranked rows by rank (then total), then the others as given (B13.8.10: knocked-out drivers last)."""
    ranked = sorted((r for r in view.rows if r.rank is not None),
                    key=lambda r: (r.rank or 0, r.total if r.total is not None else 0))
    return ranked + [r for r in view.rows if r.rank is None]


def table_view(view: ResultsView, lang: str) -> TableView:
    """The card as the shared table draws it, every word in `lang`."""
    columns = [Column(label="", align="c", weight=0.7), Column(label=word("driver", lang), align="l", weight=4.0)]
    columns += [Column(label=plain(c), align="c", weight=1.4) for c in view.columns]
    columns += [Column(label=word("total", lang), align="c", weight=1.6),
                Column(label=word("gap", lang), align="c", weight=1.6)]
    rows = []
    for row in ordered(view):
        out = row.status != "finished" or row.total is None
        times = [mmss(t) if t is not None else EMPTY for t in row.times]
        status = word("dnf", lang) if row.status == "out" else word("dirt_retired", lang)
        total = status if out else mmss(row.total or 0)
        shown_gap = EMPTY if out or row.gap is None else gap(row.gap)
        rank = str(row.rank) if row.rank is not None and not out else EMPTY
        rows.append(TableRow(cells=(rank, plain(row.name), *times, total, shown_gap), muted=out,
                             detail=plain(row.reason)))
    return TableView(title=plain(view.title), subtitle=plain(view.subtitle), columns=tuple(columns), rows=tuple(rows))


def results_image(view: ResultsView, options: RenderOptions | None = None) -> Image.Image:
    """The classification card as an RGB image `options.width` wide, its words in `options.lang`."""
    options = options or DEFAULT_OPTIONS
    table = table_image(table_view(view, options.lang), options)
    img = Image.new("RGB", (table.width, table.height + options.px(BAND_H)))
    img.paste(table, (0, 0))
    draw_provisional(ImageDraw.Draw(img), table.height, options)
    return img
