"""Fixtures of the render tests."""

from __future__ import annotations

import pytest
from render_helpers import hill_stage

from bot.engine.stage_model import Stage
from bot.render.static_layer import cache_clear


@pytest.fixture(scope="session")
def hill() -> Stage:
    """The inline test stage (see render_helpers.STAGE)."""
    return hill_stage()


@pytest.fixture
def fresh_cache():
    """An empty static-layer cache with zeroed counters."""
    cache_clear()
    yield
    cache_clear()
