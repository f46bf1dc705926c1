"""Putting a DIRT board image together: header, map (static layer + overlay), overview strip on a
camera view, the drivers' table and the "provisional rules" band.

Pure: stage + view + options in, image out; every word in `options.lang`. The static layer comes
from its cache, so a turn costs one crop of it, the overlay and some text (see bench/render_dirt.py).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.dirt.stages.model import DirtStage
from bot.engine.dirt.view import BoardView
from bot.render import palette as P
from bot.render.cache import ByteLRU, image_bytes
from bot.render.dirt import colours as C
from bot.render.dirt.labels import draw_labels
from bot.render.dirt.layout import DirtLayout, board_layout, crop_origin
from bot.render.dirt.overlay import car_boxes, draw_overlay
from bot.render.dirt.panel import draw_table, panel_height, table_texts
from bot.render.dirt.shapes import Pt, space_centre, stage_shapes
from bot.render.dirt.static_layer import static_window
from bot.render.fonts import BOARD_FONT_PX
from bot.render.frame import Frame
from bot.render.header import header_texts
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.painter import Header, board_canvas, paste_window
from bot.render.textbox import TextBox


def focus_point(stage: DirtStage, view: BoardView) -> Pt:
    """Where the camera looks (stage units): the car to act, else the end of the turn's path, else
    the leading car on the track, else the start line."""
    on_track = [c for c in view.cars if c.space is not None and 0 <= c.space < len(stage.spaces)]
    acting = [c for c in on_track if c.to_act]
    if acting:
        return space_centre(stage, acting[0].space or 0)
    path = [s for s in view.path if 0 <= s < len(stage.spaces)]
    if path:
        return space_centre(stage, path[-1])
    if on_track:
        lead = max(on_track, key=lambda c: stage.spaces[c.space or 0].front)
        return space_centre(stage, lead.space or 0)
    a, b = stage_shapes(stage).start
    return (a[0] + b[0]) / 2, (a[1] + b[1]) / 2


def window_origin(stage: DirtStage, layout: DirtLayout, view: BoardView) -> tuple[int, int]:
    if layout.mode != "camera":
        return 0, 0
    return crop_origin(layout, layout.frame.px(focus_point(stage, view)))


def map_frame(layout: DirtLayout, origin: tuple[int, int]) -> Frame:
    """Stage units → pixels of the final image."""
    return layout.frame.shifted(-origin[0], layout.map_top - origin[1])


def map_window(layout: DirtLayout) -> tuple[float, float, float, float]:
    """The map's box in the board image (between the header and the overview strip or table)."""
    return 0, layout.map_top, layout.map_size[0], layout.map_top + layout.map_size[1]


def header_title(stage: DirtStage) -> str:
    return stage.title


def board_image(stage: DirtStage, view: BoardView, options: RenderOptions | None = None) -> Image.Image:
    """The board after a turn, as a Pillow image (RGB)."""
    options = options or DEFAULT_OPTIONS
    layout = board_layout(stage, options)
    origin = window_origin(stage, layout, view)

    def paint_map(canvas: Image.Image) -> None:
        paste_window(canvas, layout.map_top, layout.map_size, layout.static_size, origin, C.GROUND,
                     lambda box: static_window(stage, layout, options, box))
        frame = map_frame(layout, origin)
        draw_overlay(canvas, stage, view, frame, options)
        draw_labels(ImageDraw.Draw(canvas), stage, frame, options, map_window(layout),
                    car_boxes(stage, view, frame, options))
        if layout.mode == "camera":
            draw_overview(canvas, stage, view, layout, origin, options)

    # not cleared: every pixel is painted (header, map band, overview strip, table)
    return board_canvas(options, Header(header_title(stage), view.round, view.status, (view.stage_no, view.stages)),
                        layout.header_h, layout.body_bottom, layout.body_bottom + panel_height(view, options),
                        paint_map, lambda canvas, top: draw_table(canvas, view, top, options))


