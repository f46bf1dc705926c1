"""Rallyman classic's renderer: the module its `Game.renderer` names (bot.engine.rallyman.protocol),
which the bot's renderer (bot.services.images) draws a classic spec with, in a render worker.

- `render_board(stage, view, options)`: the board after a turn (map, cars, dice, table);
- `render_stage_preview(stage)`: the whole stage with its figures and zone legends;
- `render_results(results_view)`: the classification when a stage ends;
- `space_pixel(stage, space_id, options)`: where a space's centre lands in the board image;
- the worker's hooks: `worker_init` (new layers drawn window first), `begin_draw` / `layer_to_warm`
  (a board that drew only its window names the layer to warm next), `warm` (a stage's static
  layer, kept in memory and on disk).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.stages.weather import with_weather
from bot.engine.rallyman.view import BoardView, ResultsView
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.rallyman import static_layer
from bot.render.rallyman.board import board_image, space_pixel
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.preview import preview_image
from bot.render.rallyman.results import results_image

__all__ = ["begin_draw", "board_frame", "layer_to_warm",
           "render_board", "render_results", "render_stage_preview", "space_pixel",
           "warm", "worker_init"]

#: a worker hands freed memory back to the system every this many pictures (~4 ms, ~25 MB)
TRIM_EVERY = 100
_drawn = 0


def render_board(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> bytes:
    """PNG of the board after a turn."""
    options = options or DEFAULT_OPTIONS
    return to_png(board_image(stage, view, options), options.compress_level, options.palette)


def board_frame(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> Image.Image:
    """The board after a turn as an RGB image, not encoded: a frame of an animated replay
    (bot.render.animation encodes the frames together)."""
    return board_image(stage, view, options or DEFAULT_OPTIONS)


def render_stage_preview(stage: Stage, options: RenderOptions | None = None) -> bytes:
    """PNG of the whole stage with its figures and damage legends."""
    options = options or DEFAULT_OPTIONS
    return to_png(preview_image(stage, options), options.compress_level, options.palette)


def render_results(results_view: ResultsView, options: RenderOptions | None = None) -> bytes:
    """PNG of a stage's classification (DNF last)."""
    options = options or DEFAULT_OPTIONS
    return to_png(results_image(results_view, options), options.compress_level, options.palette)


def preview_args(stage_name: str) -> tuple[Stage]:
    return (load_stage(stage_name),)


def worker_init() -> None:
    """In a render worker: a layer nobody drew yet is drawn window first (the bot warms the rest)."""
    static_layer.WINDOW_FIRST = True


def begin_draw() -> int:
    """Before a picture in a worker: now and then memory goes back to the system; the count of
    window-only layers so far (what `layer_to_warm` compares with)."""
    global _drawn
    _drawn += 1
    if _drawn % TRIM_EVERY == 0:
        static_layer.release_memory()
    return static_layer.stats.windows


def layer_to_warm(before: int, kind: str, data: Mapping[str, Any],
                  lang: str) -> tuple[str, tuple[str, ...], str] | None:
    """After a picture: the layer to warm when this board drew only its window."""
    if kind != "board" or static_layer.stats.windows == before:
        return None
    return (str(data["stage"]), tuple(sorted(data["snow_zones"])), lang)  # its stage, the zones on their snow side


def warm(stage_name: str, snow: tuple[str, ...] | None, options: RenderOptions) -> str:
    """The static layer of a stage's board (its fixed weather, or the zones `snow` on their snow
    side), kept in memory and on disk."""
    stage = load_stage(stage_name)
    if snow is not None:
        stage = with_weather(stage, snow)
    return static_layer.warm_layer(stage, board_layout(stage, options), frozenset(stage.snow_zones), options)
