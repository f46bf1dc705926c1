"""The static layer is drawn once per stage/weather/size and then served from memory."""

from __future__ import annotations

from render_helpers import board, car
from render_helpers import classic_board as render_board

from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.rallyman.board import snow_of
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.static_layer import static_layer, stats


def test_second_board_hits_the_cache(hill, fresh_cache):
    render_board(hill, board(hill, car("d1", 0, 1)))
    assert (stats.misses, stats.hits) == (1, 0)
    render_board(hill, board(hill, car("d1", 0, 2)))
    assert (stats.misses, stats.hits) == (1, 1)


def test_cache_returns_the_same_image(hill, fresh_cache):
    layout = board_layout(hill, DEFAULT_OPTIONS)
    a = static_layer(hill, layout, frozenset(), DEFAULT_OPTIONS)
    b = static_layer(hill, layout, frozenset(), DEFAULT_OPTIONS)
    assert a is b


def test_snow_and_size_are_part_of_the_key(hill, fresh_cache):
    """Snow-side zones (RULES A20.1) and another width draw a new layer, not a stale one."""
    layout = board_layout(hill, DEFAULT_OPTIONS)
    dry = static_layer(hill, layout, frozenset(), DEFAULT_OPTIONS)
    snowy = static_layer(hill, layout, frozenset({"Z"}), DEFAULT_OPTIONS)
    assert dry is not snowy and dry.tobytes() != snowy.tobytes()
    small = RenderOptions(width=720)
    assert static_layer(hill, board_layout(hill, small), frozenset(), small).width == 720
    assert stats.misses == 3


def test_view_snow_zones_add_to_the_stage_weather(hill):
    assert snow_of(hill, board(hill, snow_zones=frozenset({"Z"}))) == {"Z"}
    assert snow_of(hill, board(hill)) == set()
