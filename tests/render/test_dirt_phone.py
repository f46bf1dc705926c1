"""DIRT boards read on a phone (issue: boards that read at phone size): shown PHONE_WIDTH px wide,
every text the board draws is at least PHONE_TEXT_PX tall; the cars still waiting to start are
drawn in rows behind a red start line (as on a classic board: the chequered line is the finish),
apart from each other; a die of the turn never lies on a speed limit; an AI's car carries its robot
mark on the map and in the table. Measured on shipped stages, mid-stage and at the start."""

from __future__ import annotations

import math

import pytest
from phone_helpers import drawn, marks_near, too_small
from render_helpers import colour_count

from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.view import BoardView
from bot.render import palette as P
from bot.render.dirt.board import board_image, map_frame, window_origin
from bot.render.dirt.layout import board_layout
from bot.render.dirt.overlay import car_size, car_spots, die_spot
from bot.render.dirt.panel import COLUMNS, HEAD_H, LINE_H, row_height
from bot.render.dirt.sample import sample_view
from bot.render.dirt.shapes import space_centre, stage_shapes
from bot.render.options import RenderOptions

STAGES = ("birch-ridge", "red-quarry")
LANGS = ("en", "fr", "de")
AI = "-4"  # an AI seat's id (negative: bot.services.play.ai_drivers)


def mid_stage(stage, ai: bool = True) -> BoardView:
    """The sample board (a path of three dice, one ⚠; one car waiting), its last seat an AI."""
    view = sample_view(stage)
    cars = [c.model_copy(update={"seat": AI if ai else "4"}) if c.seat == "d4" else c for c in view.cars]
    return view.model_copy(update={"cars": cars})


def at_start(stage, ai: bool = True) -> BoardView:
    """Round 1: the first car on the track and to act, the three others waiting behind the line."""
    view = mid_stage(stage, ai)
    cars = [view.cars[0].model_copy(update={"space": 2, "to_act": True, "pose": "normal"})]
    cars += [c.model_copy(update={"space": None, "status": "waiting", "pose": "normal", "to_act": False})
             for c in view.cars[1:]]
    return view.model_copy(update={"cars": cars, "dice": [], "path": [], "minus": {}, "round": 1})


def frame_of(stage, view, options):
    layout = board_layout(stage, options)
    return layout, map_frame(layout, window_origin(stage, layout, view))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", STAGES)
@pytest.mark.parametrize("scene", (mid_stage, at_start))
def test_every_text_of_the_board_is_readable_on_a_phone(scene, name, lang, tmp_path):
    stage = load_stage(name)
    view = scene(stage)
    image, texts = drawn(tmp_path, lambda: board_image(stage, view, RenderOptions(lang=lang)))
    assert len({t.text for t in texts}) > 15  # the header, the map's marks and labels, the table
    assert not too_small(image, texts)


@pytest.mark.parametrize("name", STAGES)
def test_the_cars_waiting_to_start_are_drawn_apart_behind_a_red_start_line(name):
    stage = load_stage(name)
    view = at_start(stage)
    options = RenderOptions()
    image = board_image(stage, view, options)
    layout, frame = frame_of(stage, view, options)
    spots = car_spots(stage, view, frame, options)
    waiting = [c.seat for c in view.cars if c.status == "waiting"]
    assert len(waiting) == 3 and set(waiting) <= set(spots)
    a, b = (frame.px(p) for p in stage_shapes(stage).start)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    first = frame.px(space_centre(stage, 0))
    ahead = (first[0] - mid[0], first[1] - mid[1])
    length, width = car_size(frame, options)
    x0, y0, x1, y1 = 0, layout.map_top, layout.map_size[0], layout.map_top + layout.map_size[1]
    for seat in waiting:
        (x, y), _ = spots[seat]
        assert (x - mid[0]) * ahead[0] + (y - mid[1]) * ahead[1] < 0  # behind the line
        assert x0 <= x <= x1 and y0 <= y <= y1  # in the camera's window
    for s, t in ((s, t) for i, s in enumerate(waiting) for t in waiting[i + 1:]):
        (sx, sy), _ = spots[s]
        (tx, ty), _ = spots[t]
        assert math.hypot(sx - tx, sy - ty) >= width
    assert colour_count(image, (round(mid[0]), round(mid[1])), 12, P.START_RED, tol=30) > 20


@pytest.mark.parametrize("name", STAGES)
def test_a_die_of_the_turn_never_lies_on_a_speed_limit(name):
    stage = load_stage(name)
    view = mid_stage(stage)
    options = RenderOptions()
    _, frame = frame_of(stage, view, options)
    side = options.px(32)
    occupied = {c.space for c in view.cars if c.space is not None}
    limits = [frame.px(m.at) for m in stage_shapes(stage).marks if m.kind == "limit"]
    seen: dict[int, int] = {}
    assert view.dice
    for die in view.dice:
        n = seen.get(die.space, 0)
        seen[die.space] = n + 1
        x, y = die_spot(stage, die.space, n, die.space in occupied, frame, side)
        assert all(math.hypot(x - lx, y - ly) > side for lx, ly in limits)


@pytest.mark.parametrize("scene", (mid_stage, at_start))
def test_an_ai_car_is_marked_on_the_map_and_in_the_table(scene):
    stage = load_stage("birch-ridge")
    options = RenderOptions()
    ai, person = (board_image(stage, scene(stage, flag), options) for flag in (True, False))
    view = scene(stage)
    layout, frame = frame_of(stage, view, options)
    (at, _) = car_spots(stage, view, frame, options)[AI] if scene is at_start else (None, None)
    if at is not None:  # mid-stage the AI car still waits off the camera's window: its row only
        assert marks_near(ai, at, car_size(frame, options)[0]) > marks_near(person, at, car_size(frame, options)[0])
    row = [c.seat for c in view.cars].index(AI)
    top = layout.map_top + layout.map_size[1] + (layout.overview_size[1] if layout.overview_size else 0)
    centre = (options.px(sum(COLUMNS["swatch"]) / 2), top + options.px(HEAD_H) + row * row_height(options)
              + options.px(LINE_H))
    assert marks_near(ai, centre, options.px(40)) > marks_near(person, centre, options.px(40))
