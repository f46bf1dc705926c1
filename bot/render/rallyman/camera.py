"""Long stages: a camera window that follows the play, and an overview strip of the whole stage.

The window is centred a little ahead of the active car (or of the leader when nobody is active),
so spectators see the road the driver is about to take. The strip shows every car as a dot in
its colour and the window as a frame, so nobody is lost.

The window is as wide as the picture and at most CAMERA_H tall; where the road it shows runs
across it in a thin band (a long straight, as at many a stage's start), the window is cut to that
band's height (`camera_window`: the road's spaces and terrain strips, the cars and the map labels
in its columns, and a margin), never below MIN_WINDOW_H, so it is not mostly bare ground. A car
the window's side edge would cut is taken in whole, the window slid sideways (the followed car
stays in).

A label of the map (START, FINISH, SPLIT, a zone's name) that the window's edge cuts is drawn
again whole, pushed inside the window (`window_labels`): a reader sees "SPLIT", never "SPL".
"""

from __future__ import annotations

import math
from dataclasses import replace

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import FINISH, START, SpaceKind, Stage
from bot.engine.rallyman.view import BoardView
from bot.render import palette as P
from bot.render.cache import ByteLRU, image_bytes
from bot.render.drawing import text_centered
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.frame import Frame
from bot.render.options import RenderOptions
from bot.render.rallyman.cars import car_size
from bot.render.rallyman.geometry import StageShapes, add, stage_fingerprint, stage_shapes, unit
from bot.render.rallyman.layout import MAP_PAD, MapLayout, crop_origin
from bot.render.rallyman.overlay import dirt_tags, path_points
from bot.render.rallyman.placement import Placed
from bot.render.rallyman.static_layer import MapLabel, label_boxes

LOOK_AHEAD = 4.0  # spaces ahead of the followed car the window leans towards
#: the lowest a camera window is cut to (design px at 1080 wide: half of CAMERA_H), so a label
#: pill, a car with its halo and a die beside it always fit across it
MIN_WINDOW_H = 300
#: a car's reach from its centre, in car lengths (its halo when it is the one to play included)
CAR_REACH = 0.7


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


# -- the window's size and place ---------------------------------------------------------------

Box = tuple[float, float, float, float]

_ROAD_BOXES: dict[tuple, tuple[Box, ...]] = {}


def road_boxes(stage: Stage, layout: MapLayout) -> tuple[Box, ...]:
    """Each space's box with its terrain strips, in pixels of the static layer (once per layout)."""
    key = (stage_fingerprint(stage), layout.frame)
    found = _ROAD_BOXES.get(key)
    if found is None:
        found = tuple(_box([layout.frame.px(p) for p in (*sh.polygon, *(q for st in sh.strips for q in st.polygon))])
                      for sh in stage_shapes(stage).spaces)
        if len(_ROAD_BOXES) > 64:
            _ROAD_BOXES.clear()
        _ROAD_BOXES[key] = found
    return found


