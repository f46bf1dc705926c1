"""Road Rally USA's renderer: the module its `Game.renderer` names, which the bot's renderer
(bot.services.images) draws a Road Rally USA picture with, in a render worker.

- `render_board(road, view, names, options)`: the board after a move, from the spectators' view
  only (`view(state, None)`, RULES C10.8; a view with `me` is refused). The services call it with
  the arguments `bot.engine.roadrally.pictures.picture_args("board", data)` gives (road, view,
  names), then the options; the tests and benches' order (road, view, options, names) is accepted
  too: the two are told apart by their types;
- `render_stage_preview(road, options)`: the course alone with its legend;
- `render_results(view, options)`: the classification card (`ResultsData`, bot.render.roadrally.results);
- the worker's hooks: no static layer is kept yet (a standard course's board: ~12 ms to draw,
  ~50 ms with its PNG, bench/render_roadrally.py), so `worker_init` does nothing, `begin_draw` /
  `layer_to_warm` never ask for a layer and `warm` only draws the preview.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from bot.engine.roadrally.library import ROADRALLY_COURSES
from bot.engine.roadrally.picture_data import ResultsData
from bot.engine.roadrally.road import Road
from bot.engine.roadrally.view import RRView
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.roadrally.board import board_image, preview_image
from bot.render.roadrally.results import results_image

__all__ = ["begin_draw", "board_frame", "layer_to_warm",
           "preview_args", "render_board", "render_results", "render_stage_preview",
           "warm", "worker_init"]

Names = Mapping[str, str]


def render_board(road: Road, view: RRView, names: Names | RenderOptions | None = None,
                 options: RenderOptions | Names | None = None) -> bytes:
    """PNG of the board after a move; `names`: each seat's shown name (default: its seat id).
    `names` and `options` may come in either order (see the module's docstring)."""
    if isinstance(names, RenderOptions) or (isinstance(options, Mapping) and not isinstance(names, Mapping)):
        names, options = options, names
    if not (options is None or isinstance(options, RenderOptions)) or isinstance(names, RenderOptions):
        raise TypeError("render_board(road, view, names, options): names is a mapping, options RenderOptions")
    options = options or DEFAULT_OPTIONS
    return to_png(board_image(road, view, options, names), options.compress_level, options.palette)


def board_frame(road: Road, view: RRView, names: Names, options: RenderOptions | None = None) -> Image.Image:
    """The board after a move as an RGB image, not encoded: a frame of an animated replay
    (bot.render.animation encodes the frames together); the spectators' view only, as `render_board`."""
    return board_image(road, view, options or DEFAULT_OPTIONS, names)


def render_results(view: ResultsData, options: RenderOptions | None = None) -> bytes:
    """PNG of the classification card (its texts already in the reader's words)."""
    options = options or DEFAULT_OPTIONS
    return to_png(results_image(view, options), options.compress_level, options.palette)


def render_stage_preview(road: Road, options: RenderOptions | None = None) -> bytes:
    """PNG of the course alone with its legend."""
    options = options or DEFAULT_OPTIONS
    return to_png(preview_image(road, options), options.compress_level, options.palette)


def preview_args(course_name: str) -> tuple[Road]:
    """A course's road by the name a rally gives (`standard` and `sprint`: seed 0's layout)."""
    return (ROADRALLY_COURSES.road(course_name),)


def worker_init() -> None:
    """Nothing to set up: no static layer is kept yet."""


def begin_draw() -> int:
    return 0


def layer_to_warm(before: int, kind: str, data: Mapping[str, Any], lang: str) -> None:
    """No layer to warm: every picture is drawn whole."""
    return None


def warm(course_name: str, snow: tuple[str, ...] | None, options: RenderOptions) -> str:
    """Draws the course's preview once (fonts and text masks warm); no file is kept."""
    render_stage_preview(ROADRALLY_COURSES.road(course_name), options)
    return ""
