"""The first board of a stage a worker never drew: cheaper, with the very same pixels.

A window drawn first skips the shapes wholly off it; zone tints and the overview strip draw no
joint pies (the disc at each point holds them); a layout turns its outline once per rotation; a
render worker's set-up is frozen out of the garbage collector's full collections.
"""

from __future__ import annotations

import gc
import math
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.weather import with_weather
from bot.render import drawing
from bot.render.frame import ROTATIONS, Frame, Outline, bbox, best_rotation, rotate
from bot.render.options import DEFAULT_OPTIONS
from bot.render.rallyman import layer_painter
from bot.render.rallyman import static_layer as layers
from bot.render.rallyman.geometry import stage_shapes
from bot.render.rallyman.layout import board_layout
from bot.services import images


@pytest.mark.parametrize("name", ["greystone-col", "gen-7-60"])
def test_a_window_skips_what_lies_off_it_and_keeps_the_pixels_of_the_whole_layer(name, monkeypatch):
    """Windows all over a long stage (corners, edges, middle), one zone on its snow side: each is
    the crop of the whole layer, byte for byte, and draws far fewer spaces than the stage has."""
    stage = load_stage(name)
    stage = with_weather(stage, tuple(stage.zone_order[:1]))
    layout = board_layout(stage, DEFAULT_OPTIONS)
    assert layout.mode == "camera"
    snow = frozenset(stage.snow_zones)
    whole = layers.draw_static(stage, layout.frame, layout.static_size, snow, DEFAULT_OPTIONS, layout.detail)
    drawn = []
    outlined = drawing.outlined_polygon
    monkeypatch.setattr(layer_painter, "outlined_polygon", lambda img, *a: (drawn.append(1), outlined(img, *a)))
    (w, h), (ww, wh) = layout.static_size, layout.map_size
    xs, ys = (0, (w - ww) // 3, w - ww), (0, (h - wh) // 2, h - wh)
    boxes = [(x, y, x + ww, y + wh) for x in xs for y in ys] + [(7, 3, 300, 211)]
    counts = []
    for box in boxes:
        drawn.clear()
        part = layers.draw_static(stage, layout.frame, layout.static_size, snow, DEFAULT_OPTIONS, layout.detail, box)
        assert part.tobytes() == whole.crop(box).tobytes(), box
        counts.append(len(drawn))
    # every window skips some of the road, and most of it in all (a hairpin's spaces crowd one window)
    assert max(counts) < len(stage.spaces) and sum(counts) < len(boxes) * len(stage.spaces) / 2, counts


def _pillow_line(pts, width: int, joint: str | None, size: int) -> Image.Image:
    img = Image.new("L", (size, size), 0)
    d = ImageDraw.Draw(img)
    d.line(pts, fill=255, width=width, joint=joint)
    for x, y in pts:
        d.ellipse((x - width / 2, y - width / 2, x + width / 2, y + width / 2), fill=255)
    return img


def test_the_disc_at_each_point_of_a_polyline_holds_its_joint():
    """Zone tints and the strip draw a wide polyline and a disc of its width at each point, without
    `joint="curve"`: Pillow's joint (a pie of radius width/2 - 1 and a 3 px gap line) never adds a
    pixel to them. Random polylines over the widths drawn (strip lines to a zone tint's 4.4 spaces)."""
    rng = random.Random(28)
    for _ in range(150):
        width = rng.choice((rng.randint(5, 40), rng.randint(40, 700)))
        pts = [(rng.uniform(0, 900), rng.uniform(0, 900))]
        for _ in range(rng.randint(2, 9)):
            step, turn = rng.uniform(0.1, 2.5) * width, rng.uniform(0, 2 * math.pi)
            pts.append((pts[-1][0] + step * math.cos(turn), pts[-1][1] + step * math.sin(turn)))
        with_joints, without = (_pillow_line(pts, width, joint, 1000) for joint in ("curve", None))
        assert ImageChops.difference(with_joints, without).getbbox() is None, (width, pts)


def test_an_outline_and_a_frame_compute_what_they_did_point_by_point():
    """A layout's boxes (each rotation turned once) and a frame's pixels (its sine and cosine once)
    are the very floats of the plain computation, so layouts, layers and file names are unchanged."""
    hull = list(stage_shapes(load_stage("greystone-col")).hull)
    outline = Outline(hull)
    for degrees in ROTATIONS:
        turned = [rotate(p, degrees) for p in hull]
        plain = (min(p[0] for p in turned), min(p[1] for p in turned), max(p[0] for p in turned),
                 max(p[1] for p in turned))
        assert outline.bbox(degrees) == bbox(hull, degrees) == plain
        frame = Frame(float(degrees), 72.5, 13.25, -7.5)
        for p in hull[::97]:
            x, y = rotate(p, degrees) if degrees else p
            assert frame.px(p) == (x * 72.5 - 13.25, y * 72.5 + 7.5)
    assert best_rotation(outline, 1048, 248) == best_rotation(hull, 1048, 248)
    assert Frame.fitting(outline, 15.0, 40.0, 1080, 600) == Frame.fitting(hull, 15.0, 40.0, 1080, 600)


@pytest.fixture
def no_pool():
    images.shutdown_pool()
    yield
    images.shutdown_pool()


def test_a_render_worker_keeps_its_set_up_out_of_full_collections(no_pool, tmp_path, monkeypatch):
    """What a worker's set-up made (modules, fonts, catalogues) is frozen (`gc.freeze`): a full
    collection no longer scans it in the middle of a board."""
    from bot.render import disk_cache

    monkeypatch.setattr(disk_cache, "_override", tmp_path)
    pool = images.start_pool(1)
    assert pool is not None
    frozen = pool.submit(gc.get_freeze_count).result(timeout=60)
    assert frozen > 10_000
