"""DIRT's stages as the `StageLibrary` of its `Game` (bot.engine.core.game): the shipped hex stages
of data/dirt/stages/ and the generated `gen-SEED[-TILES]` ones (RULES B2, B13.7)."""

from __future__ import annotations

import hashlib

from bot.engine.core.errors import NotAllowed
from bot.engine.core.game import StageFacts
from bot.engine.core.text import msg
from bot.engine.dirt.official import official_stage
from bot.engine.dirt.stages.catalogue import generated_name, load_stage, stage_names, stages_dir
from bot.engine.dirt.stages.generator import generate


class DirtStages:
    """Names for autocomplete and listings, facts for a lobby post, a digest for result cards."""

    def names(self) -> tuple[str, ...]:
        return stage_names()

    def exists(self, name: str) -> bool:
        return name in stage_names() or generated_name(name) is not None

    def facts(self, name: str) -> StageFacts:
        if not self.exists(name):
            raise NotAllowed(msg("dirt.unknown_stage", name=name[:40], names=", ".join(stage_names())))
        stage = load_stage(name)
        corners = len({s.corner for s in stage.spaces if s.corner is not None})
        return StageFacts(name, stage.title, len(stage.tiles), corners)

    def official(self, week: str) -> str:
        """The week's official DIRT stage (its world scratch), generated from the week alone."""
        return official_stage(week)

    def digest(self, name: str) -> str:
        """SHA-256 of the stage's text (a result card names the stage it was driven on)."""
        self.facts(name)
        return hashlib.sha256(stage_text(name).encode("utf-8")).hexdigest()


def stage_text(name: str) -> str:
    """The text a stage is read from: its file, or what the generator writes for its seed."""
    generated = generated_name(name)
    if generated is not None:
        return generate(*generated)
    return (stages_dir() / f"{name}.stage").read_text(encoding="utf-8")
