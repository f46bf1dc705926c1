"""DIRT's `StageLibrary` (bot/engine/dirt/library.py): names, exists, facts and digests over the
catalogue, tested directly (DIRT is not a registered game yet)."""

from __future__ import annotations

import hashlib

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.core.game import StageLibrary
from bot.engine.dirt.library import DIRT_STAGES, DirtStages, jumps, shortcuts, slides
from bot.engine.dirt.stages import catalogue
from bot.engine.dirt.stages.generator import generate


def test_it_is_a_stage_library():
    assert isinstance(DirtStages(), StageLibrary)


def test_names_are_the_shipped_files():
    assert DIRT_STAGES.names() == sorted(p.stem for p in catalogue.stages_dir().glob("*.stage"))
    assert len(DIRT_STAGES.names()) >= 10


def test_exists_knows_shipped_and_generated_names_only():
    assert DIRT_STAGES.exists("mill-ford")
    assert DIRT_STAGES.exists("gen-12") and DIRT_STAGES.exists("gen-12-18")
    assert not DIRT_STAGES.exists("gen-12-99")  # B1: at most 31 tiles
    assert not DIRT_STAGES.exists("../stages/mill-ford") and not DIRT_STAGES.exists("no-such")


@pytest.mark.parametrize("name", catalogue.stage_names())
def test_B2_facts_count_tiles_corners_and_length_class(name):
    stage = catalogue.load_stage(name)
    facts = DIRT_STAGES.facts(name)
    corners = [t for t in stage.tiles if t.kind != "straight"]
    assert (facts.name, facts.title, facts.length, facts.unit) == (name, stage.title, len(stage.tiles), "tiles")
    assert facts.corners == len(corners)
    assert facts.length_class == stage.length  # B2: short 10, medium 14, long 18 tiles
    assert facts.zones == ()
    assert facts.tight == sum(1 for t in corners if t.inside is not None and t.inside <= 2)
    assert facts.hazards == jumps(stage) + shortcuts(stage)
    assert 1 <= facts.difficulty <= 5


def test_figures_count_what_the_stage_text_says():
    """mill-ford.stage: one jump tile, one shortcut, one slide tile (B9-B11)."""
    text = (catalogue.stages_dir() / "mill-ford.stage").read_text(encoding="utf-8")
    stage = catalogue.load_stage("mill-ford")
    notes = [line.split("#")[0] for line in text.splitlines()]
    assert jumps(stage) == sum(" jump " in f" {n} " for n in notes)
    assert shortcuts(stage) == sum(" shortcut " in f" {n} " for n in notes)
    assert slides(stage) == sum(" slide " in f" {n} " for n in notes)


def test_unknown_stage_facts_are_refused_with_the_names_there_are():
    with pytest.raises(RallyError, match="mill-ford"):
        DIRT_STAGES.facts("no-such-stage")


def test_digest_is_the_sha256_of_the_stage_text():
    text = (catalogue.stages_dir() / "mill-ford.stage").read_text(encoding="utf-8")
    assert DIRT_STAGES.digest("mill-ford") == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert DIRT_STAGES.digest("gen-4-14") == hashlib.sha256(generate(4, 14).encode("utf-8")).hexdigest()
    with pytest.raises(RallyError):
        DIRT_STAGES.digest("no-such-stage")
