"""DIRT's START label never sits on the cars waiting behind the start line (issue: boards that
read at phone size): on every shipped DIRT stage at round 1, in EN, FR and DE (the label's word,
"DÉPART" in French, is the longest there), the label's box keeps clear of the square each car is
drawn in."""

from __future__ import annotations

import pytest
from test_dirt_phone import at_start, frame_of

from bot.engine.dirt.stages.catalogue import load_stage, stage_names
from bot.render.dirt.board import map_window
from bot.render.dirt.labels import map_labels
from bot.render.dirt.overlay import car_boxes
from bot.render.options import RenderOptions
from bot.render.words import word


@pytest.mark.parametrize("lang", ("en", "fr", "de"))
@pytest.mark.parametrize("name", stage_names())
def test_the_start_label_keeps_clear_of_the_waiting_cars(name, lang):
    stage = load_stage(name)
    view = at_start(stage)
    options = RenderOptions(lang=lang)
    layout, frame = frame_of(stage, view, options)
    cars = car_boxes(stage, view, frame, options)
    assert len(cars) == len(view.cars)
    (x0, y0, x1, y1), = [label.box for label in map_labels(stage, frame, options, map_window(layout), cars)
                         if label.text == word("start", lang)]
    for a0, b0, a1, b1 in cars:
        assert a1 <= x0 or x1 <= a0 or b1 <= y0 or y1 <= b0