def _box(pts: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def car_boxes(layout: MapLayout, placed: list[Placed], options: RenderOptions) -> list[Box]:
    """The box each car (and its halo) covers, in pixels of the static layer."""
    r = CAR_REACH * car_size(layout.frame.ppu, options.scale)[0]
    return [(x - r, y - r, x + r, y + r) for x, y in (layout.frame.px(p.at) for p in placed)]


def camera_window(stage: Stage, view: BoardView | None, placed: list[Placed], snow: frozenset[str],
                  options: RenderOptions, layout: MapLayout) -> tuple[MapLayout, tuple[int, int]]:
    """The layout of this board (the stage's, its window maybe cut lower) and the window's
    top-left corner in the static layer (see the module's docstring): on each axis the window
    holds the cars near the followed one and the road ahead of it when they fit, else it is
    centred a little ahead of the followed car with little behind the rearmost car near it
    (`_anchor`); it
    is slid so its edges cut no car and as few labels as may be (`_take_cars_in`); and it is cut
    to the height of what it shows in its columns (the road near the followed car, the cars, the
    map labels) when that is less than CAMERA_H."""
    if layout.mode != "camera":
        return layout, (0, 0)
    target = followed(stage, view, placed) if view is not None else None
    if view is None or target is None:
        return layout, crop_origin(layout, layout.frame.px(focus_point(stage, view, placed)))
    ww, wh = layout.map_size
    pad = options.px(MAP_PAD)
    r = CAR_REACH * car_size(layout.frame.ppu, options.scale)[0]
    keep = car_boxes(layout, placed, options)[placed.index(target)]
    # the cars, the dice of the turn (each near its space) and the dirty corners' tags: none is cut
    cars = (car_boxes(layout, placed, options)
            + [(x - r, y - r, x + r, y + r) for x, y in (layout.frame.px(at) for _, at in path_points(stage, view))]
            + [tag.box for tag in dirt_tags(stage, view, layout.frame, options)])
    here = min(_progress(stage, target.car.space), max(s.progress for s in stage.spaces))
    reach = ww / layout.frame.ppu  # spaces along the road as far as the window is wide
    road = [(s.progress, b) for s, b in zip(stage.spaces, road_boxes(stage, layout)) if abs(s.progress - here) <= reach]
    ahead = [b for progress, b in road if progress >= here]
    labels = [label.box for label in label_boxes(stage, layout, snow, options)]
    # the labels about the cars (START over the grid...) are held in the window as the cars are
    around = [(c[0] - r, c[1] - r, c[2] + r, c[3] + r) for c in cars]
    spread = (min(c[0] for c in around), min(c[1] for c in around), max(c[2] for c in around),
              max(c[3] for c in around))
    held = [b for b in labels if _meet(b, spread) and any(_meet(b, c) for c in around)]
    focus = crop_origin(layout, layout.frame.px(focus_point(stage, view, placed)))
    # the rows the window may show, its place across them not chosen yet
    ox = _take_cars_in(0, _anchor(0, keep, cars, held, ahead, ww, pad, focus[0]), ww, *_in_band(
        1, keep[3] - wh, keep[1] + wh, cars, labels, held), keep)
    seen = [b for b in (*(b for _, b in road), *cars, *labels) if b[2] > ox and b[0] < ox + ww]
    top, bottom = min(b[1] for b in seen) - pad, max(b[3] for b in seen) + pad
    h = max(math.ceil(bottom - top), options.px(MIN_WINDOW_H))
    if h < wh:
        return replace(layout, map_size=(ww, h)), (ox, round((top + bottom - h) / 2))
    in_view = [b for b in ahead if b[2] > ox and b[0] < ox + ww]  # the road ahead in the window's columns
    return layout, (ox, _take_cars_in(1, _anchor(1, keep, cars, held, in_view, wh, pad, focus[1]), wh, *_in_band(
        0, ox, ox + ww, cars, labels, held), keep))


def _in_band(axis: int, lo: float, hi: float, cars: list[Box], labels: list[Box],
             held: list[Box]) -> tuple[list[Box], list[Box], list[Box]]:
    """The boxes of each group that reach between `lo` and `hi` on `axis` (the window's extent
    across the axis its place is being chosen on: a box beyond it is no matter to that edge)."""
    def band(group: list[Box]) -> list[Box]:
        return [c for c in group if c[axis + 2] > lo and c[axis] < hi]
    return band(cars), band(labels), band(held)


def _anchor(axis: int, keep: Box, cars: list[Box], held: list[Box], ahead: list[Box], win: int, pad: int,
            focus: int) -> int:
    """The window's start on one axis (0: x, 1: y). The cars (their dice and dirt tags) within half
    a window of the followed car's box `keep`, the labels `held` with them and the road `ahead`
    centred when they fit in `win`; else `focus`, the window centred a little ahead of the
    followed car (as `focus_point`), moved so it shows no more than a margin behind the rearmost
    of those cars (where it would show road already driven, or nothing behind a start's grid)."""
    a, b = axis, axis + 2
    near = [c for c in cars if c[b] >= keep[a] - win / 2 and c[a] <= keep[b] + win / 2]
    boxes = near + [c for c in held if c[b] >= keep[a] - win / 2 and c[a] <= keep[b] + win / 2] + ahead
    lo, hi = min(c[a] for c in boxes) - pad, max(c[b] for c in boxes) + pad
    if hi - lo <= win:
        return round((lo + hi - win) / 2)
    way = sum(c[a] + c[b] for c in ahead) / (2 * len(ahead)) - (keep[a] + keep[b]) / 2 if ahead else 0.0
    if way >= 0:
        return max(focus, math.floor(min(c[a] for c in near) - pad))
    return min(focus, math.ceil(max(c[b] for c in near) + pad - win))


def _take_cars_in(axis: int, start: int, win: int, cars: list[Box], labels: list[Box], held: list[Box],
                  keep: Box) -> int:
    """The window's start on one axis, with `keep` (the followed car's box) inside: the nearest
    `start` whose edges across it cut the fewest cars (and dice, dirt tags) and labels that,
    pushed inside (`window_labels`), would lie over another label or a car; then, within a
    quarter window of it and no worse, the one cutting the fewest labels and leaving out the
    fewest of those about the cars (`held`)."""
    a, b = axis, axis + 2
    low, high = math.ceil(keep[b]) - win, math.floor(keep[a])  # the followed car inside

    def cut(p: int, boxes: list[Box]) -> list[Box]:
        return [c for c in boxes if c[a] < p < c[b] or c[a] < p + win < c[b]]

    def hiding(p: int) -> int:
        count = 0
        for c in cut(p, labels):
            shift = p - c[a] if c[a] < p else p + win - c[b]
            moved = (c[0] + shift, c[1], c[2] + shift, c[3]) if axis == 0 else (c[0], c[1] + shift, c[2], c[3] + shift)
            count += any(o is not c and _meet(moved, o) for o in (*labels, *cars))
        return count
    harms: dict[int, int] = {}

    def harm(p: int) -> int:
        if p not in harms:
            harms[p] = len(cut(p, cars)) + hiding(p)
        return harms[p]

    def untidy(p: int) -> int:
        return len(cut(p, labels)) + sum(1 for c in held if c[b] <= p or c[a] >= p + win)
    if harm(start) == 0 and untidy(start) == 0:
        return start  # nothing cut, nothing left out: the usual case
    edges = {start} | {e for c in (*cars, *labels) for e in (math.floor(c[a]), math.ceil(c[b]),
                                                               math.floor(c[a]) - win, math.ceil(c[b]) - win)}
    allowed = [p for p in edges if low <= p <= high] or [start]
    best = min(allowed, key=lambda p: (harm(p), abs(p - start)))  # the fewest cars cut, nearest `start`
    return min((p for p in allowed if abs(p - best) <= win / 4), key=lambda p: (harm(p), untidy(p), abs(p - best)))


def _meet(u: Box, v: Box) -> bool:
    return u[0] < v[2] and v[0] < u[2] and u[1] < v[3] and v[1] < u[3]


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
