"""Putting a board image together: header, map (static layer + overlay), overview strip, table.

Pure: stage + view + options in, image out; every word in `options.lang`. The static layer comes
from the cache, so a turn costs one copy of it, a few sprite pastes and some text (see
bench/render.py).
"""

from __future__ import annotations

from PIL import Image

from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.view import BoardView
from bot.render import palette as P
from bot.render.fonts import BOARD_FONT_PX
from bot.render.frame import Frame
from bot.render.header import header_texts
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.painter import Header, board_canvas, paste_window
from bot.render.rallyman.camera import camera_window, draw_overview, draw_window_labels, window_labels
from bot.render.rallyman.layout import MapLayout, board_layout
from bot.render.rallyman.overlay import DirtTag, dirt_tags, draw_overlay
from bot.render.rallyman.panel import draw_table, panel_height, table_texts
from bot.render.rallyman.placement import Placed, place_cars, world_position
from bot.render.rallyman.static_layer import MapLabel, static_window
from bot.render.textbox import TextBox


def snow_of(stage: Stage, view: BoardView | None) -> frozenset[str]:
    """Zones on their snow side: the stage's fixed weather plus the rally's (RULES A20.1)."""
    return frozenset(stage.snow_zones) | (view.snow_zones if view is not None else frozenset())


def board_window(stage: Stage, view: BoardView | None, options: RenderOptions,
                 placed: list[Placed] | None = None) -> tuple[MapLayout, tuple[int, int]]:
    """The layout of this board (a camera window may be cut lower than the stage's: see
    bot.render.rallyman.camera) and the top-left of its window in the static layer ((0, 0) unless
    it is a camera view)."""
    if placed is None:
        placed = place_cars(stage, view) if view is not None else []
    return camera_window(stage, view, placed, snow_of(stage, view), options, board_layout(stage, options))


def map_frame(layout: MapLayout, origin: tuple[int, int]) -> Frame:
    """Space units → pixels of the final image."""
    return layout.frame.shifted(-origin[0], layout.map_top - origin[1])


def board_image(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> Image.Image:
    """The board after a turn, as a Pillow image (RGB)."""
    options = options or DEFAULT_OPTIONS
    snow = snow_of(stage, view)
    placed = place_cars(stage, view)
    layout, origin = board_window(stage, view, options, placed)

    def paint_map(canvas: Image.Image) -> None:
        paste_window(canvas, layout.map_top, layout.map_size, layout.static_size, origin, P.PAPER,
                     lambda box: static_window(stage, layout, snow, options, box))
        draw_window_labels(canvas, stage, layout, snow, options, origin)
        draw_overlay(canvas, stage, view, map_frame(layout, origin), placed, options, map_window(layout))
        if layout.mode == "camera":
            draw_overview(canvas, stage, layout, snow, placed, _window_in_overview(layout, origin), options)

    # not cleared: every pixel is painted (header and table bands, the overview strip, and the map
    # band, PAPER first where the layer does not cover the window)
    return board_canvas(options, Header(view.title, view.round, view.status, (view.special, view.specials)),
                        layout.header_h, layout.body_bottom, layout.body_bottom + panel_height(view, options),
                        paint_map, lambda canvas, top: draw_table(canvas, stage, view, top, options))


def board_texts(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> list[TextBox]:
    """The header's and the table's texts of the board image, each with its cell (for the tests:
    the drawing draws these very boxes)."""
    options = options or DEFAULT_OPTIONS
    layout, _ = board_window(stage, view, options)
    return (header_texts(view.title, view.round, view.status, options.width, layout.header_h, options,
                         (view.special, view.specials), BOARD_FONT_PX)
            + table_texts(stage, view, layout.body_bottom, options))


def board_labels(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> list[MapLabel]:
    """The map labels seen in the board image, in its pixels (for the tests: a label the camera
    window cuts is among them, moved inside the window, as drawn)."""
    options = options or DEFAULT_OPTIONS
    layout, origin = board_window(stage, view, options)
    return [label for label, _ in window_labels(stage, layout, snow_of(stage, view), options, origin)]


def map_window(layout: MapLayout) -> tuple[float, float, float, float]:
    """The map's box in the board image (between the header and the overview strip or table)."""
    return 0, layout.map_top, layout.map_size[0], layout.map_top + layout.map_size[1]


def dirt_boxes(stage: Stage, view: BoardView, options: RenderOptions | None = None) -> list[DirtTag]:
    """The dirt tags of the board image, in image pixels (for the tests)."""
    options = options or DEFAULT_OPTIONS
    layout, origin = board_window(stage, view, options)
    return dirt_tags(stage, view, map_frame(layout, origin), options, map_window(layout))


def _window_in_overview(layout: MapLayout, origin: tuple[int, int]) -> tuple[float, float, float, float]:
    """The camera window drawn as a frame on the overview strip (both views share one rotation)."""
    f, o = layout.frame, layout.strip()[0]
    k = o.ppu / f.ppu

    def conv(x: float, y: float) -> tuple[float, float]:
        return (x + f.origin_x) * k - o.origin_x, (y + f.origin_y) * k - o.origin_y
    a = conv(origin[0], origin[1])
    b = conv(origin[0] + layout.map_size[0], origin[1] + layout.map_size[1])
    return a[0], a[1], b[0], b[1]


def space_pixel(stage: Stage, space_id: int, options: RenderOptions | None = None,
                view: BoardView | None = None) -> tuple[int, int]:
    """Pixel centre of a space (or of the START / FINISH line) in the board image.

    In a camera view the window follows the play, so pass the `view` being drawn; without it the
    window is the one of a board with no cars.
    """
    options = options or DEFAULT_OPTIONS
    layout, origin = board_window(stage, view, options)
    x, y = map_frame(layout, origin).px(world_position(stage, space_id))
    return round(x), round(y)
