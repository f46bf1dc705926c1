"""Long stages: a camera window that follows the play, and an overview strip of the whole stage.

The window is centred a little ahead of the active car (or of the leader when nobody is active),
so spectators see the road the driver is about to take. The strip shows every car as a dot in
its colour and the window as a frame, so nobody is lost.

A label of the map (START, FINISH, SPLIT, a zone's name) that the window's edge cuts is drawn
again whole, pushed inside the window (`window_labels`): a reader sees "SPLIT", never "SPL".
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import FINISH, START, SpaceKind, Stage
from bot.engine.rallyman.view import BoardView
from bot.render import palette as P
from bot.render.cache import ByteLRU, image_bytes
from bot.render.drawing import text_centered
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.frame import Frame
from bot.render.options import RenderOptions
from bot.render.rallyman.geometry import StageShapes, add, stage_fingerprint, stage_shapes, unit
from bot.render.rallyman.layout import MapLayout
from bot.render.rallyman.placement import Placed
from bot.render.rallyman.static_layer import MapLabel, label_boxes

LOOK_AHEAD = 4.0  # spaces ahead of the followed car the window leans towards


def followed(stage: Stage, view: BoardView, placed: list[Placed]) -> Placed | None:
    """The active car if it is on the board, else the car furthest along the road."""
    if not placed:
        return None
    for p in placed:
        if p.car.active:
            return p
    return max(placed, key=lambda p: _progress(stage, p.car.space))


def _progress(stage: Stage, position: int) -> float:
    if position == START:
        return -1.0
    if position == FINISH:
        return 1e9
    return stage.spaces[position].progress


def focus_point(stage: Stage, view: BoardView | None, placed: list[Placed]) -> tuple[float, float]:
    """The point (space units) the camera window is centred on."""
    shapes = stage_shapes(stage)
    target = followed(stage, view, placed) if view is not None else None
    if target is None:
        return _ahead(stage, shapes, -1.0)
    if target.car.space == FINISH:
        return shapes.finish.mid
    here = target.at
    ahead = _ahead(stage, shapes, _progress(stage, target.car.space))
    return here[0] * 0.6 + ahead[0] * 0.4, here[1] * 0.6 + ahead[1] * 0.4


def _ahead(stage: Stage, shapes: StageShapes, progress: float) -> tuple[float, float]:
    goal = progress + LOOK_AHEAD
    line = [s for s in stage.spaces if s.kind in (SpaceKind.STRAIGHT, SpaceKind.BUMP, SpaceKind.INTERIOR)]
    if not line or goal > max(s.progress for s in line):
        return add(shapes.finish.mid, unit(shapes.finish.heading), 0.5)
    best = min(line, key=lambda s: abs(s.progress - goal))
    return best.x, best.y


# -- labels cut by the window ---------------------------------------------------------------------

def window_labels(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions,
                  origin: tuple[int, int]) -> list[tuple[MapLabel, bool]]:
    """Every map label seen in the window at `origin`, its box in pixels of the board image, and
    whether it was moved: a label the window's edge cuts is moved inside the window, whole (the
    moved pill covers what the layer shows of it, as it spans the part inside and more)."""
    ox, oy = origin
    ww, wh = layout.map_size
    top = layout.map_top
    out = []
    for label in label_boxes(stage, layout, snow, options):
        x0, y0, x1, y1 = label.box[0] - ox, label.box[1] - oy, label.box[2] - ox, label.box[3] - oy
        if x1 <= 0 or y1 <= 0 or x0 >= ww or y0 >= wh:
            continue  # wholly outside: not seen
        dx = -x0 if x0 < 0 else (ww - x1 if x1 > ww else 0.0)
        dy = -y0 if y0 < 0 else (wh - y1 if y1 > wh else 0.0)
        box = (x0 + dx, y0 + dy + top, x1 + dx, y1 + dy + top)
        at = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        out.append((MapLabel(label.text, box, at, label.bg, label.fg, label.size), bool(dx or dy)))
    return out


def draw_window_labels(canvas: Image.Image, stage: Stage, layout: MapLayout, snow: frozenset[str],
                       options: RenderOptions, origin: tuple[int, int]) -> None:
    """Draw again, inside the window, the labels its edge cuts (before the cars: they stay on top)."""
    moved = [label for label, was_moved in window_labels(stage, layout, snow, options, origin) if was_moved]
    if not moved:
        return
    d = ImageDraw.Draw(canvas)
    f = font(round(BOARD_FONT_PX * options.scale), bold=True)
    left, top, right, bottom = 0, layout.map_top, layout.map_size[0], layout.map_top + layout.map_size[1]
    for label in moved:
        x0, y0, x1, y1 = label.box
        # square against the edge it was pushed off: the cut pill there showed its middle, all of it covered
        on_left, on_right, on_top, on_bottom = x0 <= left, x1 >= right, y0 <= top, y1 >= bottom
        corners = (not (on_left or on_top), not (on_right or on_top), not (on_right or on_bottom),
                   not (on_left or on_bottom))
        radius = max(1.0, (y1 - y0) / 2 - 2)  # a hair under half: Pillow squares corners only below it
        d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius, fill=label.bg, outline=P.ROAD_EDGE, width=1,
                            corners=corners)
        text_centered(d, label.at, label.text, font(round(label.size), bold=True) if label.size else f, label.fg)


# -- overview strip ------------------------------------------------------------------------------

#: memory kept for overview strips in one process (palette images: ~0.3 MB each at 1080 px wide)
STRIP_CACHE_BYTES = 16 * 1024 * 1024
_strips: ByteLRU[Image.Image] = ByteLRU(STRIP_CACHE_BYTES, "classic_strips", share=16)


def overview_base(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> Image.Image:
    """The overview strip without cars: the road as a thick line, start, finish (cached, as a
    palette image: its few colours and their antialiasing fit 256 colours, at a quarter of the memory)."""
    key = (stage_fingerprint(stage), layout.overview, layout.overview_size, tuple(sorted(snow)), options.supersample)
    img = _strips.get(key)
    if img is None:
        drawn = _draw_strip(stage, *layout.strip(), snow, options)
        img = drawn.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        _strips.put(key, img, image_bytes(img))
    return img


def _draw_strip(stage: Stage, frame: Frame, size: tuple[int, int], snow: frozenset[str],
                options: RenderOptions) -> Image.Image:
    k = options.supersample
    f = frame.scaled(k)
    img = Image.new("RGB", (size[0] * k, size[1] * k), P.OVERVIEW_BG)
    d = ImageDraw.Draw(img)
    shapes = stage_shapes(stage)
    w = max(4 * k, min(round(1.3 * f.ppu), 16 * k))
    by_progress = sorted((s for s in stage.spaces if s.kind in (SpaceKind.STRAIGHT, SpaceKind.BUMP,
                                                                 SpaceKind.INTERIOR)), key=lambda s: s.progress)
    pts = [f.px(shapes.start.mid)] + [f.px((s.x, s.y)) for s in by_progress] + [f.px(shapes.finish.mid)]
    zones = [by_progress[0].zone] + [s.zone for s in by_progress] + [by_progress[-1].zone]
    _round_line(d, pts, P.ROAD_EDGE, w + 4 * k)
    run = [pts[0]]
    for i in range(1, len(pts)):  # one polyline per zone, snow-side zones in the snow road colour
        run.append(pts[i])
        if i == len(pts) - 1 or zones[i + 1] != zones[i]:
            _round_line(d, run, P.SNOW_ROAD if zones[i] in snow else P.ASPHALT, w)
            run = [pts[i]]
    for line, colour in ((shapes.start, P.START_RED), (shapes.finish, P.FINISH_YELLOW)):
        a, b = f.px(line.a), f.px(line.b)
        d.line([a, b], fill=colour, width=max(3 * k, round(0.5 * f.ppu)))
    return img.reduce(k) if k > 1 else img  # a box filter, as the static layer


def _round_line(d: ImageDraw.ImageDraw, pts: list, colour, width: int) -> None:
    """A polyline with round caps and joints: a disc at each point (which holds the pie and gap
    line `joint="curve"` would draw there: the same pixels without them)."""
    d.line(pts, fill=colour, width=width)
    r = width / 2
    for x, y in pts:
        d.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def draw_overview(canvas: Image.Image, stage: Stage, layout: MapLayout, snow: frozenset[str], placed: list[Placed],
                  window: tuple[float, float, float, float], options: RenderOptions) -> None:
    """Paste the strip below the camera window, with car dots and the window's frame."""
    top = layout.overview_top
    canvas.paste(overview_base(stage, layout, snow, options), (0, top))
    d = ImageDraw.Draw(canvas)
    frame = layout.strip()[0].shifted(0, top)
    x0, y0, x1, y1 = window
    d.rectangle((x0, y0 + top, x1, y1 + top), outline=P.BLACK, width=max(3, round(4 * options.scale)))
    d.rectangle((x0 + 2, y0 + top + 2, x1 - 2, y1 + top - 2), outline=P.WHITE, width=max(1, round(2 * options.scale)))
    r = max(7, round(9 * options.scale))
    drawn: list[tuple[float, float]] = []
    for p in placed:
        x, y = frame.px(p.at)
        while any(abs(x - a) < r and abs(y - b) < r for a, b in drawn):  # cars close together: fan out
            x, y = x + r * 1.1, y - r * 0.6
        drawn.append((x, y))
        if p.car.active:
            d.ellipse((x - r - 5, y - r - 5, x + r + 5, y + r + 5), outline=P.WHITE, width=3)
        d.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), fill=P.WHITE)
        d.ellipse((x - r, y - r, x + r, y + r), fill=P.car_colour(p.car.colour), outline=P.BLACK, width=2)
    d.line([(0, top), (canvas.width, top)], fill=P.ROAD_EDGE, width=2)
