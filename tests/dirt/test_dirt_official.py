"""DIRT's official stage of the week: named from the week alone, and a stage the
DIRT catalogue loads, week after week."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from bot.engine.core.official import official_stage as classic_official
from bot.engine.core.official import week_of
from bot.engine.dirt.official import TILES, official_stage
from bot.engine.dirt.stages.catalogue import generated_name, load_stage


def _weeks(count: int) -> list[str]:
    start = date(2026, 11, 23)
    return [week_of(start + timedelta(weeks=i)) for i in range(count)]


def test_sixty_consecutive_weeks_each_name_a_stage_the_catalogue_loads():
    weeks = _weeks(60)
    names = [official_stage(w) for w in weeks]
    for week, name in zip(weeks, names):
        seed_tiles = generated_name(name)
        assert seed_tiles is not None and seed_tiles[1] in TILES, (week, name)
        stage = load_stage(name)
        assert stage is not None
    assert len(set(names)) == len(names)  # a new stage every week


def test_the_name_depends_on_the_week_alone_and_differs_from_classic_s():
    assert official_stage("2026-W48") == official_stage("2026-W48")
    assert official_stage("2026-W48") != official_stage("2026-W49")
    assert official_stage("2026-W48") != classic_official("2026-W48")


def test_a_week_that_does_not_exist_is_refused():
    with pytest.raises(ValueError):
        official_stage("2026-W54")
