"""Classic boards read on a phone (issue: boards that read at phone size): shown PHONE_WIDTH px
wide, every text the board draws (header, map labels and notes, the cars' initials, the dice,
the table) is at least PHONE_TEXT_PX tall; two cars on one space never hide each other; a die of
the turn never covers a space's speed limit; an AI's car carries its robot mark on the map and in
the table. Measured on shipped stages, one drawn in camera mode and one fitted whole."""

from __future__ import annotations

import math

import pytest
from phone_helpers import drawn, marks_near, on_phone, too_small

from bot.engine.rallyman.stages.loader import load_stage
from bot.engine.rallyman.stages.model import SpaceKind
from bot.engine.rallyman.view import BoardView
from bot.render.options import RenderOptions
from bot.render.rallyman.board import board_image, board_labels, board_window, map_frame
from bot.render.rallyman.cars import car_size
from bot.render.rallyman.die_spots import die_size, die_spots
from bot.render.rallyman.geometry import stage_shapes
from bot.render.rallyman.overlay import path_points
from bot.render.rallyman.panel import COL, DICE_ROW_H, ROW_H, TABLE_HEAD_H, road_order
from bot.render.rallyman.placement import place_cars
from bot.render.rallyman.sample import sample_view

STAGES = ("black-moor", "pinewood-sprint")  # a camera view and a whole stage fitted
LANGS = ("en", "fr", "de")
AI = "-3"  # an AI seat's id (negative: bot.services.play.ai_drivers)


def phone_view(stage, ai: bool = True) -> BoardView:
    """The sample board (two cars on one space, a path of three dice with a ⚠) with the third
    driver, one of the two sharing a space, an AI when `ai`."""
    view = sample_view(stage)
    cars = tuple(c.model_copy(update={"driver_id": AI if ai else "3", "name": "🤖 Kari"}) if c.driver_id == "d3"
                 else c for c in view.cars)
    return view.model_copy(update={"cars": cars})


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", STAGES)
def test_every_text_of_the_board_is_readable_on_a_phone(name, lang, tmp_path):
    stage = load_stage(name)
    view = phone_view(stage)
    options = RenderOptions(lang=lang)
    image, texts = drawn(tmp_path, lambda: board_image(stage, view, options))
    shown = {t.text for t in texts}
    # the static layer was drawn here (its labels and notes are among the texts measured)
    assert {label.text for label in board_labels(stage, view, options)} & shown
    assert any(str(s.note) in shown for s in stage.spaces if s.note is not None)
    assert {c.initials for c in view.cars} <= shown and {s.die for s in view.path if s.die.isdigit()} <= shown
    assert not too_small(image, texts)


@pytest.mark.parametrize("name", STAGES)
def test_two_cars_on_one_space_never_hide_each_other(name):
    stage = load_stage(name)
    view = phone_view(stage)
    options = RenderOptions()
    placed = place_cars(stage, view)
    layout, origin = board_window(stage, view, options, placed)
    frame = map_frame(layout, origin)
    spaces = [p.car.space for p in placed]
    shared = [p for p in placed if spaces.count(p.car.space) > 1]
    assert len(shared) == 2
    (ax, ay), (bx, by) = (frame.px(p.at) for p in shared)
    _, width = car_size(frame.ppu, options.scale)
    assert math.hypot(ax - bx, ay - by) >= 0.9 * width


@pytest.mark.parametrize("name", STAGES)
def test_a_die_of_the_turn_never_covers_a_speed_limit(name):
    stage = load_stage(name)
    view = phone_view(stage)
    options = RenderOptions()
    placed = place_cars(stage, view)
    layout, origin = board_window(stage, view, options, placed)
    frame = map_frame(layout, origin)
    spots = die_spots(stage, frame, path_points(stage, view), placed, options)
    assert len(spots) == len(view.path)
    half = die_size(frame, options) / 2
    shapes = stage_shapes(stage)
    limits = [frame.px(shapes.shape(s.id).centre) for s in stage.spaces
              if s.note is not None and s.kind is not SpaceKind.SHORTCUT]
    for _, (x, y) in spots:
        assert not [c for c in limits if abs(c[0] - x) < half and abs(c[1] - y) < half]


@pytest.mark.parametrize("name", STAGES)
def test_an_ai_car_is_marked_on_the_map_and_in_the_table(name):
    stage = load_stage(name)
    options = RenderOptions()
    ai, person = (board_image(stage, phone_view(stage, flag), options) for flag in (True, False))
    view = phone_view(stage)
    placed = place_cars(stage, view)
    layout, origin = board_window(stage, view, options, placed)
    frame = map_frame(layout, origin)
    car = next(p for p in placed if p.car.driver_id == AI)
    at, reach = frame.px(car.at), car_size(frame.ppu, options.scale)[0]
    assert marks_near(ai, at, reach) > marks_near(person, at, reach)
    row = [c.driver_id for c in road_order(stage, view.cars)].index(AI)
    row_top = layout.body_bottom + options.px(DICE_ROW_H) + options.px(TABLE_HEAD_H) + row * options.px(ROW_H)
    centre = (options.px(COL["token"]), row_top + options.px(ROW_H) / 2)  # round its colour token
    assert marks_near(ai, centre, options.px(ROW_H)) > marks_near(person, centre, options.px(ROW_H))
    assert on_phone(options.px(24), ai) >= 8  # the table's mark stays a visible shape on a phone
