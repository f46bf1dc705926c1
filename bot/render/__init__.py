"""Board images for spectators (issue 5): pure Pillow, state + view options in, PNG bytes out.

- `render_board(stage, view, options)`: the board after a turn (map, cars, dice, table);
- `render_stage_preview(stage)`: the whole stage with its figures and zone legends;
- `render_results(results_view)`: the classification when a stage ends;
- `render_table(table_view)`: a league table (round results, season standings, world ranking);
- `space_pixel(stage, space_id, options)`: where a space's centre lands in the board image.

Every word an image prints is in `RenderOptions.lang` (the catalogue's `data/i18n/<lang>/render.json`,
see bot.render.words); a league table's texts may be messages (`Msg`), shown in that language too.

No discord and no database here: the bot draws in worker processes (bot.services.images).
"""

from __future__ import annotations

from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.view import BoardView, ResultsView
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.rallyman.board import board_image, space_pixel
from bot.render.rallyman.preview import preview_image
from bot.render.rallyman.results import results_image
from bot.render.table import TableView, table_image

__all__ = ["RenderOptions", "TableView", "render_board", "render_results", "render_stage_preview", "render_table",
           "space_pixel"]


def render_board(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> bytes:
    """PNG of the board after a turn."""
    options = options or DEFAULT_OPTIONS
    return to_png(board_image(stage, view, options), options.compress_level, options.palette)


def render_stage_preview(stage: Stage, options: RenderOptions | None = None) -> bytes:
    """PNG of the whole stage with its figures and damage legends."""
    options = options or DEFAULT_OPTIONS
    return to_png(preview_image(stage, options), options.compress_level, options.palette)


def render_results(results_view: ResultsView, options: RenderOptions | None = None) -> bytes:
    """PNG of a stage's classification (DNF last)."""
    options = options or DEFAULT_OPTIONS
    return to_png(results_image(results_view, options), options.compress_level, options.palette)


def render_table(view: TableView, options: RenderOptions | None = None) -> bytes:
    """PNG of a league table (see bot.render.table)."""
    options = options or DEFAULT_OPTIONS
    return to_png(table_image(view, options), options.compress_level, options.palette)
