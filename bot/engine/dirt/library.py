"""DIRT's stage library: the `StageLibrary` of the `Game` protocol (bot/engine/core/game.py) over
DIRT's catalogue (`data/dirt/stages/` and the generated `gen-SEED[-TILES]` stages).

Facts count hex tiles (B2: short 10, medium 14, long 18 tiles, grid and run-off included), corner
tiles, tight corners (inside limit 1–2, B8) and hazards (jumps, B11, and shortcuts, B10), so the
difficulty is the same formula as classic's (`bot.engine.core.difficulty`). DIRT has no zones.
`slides` and `jumps` are DIRT's own figures, for `python -m bot stage list --game dirt`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from bot.engine.core.difficulty import TIGHT_GEAR, length_class
from bot.engine.core.errors import NotAllowed
from bot.engine.core.game import StageFacts, StageLibrary
from bot.engine.core.stage_text import read_stage_file
from bot.engine.core.text import msg
from bot.engine.dirt.official import official_stage
from bot.engine.dirt.out_reasons import OUT_REASONS
from bot.engine.dirt.rules_text import rules_lines
from bot.engine.dirt.ruleset import DEFAULT_RULESET, load_ruleset, ruleset_names
from bot.engine.dirt.stages import catalogue
from bot.engine.dirt.stages.generator import generate
from bot.engine.dirt.stages.model import DirtStage, SpaceKind

#: DIRT's length classes in tiles, between B2's 10, 14 and 18
MEDIUM_FROM, LONG_FROM = 12, 16


class DirtStages:
    """DIRT's stages by name: shipped files and generated ones (names never used as paths)."""

    def names(self) -> list[str]:
        return list(catalogue.stage_names())

    def exists(self, name: str) -> bool:
        return name in catalogue.stage_names() or catalogue.generated_name(name) is not None

    def facts(self, name: str) -> StageFacts:
        """Refuses an unknown name, naming the shipped stages and how to name a generated one."""
        if not self.exists(name):
            raise NotAllowed(msg("dirt.unknown_stage", name=name[:40], names=", ".join(catalogue.stage_names())))
        stage = catalogue.load_stage(name)
        corners = [t for t in stage.tiles if t.kind != "straight"]
        return StageFacts(name, stage.title, len(stage.tiles), len(corners),
                          length_class=length_class(len(stage.tiles), MEDIUM_FROM, LONG_FROM), unit="tiles",
                          tight=sum(1 for t in corners if t.inside is not None and t.inside <= TIGHT_GEAR),
                          hazards=jumps(stage) + shortcuts(stage))

    def official(self, week: str) -> str:
        """The week's official DIRT stage (its world scratch), generated from the week alone."""
        return official_stage(week)

    def digest(self, name: str) -> str:
        """SHA-256 of the stage's text: its shipped file, or the generator's text for its seed."""
        return hashlib.sha256(stage_text(name).encode("utf-8")).hexdigest()


def stage_text(name: str) -> str:
    """The text a DIRT stage is read from (an unknown name is refused by the catalogue)."""
    generated = catalogue.generated_name(name)
    if generated is not None:
        return generate(*generated)
    catalogue.load_stage(name)  # refuses an unknown name, never reads a path from it
    return read_stage_file(catalogue.stages_dir() / f"{name}.stage")


def jumps(stage: DirtStage) -> int:
    """Tiles with a jump symbol (B11)."""
    return len({s.tile for s in stage.spaces if s.jump is not None})


def shortcuts(stage: DirtStage) -> int:
    """Corner tiles with a shortcut space (B10)."""
    return sum(1 for t in stage.tiles if t.shortcut is not None)


def slides(stage: DirtStage) -> int:
    """Tiles with a slide pair (B9)."""
    return len({s.tile for s in stage.spaces if s.kind is SpaceKind.SLIDE})


DIRT_STAGES = DirtStages()


#: the optional rule modules a DIRT lobby may turn on
MODULES = ("sisu",)


class DirtLibrary:
    """Rallyman: DIRT before a rally."""

    name = "game.dirt"
    solo_runs = True
    stages: StageLibrary = DIRT_STAGES
    modules: tuple[str, ...] = MODULES
    out_reasons: tuple[str, ...] = OUT_REASONS
    texts: Path | None = Path(__file__).parent / "text"  # its own words, {en,fr,de}.json

    def rulesets(self) -> list[str]:
        """"provisional" first: the default (the B13 house rules, RULES Part B)."""
        names = ruleset_names()
        return sorted(names, key=lambda n: n != DEFAULT_RULESET)

    def provisional(self, ruleset: str) -> bool:
        """The ruleset file says whether its rules are provisional (B13: every default is)."""
        return load_ruleset(ruleset).provisional

    def summary(self, ruleset: str) -> list[str]:
        """`/rules`: the B13 defaults with their OPEN ids, numbers from the ruleset file."""
        return rules_lines(ruleset)

    def default_stage(self, ruleset: str) -> None:
        """A rally of this game names its stage (`/rally create stage:`): there is no default."""
        return None


LIBRARY = DirtLibrary()
