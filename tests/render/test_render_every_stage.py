"""Every shipped stage renders: its preview and a mid-stage board, as RGB PNGs of the expected size."""

from __future__ import annotations

import pytest
from render_helpers import classic_board as render_board
from render_helpers import classic_preview as render_stage_preview
from render_helpers import decode

from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.render.options import DEFAULT_OPTIONS
from bot.render.rallyman.board import board_window
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.panel import panel_height
from bot.render.rallyman.sample import sample_view

NAMES = stage_names()


def test_there_are_stages_to_render():
    assert NAMES, "data/rallyman/stages/ holds no stage"


@pytest.mark.parametrize("name", NAMES)
def test_preview_renders(name):
    stage = load_stage(name)
    img = decode(render_stage_preview(stage))
    assert img.mode == "P"  # a palette PNG (bot.render.encode)
    assert img.width == DEFAULT_OPTIONS.width
    layout = board_layout(stage, DEFAULT_OPTIONS, preview=True)
    assert img.height > layout.map_top + layout.static_size[1]  # header + whole map + legends


@pytest.mark.parametrize("name", NAMES)
def test_board_renders_at_the_expected_size(name):
    stage = load_stage(name)
    view = sample_view(stage)
    png = render_board(stage, view)
    img = decode(png)
    layout, _ = board_window(stage, view, DEFAULT_OPTIONS)  # its camera window maybe cut lower
    assert img.mode == "P"  # a palette PNG (bot.render.encode)
    assert img.size == (DEFAULT_OPTIONS.width, layout.body_bottom + panel_height(view, DEFAULT_OPTIONS))
    assert len(png) < 500 * 1024


@pytest.mark.parametrize("name", NAMES)
def test_long_stages_get_a_camera_and_an_overview(name):
    """A stage too small to read at full width is shown through a camera window plus an overview strip."""
    stage = load_stage(name)
    layout = board_layout(stage, DEFAULT_OPTIONS)
    if layout.mode == "fit":
        assert layout.frame.ppu >= DEFAULT_OPTIONS.min_ppu
        assert layout.overview is None
    else:
        assert layout.frame.ppu >= DEFAULT_OPTIONS.min_ppu
        assert layout.overview_size is not None and layout.overview_size[0] == DEFAULT_OPTIONS.width
