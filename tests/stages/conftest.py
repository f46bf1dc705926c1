"""Shared set-up for the stage tests: the shipped zones and stages, loaded once."""

from __future__ import annotations

import pytest

from bot.engine.stage_loader import load_stage, load_zones, stage_names


@pytest.fixture(scope="session")
def zones():
    """The zone files of data/zones/, by letter."""
    return load_zones()


@pytest.fixture(scope="session")
def shipped():
    """Every stage of data/stages/, by name."""
    return {name: load_stage(name) for name in stage_names()}
