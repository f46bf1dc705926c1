"""The seeded stage generator: always a valid stage of about the asked length, the same for a seed."""

from __future__ import annotations

import random

import pytest

from bot.engine.rallyman.stages import generator as stage_generator
from bot.engine.rallyman.stages.generator import TOLERANCE, generate
from bot.engine.rallyman.stages.loader import parse_stage
from bot.engine.rallyman.stages.model import SpaceKind


def _load(text: str, zones, seed: int):
    return parse_stage(text, f"generated-{seed}.stage", zones)


def test_200_seeds_all_give_valid_stages_of_the_asked_length(zones):
    for seed in range(200):
        stage = _load(generate(seed), zones, seed)
        assert abs(stage.length - 30) <= 30 * TOLERANCE, (seed, stage.length)
        assert stage.counts()["corners"] >= 1
        assert stage.counts()["splits"] >= 1


@pytest.mark.parametrize("length", [12, 18, 45, 60, 90])
def test_the_length_is_within_tolerance_for_short_and_long_stages(zones, length):
    for seed in range(8):
        stage = _load(generate(seed, length), zones, seed)
        assert abs(stage.length - length) <= length * TOLERANCE, (seed, length, stage.length)


@pytest.mark.parametrize(("length", "seeds"), [(18, 150), (30, 150), (60, 25), (90, 12)])
def test_AMB_21_the_generator_never_puts_a_corner_among_the_two_spaces_after_a_bump(zones, jump_skips, length,
                                                                                     seeds):
    """AMB-21 / A10.3: over many seeds and lengths, no generated stage lets a jump fly over a
    corner's entry (the loader refuses such a stage too, so every seed must load)."""
    for seed in range(seeds):
        stage = _load(generate(seed, length), zones, seed)
        assert jump_skips(stage) == [], (seed, length)


def test_the_same_seed_gives_the_same_text_whatever_the_global_random_state():
    random.seed(1)
    first = generate(42, 35)
    random.seed(2)
    random.random()
    assert generate(42, 35) == first


def test_the_generator_never_uses_the_global_random_functions(monkeypatch):
    def forbidden(*_args, **_kwargs):
        raise AssertionError("global random used")

    for name in ("random", "choice", "choices", "randint", "randrange", "sample", "shuffle", "uniform"):
        monkeypatch.setattr(random, name, forbidden)
    assert "finish" in generate(7)


def test_different_seeds_give_different_stages():
    texts = {generate(seed) for seed in range(50)}
    assert len(texts) == 50


def test_generated_stages_have_the_ingredients_of_a_rally(zones):
    """Over a few seeds: hairpins and fast corners, bumps, shortcuts, several zones, snow sometimes."""
    stages = [_load(generate(seed, 40), zones, seed) for seed in range(30)]
    notes = {c.interior_note for s in stages for c in s.corners}
    assert {1, 2} & notes and {4, 5} & notes
    assert any(s.counts()["bumps"] >= 2 for s in stages)
    assert any(s.counts()["shortcuts"] >= 1 for s in stages)
    assert all(any(sp.kind is SpaceKind.SKID for sp in s.spaces) for s in stages)
    assert any(len(s.zone_order) > 1 for s in stages)
    assert any(s.snow_zones for s in stages) and any(not s.snow_zones for s in stages)
    assert all(set(s.zone_order) <= set(zones) for s in stages)


def test_the_text_is_inline_and_uses_the_format(zones):
    text = generate(3)
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines[0].startswith("title: ")
    assert "start" in lines and lines[-1] == "finish" and "split" in lines
    assert any(line.startswith("zone ") for line in lines)
    assert not any(line.startswith("route:") for line in lines)


def test_the_gentle_fallback_layout_is_valid_too(zones):
    """If a seed ever kept running over itself, the generator lays gentle corners instead."""
    for seed in range(20):
        generator = stage_generator._Generator(random.Random(seed), seed, 30, zones)
        blocks = generator._lay(gentle=True)
        assert blocks is not None
        stage = _load(generator._text(blocks), zones, seed)
        assert abs(stage.length - 30) <= 30 * TOLERANCE


@pytest.mark.parametrize("length", [5, 11, 121])
def test_a_length_out_of_range_is_refused_with_the_range(length):
    with pytest.raises(ValueError, match=r"12 to 120 spaces"):
        generate(1, length)
