"""Road Rally USA's classification card (RULES C8), posted when the game ends: place, driver,
finish mark and final VP, and under each driver the parts of its VP (VP tiles, stage tiles and
checkpoints with what they are worth); retired drivers last, grey, unplaced. The footer states the
scoring rule and the tie-break. Built from `ResultsData` only (what every seat may see).

Laid out by the shared `bot.render.table` (every text fitted and clipped to its cell, a row's
parts wrapped under it), like DIRT's and the league's cards. The order and places are the
engine's (`bot.engine.roadrally.pictures.final_lines`); the card draws them as given.
"""

from __future__ import annotations

from PIL import Image

from bot.engine.roadrally.picture_data import ResultLine, ResultsData
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.table import Column, TableRow, TableView, plain, table_image
from bot.render.words import word

EMPTY = "—"


def finish_cell(line: ResultLine, lang: str) -> str:
    """The finish column: the mark the car reached (C8), "retired", or a dash (not finished)."""
    if line.retired:
        return word("rr_retired", lang)
    return str(line.mark) if line.mark is not None else EMPTY


def parts(line: ResultLine, tile_vp: int, checkpoint_vp: int, lang: str) -> str:
    """The line under a driver: its VP tiles, stage tiles and checkpoints, each with its worth."""
    return word("rr_card_parts", lang, vp=line.vp_tiles, tiles=line.stage_tiles, tile_points=line.stage_tiles * tile_vp,
                checkpoints=line.checkpoints, checkpoint_points=line.checkpoints * checkpoint_vp)


def table_view(view: ResultsData, lang: str) -> TableView:
    """The card as the shared table draws it, every word in `lang`."""
    columns = (Column(label="", align="c", weight=0.7), Column(label=word("driver", lang), align="l", weight=4.2),
               Column(label=word("rr_col_finish", lang), align="c", weight=1.9),
               Column(label=word("rr_col_vp", lang), align="c", weight=1.7))
    rows = tuple(TableRow(cells=(str(line.place) if line.place is not None else EMPTY, plain(line.name),
                                 finish_cell(line, lang), str(line.vp)),
                          muted=line.retired, detail=parts(line, view.tile_vp, view.checkpoint_vp, lang))
                 for line in view.rows)
    return TableView(title=plain(view.title), subtitle=plain(view.subtitle), columns=columns, rows=rows,
                     note=plain(view.note))


def results_image(view: ResultsData, options: RenderOptions | None = None) -> Image.Image:
    """The classification card as an RGB image `options.width` wide, its words in `options.lang`."""
    options = options or DEFAULT_OPTIONS
    return table_image(table_view(view, options.lang), options)
