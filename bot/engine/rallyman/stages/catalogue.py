"""Every stage a rally can name: the shipped ones, and the generated ones named by their seed.

`gen-7` is the generator's stage of seed 7 (30 spaces), `gen-7-35` the one of 35 spaces: the same
name always gives the same stage on every server (RULES A24: a stage is data; the generator is
deterministic), so a course can use a stage nobody had to write. A name is looked up, never used
as a path.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from bot.engine.core.stage_text import read_stage_file
from bot.engine.rallyman.stages.generator import generate, generator_zones
from bot.engine.rallyman.stages.loader import load_stage as load_shipped_stage
from bot.engine.rallyman.stages.loader import parse_stage, shipped_zones, stage_names
from bot.engine.rallyman.stages.model import Stage
from bot.paths import data_dir

GENERATED = re.compile(r"gen-(\d{1,9})(?:-(\d{2,3}))?")
GENERATED_LENGTHS = (12, 120)


def generated_name(name: str) -> tuple[int, int] | None:
    """(seed, length) of a generated stage's name, or None."""
    match = GENERATED.fullmatch(name)
    if match is None:
        return None
    length = int(match.group(2) or 30)
    low, high = GENERATED_LENGTHS
    return (int(match.group(1)), length) if low <= length <= high else None


def is_stage_name(name: str) -> bool:
    """A shipped stage, or a generated one named by its seed and length."""
    return name in stage_names() or generated_name(name) is not None


@lru_cache(maxsize=64)
def load_stage(name: str) -> Stage:
    """The stage of that name, shipped or generated (cached: stages never change)."""
    generated = generated_name(name)
    if generated is None:
        return load_shipped_stage(name)
    seed, length = generated
    text = generate(seed, length, generator_zones(shipped_zones()))
    return parse_stage(text, f"{name}.stage", shipped_zones(), name=name)


def stage_text(name: str) -> str:
    """The text a stage is read from: its shipped file, or the generator's output for its seed."""
    generated = generated_name(name)
    if generated is None:
        load_shipped_stage(name)  # refuses an unknown name (never a path)
        return read_stage_file(data_dir() / "rallyman" / "stages" / f"{name}.stage")
    seed, length = generated
    return generate(seed, length, generator_zones(shipped_zones()))


def stage_digest(name: str) -> str:
    """SHA-256 of the stage's text: a result card names the exact stage it was driven on."""
    return hashlib.sha256(stage_text(name).encode("utf-8")).hexdigest()