def board_texts(stage: DirtStage, view: BoardView, options: RenderOptions | None = None) -> list[TextBox]:
    """The header's and the table's texts with their cells (for the tests: the drawing draws these)."""
    options = options or DEFAULT_OPTIONS
    layout = board_layout(stage, options)
    return (header_texts(header_title(stage), view.round, view.status, options.width, layout.header_h, options,
                         (view.stage_no, view.stages), BOARD_FONT_PX)
            + table_texts(view, layout.body_bottom, options))


def draw_overview(canvas: Image.Image, stage: DirtStage, view: BoardView, layout: DirtLayout,
                  origin: tuple[int, int], options: RenderOptions) -> None:
    """The whole stage small under the camera window: the road, start and finish, every car as a
    dot in its colour, and the window's frame."""
    assert layout.overview is not None and layout.overview_size is not None
    overview = layout.overview
    top = layout.map_top + layout.map_size[1]
    f = overview.shifted(0, top)
    canvas.paste(_overview_base(stage, layout, options), (0, top))
    d = ImageDraw.Draw(canvas)
    r = options.px(8)
    for car in view.cars:
        if car.space is not None and 0 <= car.space < len(stage.spaces):
            x, y = f.px(space_centre(stage, car.space))
            d.ellipse((x - r, y - r, x + r, y + r), fill=P.car_colour(car.colour), outline=P.BLACK, width=2)
    k = overview.ppu / layout.frame.ppu

    def conv(x: float, y: float) -> Pt:  # static-layer pixels → overview pixels (one rotation for both)
        return ((x + layout.frame.origin_x) * k - overview.origin_x,
                (y + layout.frame.origin_y) * k - overview.origin_y + top)
    a = conv(origin[0], origin[1])
    b = conv(origin[0] + layout.map_size[0], origin[1] + layout.map_size[1])
    d.rectangle((a[0], a[1], b[0], b[1]), outline=P.BLACK, width=options.px(3))
    d.line([(0, top), (canvas.width, top)], fill=P.BLACK, width=2)


#: the overview strips without cars, by stage and layout (RGB, ~1 MB each: bounded in bytes)
_bases: ByteLRU[Image.Image] = ByteLRU(16 * 1024 * 1024, "dirt_overview_strips", share=16)


def _overview_base(stage: DirtStage, layout: DirtLayout, options: RenderOptions) -> Image.Image:
    """The overview strip without cars: the road, start and finish (drawn once per stage and layout)."""
    assert layout.overview is not None and layout.overview_size is not None
    key = (stage.name, stage.source, layout.overview, layout.overview_size, options.px(4))
    img = _bases.get(key)
    if img is None:
        img = Image.new("RGB", layout.overview_size, P.OVERVIEW_BG)
        d = ImageDraw.Draw(img)
        shapes = stage_shapes(stage)
        for poly in shapes.road:
            d.polygon(layout.overview.poly(poly), fill=C.GRAVEL, outline=C.ROAD_EDGE)
        for a, b in (shapes.start, shapes.finish):
            d.line([layout.overview.px(a), layout.overview.px(b)], fill=P.BLACK, width=options.px(4))
        _bases.put(key, img, image_bytes(img))
    return img


def space_pixel(stage: DirtStage, space: int, options: RenderOptions | None = None,
                view: BoardView | None = None) -> tuple[int, int]:
    """Pixel centre of a space in the board image (as classic's `space_pixel`). In a camera view the
    window follows the play, so pass the `view` being drawn; without it the window is the one of a
    board with no cars (around the start line)."""
    options = options or DEFAULT_OPTIONS
    layout = board_layout(stage, options)
    empty = BoardView(stage=stage.name, round=0, stage_no=1, stages=1, cars=[])
    origin = window_origin(stage, layout, view if view is not None else empty)
    x, y = map_frame(layout, origin).px(space_centre(stage, space))
    return round(x), round(y)
