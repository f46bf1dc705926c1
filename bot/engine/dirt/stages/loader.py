"""Loading DIRT stages: text in, a built and validated `DirtStage` out, or a `StageError`."""

from __future__ import annotations

from pathlib import Path

from bot.engine.core.stage_text import read_stage_file
from bot.engine.dirt.stages.build import build_stage
from bot.engine.dirt.stages.format import parse_text
from bot.engine.dirt.stages.model import DirtStage
from bot.engine.dirt.stages.validate import validate


def parse_stage(text: str, source: str, name: str | None = None) -> DirtStage:
    """The stage written in `text`; `source` names it in errors (a file name, usually)."""
    parsed = parse_text(text, source)
    return validate(build_stage(parsed, name or Path(source).stem))


def load_file(path: Path) -> DirtStage:
    """A stage file an organiser wrote (e.g. for `stage validate`)."""
    return parse_stage(read_stage_file(path, path.name), path.name, path.stem)
