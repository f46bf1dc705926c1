"""Fixtures of the render tests."""

from __future__ import annotations

import pytest
from render_helpers import hill_stage

from bot.engine.rallyman.stages.model import Stage
from bot.render import disk_cache
from bot.render.rallyman.static_layer import cache_clear


@pytest.fixture(scope="session")
def _render_cache_folder(tmp_path_factory):
    """The folder the render tests share their static layers in (drawn once for all of them)."""
    folder = tmp_path_factory.mktemp("render-cache")
    yield folder
    disk_cache.flush()


@pytest.fixture(autouse=True)
def _layers_on_disk_in_a_temporary_folder(_render_cache_folder):
    """The render tests keep static layers in a folder of their own, never in data/cache/; set for
    each render test and put back after it, so a test of another folder run later in this process
    (a parallel run's worker goes on with other files) finds its own empty cache
    (`RALLYBOT_CACHE`, tests/conftest.py), not the pictures these tests drew."""
    disk_cache.set_cache_dir(_render_cache_folder)
    yield
    disk_cache.flush()
    disk_cache.reset_cache_dir()


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
