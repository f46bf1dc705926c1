"""Road Rally USA's renderer: the module its `Game.renderer` names, which the bot's renderer
(bot.services.images) draws a Road Rally USA picture with, in a render worker.

- `render_board(road, view, options, names=None)`: the board after a move, from the spectators'
  view only (`view(state, None)`, RULES C10.8; a view with `me` is refused);
- `render_stage_preview(road, options)`: the course alone with its legend;
- `render_results`: not yet (the final VP table is for a later change);
- the worker's hooks: no static layer is kept yet (a standard course's board: ~12 ms to draw,
  ~50 ms with its PNG, bench/render_roadrally.py), so `worker_init` does nothing, `begin_draw` /
  `layer_to_warm` never ask for a layer and `warm` only draws the preview.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.road import Road
from bot.engine.roadrally.view import RRView
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.roadrally.board import board_image, preview_image

__all__ = ["begin_draw", "layer_to_warm", "preview_args", "render_board", "render_stage_preview", "warm",
           "worker_init"]


def render_board(road: Road, view: RRView, options: RenderOptions | None = None,
                 names: Mapping[str, str] | None = None) -> bytes:
    """PNG of the board after a move; `names`: each seat's shown name (default: its seat id)."""
    options = options or DEFAULT_OPTIONS
    return to_png(board_image(road, view, options, names), options.compress_level, options.palette)


def render_stage_preview(road: Road, options: RenderOptions | None = None) -> bytes:
    """PNG of the course alone with its legend."""
    options = options or DEFAULT_OPTIONS
    return to_png(preview_image(road, options), options.compress_level, options.palette)


def preview_args(course_name: str) -> tuple[Road]:
    return (load_course(course_name),)


def worker_init() -> None:
    """Nothing to set up: no static layer is kept yet."""


def begin_draw() -> int:
    return 0


def layer_to_warm(before: int, kind: str, data: Mapping[str, Any], lang: str) -> None:
    """No layer to warm: every picture is drawn whole."""
    return None


def warm(course_name: str, snow: tuple[str, ...] | None, options: RenderOptions) -> str:
    """Draws the course's preview once (fonts and text masks warm); no file is kept."""
    render_stage_preview(load_course(course_name), options)
    return ""
