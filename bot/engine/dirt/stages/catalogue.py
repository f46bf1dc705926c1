"""Every DIRT stage a rally can name: the shipped ones (`data/dirt/stages/NAME.stage`) and the
generated ones, `gen-SEED` (10 tiles) or `gen-SEED-TILES`, the same on every server.

A name is looked up among the shipped files or read as a seed, never used as a path: an unknown
name is refused with the names that exist.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from bot.engine.core.errors import StageError
from bot.engine.dirt.stages.generator import LENGTHS, generate
from bot.engine.dirt.stages.loader import load_file, parse_stage
from bot.engine.dirt.stages.model import DirtStage
from bot.paths import data_dir

GENERATED = re.compile(r"gen-(\d{1,9})(?:-(\d{1,2}))?")


def generated_name(name: str) -> tuple[int, int] | None:
    """(seed, tiles) of a generated stage's name, or None."""
    match = GENERATED.fullmatch(name)
    if match is None:
        return None
    tiles = int(match.group(2) or 10)
    return (int(match.group(1)), tiles) if tiles in LENGTHS else None


def stages_dir() -> Path:
    return data_dir() / "dirt" / "stages"


def stage_names() -> tuple[str, ...]:
    """Every shipped DIRT stage's name, sorted."""
    return tuple(sorted(p.stem for p in stages_dir().glob("*.stage")))


@lru_cache(maxsize=64)
def load_stage(name: str) -> DirtStage:
    """The stage of that name, shipped or generated (cached: stages never change)."""
    generated = generated_name(name)
    if generated is not None:
        return parse_stage(generate(*generated), f"{name}.stage", name)
    names = stage_names()
    if name not in names:
        raise StageError(name, None, "no DIRT stage of that name", f"shipped stages: {', '.join(names)}")
    return load_file(stages_dir() / f"{name}.stage")
