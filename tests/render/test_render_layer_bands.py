"""A stage's whole static layer is drawn in bands of bounded canvas, not on one canvas of
the whole stage (a long stage's took ~64 MB at once, a render worker's peak), with the very pixels
one canvas gives, its labels placed once over the whole layer."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.weather import with_weather
from bot.render.options import DEFAULT_OPTIONS
from bot.render.rallyman import static_layer as layers
from bot.render.rallyman.layout import board_layout


@pytest.mark.parametrize("name", ["greystone-col", "gen-7-60"])
def test_a_layer_drawn_in_bands_has_the_pixels_of_one_canvas_and_bounded_bands(name, monkeypatch):
    stage = load_stage(name)
    stage = with_weather(stage, tuple(stage.zone_order[:1]))  # one zone on its snow side
    layout = board_layout(stage, DEFAULT_OPTIONS)
    snow = frozenset(stage.snow_zones)
    k, (w, h) = DEFAULT_OPTIONS.supersample, layout.static_size
    palette = layers.layer_palette(stage, layout, snow, DEFAULT_OPTIONS)
    one = layers.to_palette(layers.draw_static(stage, layout.frame, layout.static_size, snow, DEFAULT_OPTIONS,
                                               layout.detail), palette)
    boxes = []
    draw = layers.draw_static
    monkeypatch.setattr(layers, "draw_static", lambda *a: (boxes.append(a[6]), draw(*a))[1])
    monkeypatch.setattr(layers, "BAND_BYTES", 4 * 1024 * 1024)  # several bands on this stage
    placed: list[layers.MapLabel] = []
    banded = layers.draw_layer(stage, layout, snow, DEFAULT_OPTIONS, placed)
    assert len(boxes) > 2 and boxes[0][1] == 0 and boxes[-1][3] == h  # bands, top to bottom
    assert all(x1 - x0 == w and (y1 - y0) * w * k * k * 4 <= 4 * 1024 * 1024 for x0, y0, x1, y1 in boxes)
    assert ImageChops.difference(banded.convert("RGB"), one.convert("RGB")).getbbox() is None
    assert placed == layers.label_boxes(stage, layout, snow, DEFAULT_OPTIONS)  # placed once, whole layer


def test_a_small_layer_is_one_band(monkeypatch):
    stage = load_stage("pinewood-sprint")
    layout = board_layout(stage, DEFAULT_OPTIONS)
    layers.layer_palette(stage, layout, frozenset(), DEFAULT_OPTIONS)  # its colours: chosen beforehand
    boxes = []
    draw = layers.draw_static
    monkeypatch.setattr(layers, "draw_static", lambda *a, **kw: (boxes.append(a[6:7]), draw(*a, **kw))[1])
    monkeypatch.setattr(layers, "BAND_BYTES", 1 << 40)
    assert layers.draw_layer(stage, layout, frozenset(), DEFAULT_OPTIONS).size == layout.static_size
    assert boxes == [()]  # the whole canvas at once, no box
