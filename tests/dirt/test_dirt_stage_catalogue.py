"""The shipped DIRT stages and the seeded generator (RULES B2, B13.7)."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine.core.errors import StageError
from bot.engine.dirt.stages.catalogue import load_stage, stage_names
from bot.engine.dirt.stages.generator import generate
from bot.engine.dirt.stages.loader import parse_stage
from bot.engine.dirt.stages.model import SpaceKind


def test_B2_at_least_ten_shipped_stages_of_every_length():
    names = stage_names()
    assert len(names) >= 10
    tiles = Counter(len(load_stage(n).tiles) for n in names)
    assert set(tiles) == {10, 14, 18}
    assert all(count >= 3 for count in tiles.values())


@pytest.mark.parametrize("name", stage_names())
def test_B13_7_every_shipped_stage_loads_and_validates(name):
    stage = load_stage(name)
    assert stage.name == name and stage.title
    assert stage.grid and stage.finish_line > stage.start_line
    kinds = {s.kind for s in stage.spaces}
    assert SpaceKind.NORMAL in kinds
    assert any(s.corner is not None for s in stage.spaces)


def test_the_shipped_stages_use_every_feature_between_them():
    spaces = [s for n in stage_names() for s in load_stage(n).spaces]
    assert {s.kind for s in spaces} == set(SpaceKind)
    assert any(s.jump for s in spaces)
    assert any(s.lanes == (0, 1) and s.kind is SpaceKind.NORMAL for s in spaces)  # one-lane points


@pytest.mark.parametrize("name", ["../stages/pinewood-sprint", "/etc/passwd", "DUSTY-PINES", ""])
def test_a_name_is_never_a_path(name):
    with pytest.raises(StageError) as caught:
        load_stage(name)
    assert caught.value.reason == "no DIRT stage of that name"


@pytest.mark.parametrize("tiles", [6, 10, 14, 18, 31])
def test_B13_7_the_generator_makes_valid_stages_of_the_length_asked(tiles):
    for seed in range(40):
        stage = parse_stage(generate(seed, tiles), f"gen-{seed}.stage")
        assert len(stage.tiles) == tiles


def test_the_generator_is_deterministic_and_seeds_differ():
    assert generate(7, 14) == generate(7, 14)
    assert len({generate(seed, 14) for seed in range(10)}) == 10


def test_generated_stages_are_named_by_seed_and_length():
    assert len(load_stage("gen-7").tiles) == 10
    assert len(load_stage("gen-7-18").tiles) == 18
    assert load_stage("gen-7-18").spaces == parse_stage(generate(7, 18), "x.stage").spaces


def test_the_generator_refuses_a_length_the_box_cannot_lay():
    with pytest.raises(ValueError):
        generate(1, 32)
    with pytest.raises(StageError):
        load_stage("gen-1-40")
