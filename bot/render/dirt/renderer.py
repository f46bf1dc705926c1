"""DIRT's renderer: the module its `Game.renderer` names, which the bot's renderer
(bot.services.images) draws a DIRT picture with, in a render worker.

- `render_board(stage, view, options)`: the board after a turn (map, cars, dice, table);
- `render_stage_preview(stage, options)`: the whole stage with its figures and a legend;
- `render_results(view, options)`: the classification card of a stage or of the rally;
- `space_pixel(stage, space, options, view)`: where a space's centre lands in the board image;
- the worker's hooks: `worker_init` (new layers drawn window first), `begin_draw` / `layer_to_warm`
  (a board that drew only its window names the layer to warm next), `warm` (a stage's static
  layer, kept in memory and on disk). DIRT has no weather: the layer's `snow` is always None.

Every picture says "provisional rules" in the reader's language (RULES B13).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.stages.model import DirtStage
from bot.engine.dirt.view import BoardView, ResultsView
from bot.render.dirt import static_layer
from bot.render.dirt.board import board_image, space_pixel
from bot.render.dirt.layout import board_layout
from bot.render.dirt.preview import preview_image
from bot.render.dirt.results import results_image
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS, RenderOptions

__all__ = ["begin_draw", "board_frame", "layer_to_warm",
           "preview_args", "render_board", "render_results", "render_stage_preview",
           "space_pixel", "warm", "worker_init"]


def render_board(stage: DirtStage, view: BoardView, options: RenderOptions | None = None) -> bytes:
    """PNG of the board after a turn."""
    options = options or DEFAULT_OPTIONS
    return to_png(board_image(stage, view, options), options.compress_level, options.palette)


def board_frame(stage: DirtStage, view: BoardView, options: RenderOptions | None = None) -> Image.Image:
    """The board after a turn as an RGB image, not encoded: a frame of an animated replay
    (bot.render.animation encodes the frames together)."""
    return board_image(stage, view, options or DEFAULT_OPTIONS)


def render_stage_preview(stage: DirtStage, options: RenderOptions | None = None) -> bytes:
    """PNG of the whole stage with its figures and a legend."""
    options = options or DEFAULT_OPTIONS
    return to_png(preview_image(stage, options), options.compress_level, options.palette)


def render_results(view: ResultsView, options: RenderOptions | None = None) -> bytes:
    """PNG of a stage's or the rally's classification."""
    options = options or DEFAULT_OPTIONS
    return to_png(results_image(view, options), options.compress_level, options.palette)


def preview_args(stage_name: str) -> tuple[DirtStage]:
    return (load_stage(stage_name),)


def worker_init() -> None:
    """In a render worker: a layer nobody drew yet is drawn window first (the bot warms the rest)."""
    static_layer.WINDOW_FIRST = True


def begin_draw() -> int:
    """Before a picture in a worker: the count of window-only layers so far (`layer_to_warm` compares)."""
    return static_layer.stats.windows


def layer_to_warm(before: int, kind: str, data: Mapping[str, Any],
                  lang: str) -> tuple[str, tuple[str, ...] | None, str] | None:
    """After a picture: the layer to warm (its stage, no weather, the language) when this board drew
    only its window."""
    if kind != "board" or static_layer.stats.windows == before:
        return None
    return (str(data["stage"]), None, lang)


def warm(stage_name: str, snow: tuple[str, ...] | None, options: RenderOptions) -> str:
    """The static layer of a stage's board (`snow` is ignored: DIRT has no weather), kept in memory and
    on disk; its file name."""
    stage = load_stage(stage_name)
    return static_layer.warm_layer(stage, board_layout(stage, options), options)
