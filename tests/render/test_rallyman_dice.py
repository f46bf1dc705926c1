"""The dice of the turn on a classic board (issue: boards that read at phone size): every die is
drawn on the road (inside a space), never on a car's sprite (the active car's included, whose
initials a die would hide), never on more than a quarter of another die's face (a stage's spaces
can be shorter than two dice). Measured on shipped stages mid-stage and on
the turn a car crosses the finish, with cars already past the line and one on the last space.
And six cars behind the start line or past the finish never sit on its START / FINISH label."""

from __future__ import annotations

import pytest
from phone_helpers import nothing_kept

from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.engine.rallyman.stages.model import FINISH, START
from bot.engine.rallyman.view import BoardView, PathStep
from bot.render.options import RenderOptions
from bot.render.rallyman.board import board_window, map_frame, snow_of
from bot.render.rallyman.camera import window_labels
from bot.render.rallyman.cars import car_size
from bot.render.rallyman.die_spots import car_corners, die_half, die_spots, on_road, square_meets
from bot.render.rallyman.overlay import path_points
from bot.render.rallyman.placement import place_cars
from bot.render.rallyman.sample import sample_view
from bot.render.words import word

STAGES = ("black-moor", "pinewood-sprint", "greystone-col", "village-tour")


def finishing_view(stage) -> BoardView:
    """The sample's active car crossing the finish with its last two dice; two cars already past
    the line, one on the space before it (where the active car's first die lands)."""
    view = sample_view(stage)
    last = next(s.id for s in stage.spaces if FINISH in s.next)
    cars = list(view.cars)
    cars[0] = cars[0].model_copy(update={"space": FINISH, "pose": "normal", "place": 1, "status": "finished"})
    cars[1] = cars[1].model_copy(update={"space": last})
    cars[2] = cars[2].model_copy(update={"space": FINISH, "place": 2, "status": "finished"})
    path = (PathStep(space=last, die="4", hazard=False), PathStep(space=FINISH, die="5", hazard=False))
    return view.model_copy(update={"cars": tuple(cars), "path": path, "path_driver": cars[0].driver_id})


@pytest.mark.parametrize("kind", ("mid-stage", "finish"))
@pytest.mark.parametrize("name", STAGES)
def test_every_die_is_on_the_road_clear_of_cars_and_dice(name, kind):
    stage = load_stage(name)
    view = sample_view(stage) if kind == "mid-stage" else finishing_view(stage)
    options = RenderOptions()
    placed = place_cars(stage, view)
    layout, origin = board_window(stage, view, options, placed)
    frame = map_frame(layout, origin)
    spots = die_spots(stage, frame, path_points(stage, view), placed, options)
    assert len(spots) == len(view.path)
    half = die_half(frame, options)
    cars = {p.car.initials: car_corners(frame, p, options) for p in placed}
    for step, at in spots:
        assert on_road(stage, frame, at), (step, at)
        assert not [who for who, corners in cars.items() if square_meets(at, half, corners)], step
    for i, (_, a) in enumerate(spots):
        for _, b in spots[i + 1:]:
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) >= 1.5 * half  # three quarters of each face seen


def test_the_overlap_measure_sees_a_die_on_a_car_and_not_one_beside_it():
    corners = [(10.0, 5.0), (10.0, -5.0), (-10.0, -5.0), (-10.0, 5.0)]  # a car 20 × 10 round the origin
    assert square_meets((0.0, 0.0), 3.0, corners)
    assert square_meets((12.0, 0.0), 3.0, corners)
    assert not square_meets((14.0, 0.0), 3.0, corners)
    turned = [(7.07, 7.07), (-7.07, -7.07), (-10.0, -4.0), (4.0, 10.0)]  # a diagonal body
    assert not square_meets((8.0, -6.0), 2.0, turned)


def on_the_line(stage, where: int) -> BoardView:
    """Six cars (three to a row) behind the start line (START) or past the finish (FINISH)."""
    view = sample_view(stage)
    extra = [view.cars[0].model_copy(update={"driver_id": f"e{i}", "initials": f"E{i}", "colour": 4 + i})
             for i in range(2)]
    status = "finished" if where == FINISH else "racing"
    cars = tuple(c.model_copy(update={"space": where, "pose": "normal", "status": status, "active": False})
                 for c in (*view.cars, *extra))
    return view.model_copy(update={"cars": cars, "path": (), "path_driver": None})


@pytest.mark.parametrize("where", (START, FINISH))
@pytest.mark.parametrize("name", stage_names())
def test_six_cars_at_the_start_or_past_the_finish_leave_its_label_clear(name, where, tmp_path):
    stage = load_stage(name)
    view = on_the_line(stage, where)
    options = RenderOptions()
    placed = place_cars(stage, view)
    layout, origin = board_window(stage, view, options, placed)
    frame = map_frame(layout, origin)
    text = word("start" if where == START else "finish_line", options.lang)
    with nothing_kept(tmp_path):  # placed again, not read from a cache drawn before
        labels = window_labels(stage, layout, snow_of(stage, view), options, origin)
    (x0, y0, x1, y1), = [label.box for label, _ in labels if label.text == text]
    reach = car_size(frame.ppu, options.scale)[0] / 2  # a car turned any way, its initials on it
    for p in placed:
        x, y = frame.px(p.at)
        assert max(x0 - x - reach, x - reach - x1, y0 - y - reach, y - reach - y1) >= 0, p.car.initials
