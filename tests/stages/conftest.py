"""Shared set-up for the stage tests: the shipped zones and stages, loaded once."""

from __future__ import annotations

import pytest

from bot.engine.rallyman.stages.loader import load_stage, load_zones, stage_names
from bot.engine.rallyman.stages.model import FINISH, SpaceKind


@pytest.fixture(scope="session")
def zones():
    """The zone files of data/rallyman/zones/, by letter."""
    return load_zones()


@pytest.fixture(scope="session")
def shipped():
    """Every stage of data/rallyman/stages/, by name."""
    return {name: load_stage(name) for name in stage_names()}


def corners_after_bumps(stage) -> list[tuple[int, int]]:
    """(bump space index, distance) for every corner space among the two spaces after a bump on
    any line: the spaces a jump can fly over (RULES A10.3, AMB-21). Empty for a good stage."""
    corner_kinds = (SpaceKind.INTERIOR, SpaceKind.SKID, SpaceKind.SHORTCUT)
    found = []
    for bump in stage.spaces:
        if bump.kind is not SpaceKind.BUMP:
            continue
        frontier = [bump.id]
        for distance in (1, 2):
            frontier = [n for f in frontier for n in stage.spaces[f].next if n != FINISH]
            found += [(bump.index, distance) for n in frontier if stage.spaces[n].kind in corner_kinds]
    return found


@pytest.fixture(scope="session")
def jump_skips():
    """`corners_after_bumps`, for the stage tests."""
    return corners_after_bumps
