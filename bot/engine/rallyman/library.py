"""Classic's library (bot.engine.core.game `Library`): its stages, rulesets, Rules+ modules and
`/rules` summary."""

from __future__ import annotations

from pathlib import Path

from bot.engine.core.difficulty import TIGHT_GEAR, length_class
from bot.engine.core.game import StageFacts, StageLibrary
from bot.engine.core.official import official_stage
from bot.engine.core.text import msg
from bot.engine.rallyman.out_reasons import OUT_REASONS
from bot.engine.rallyman.rules import RULES_PLUS
from bot.engine.rallyman.ruleset import load_ruleset, ruleset_names
from bot.engine.rallyman.stages.catalogue import is_stage_name, load_stage, stage_digest
from bot.engine.rallyman.stages.loader import stage_names


def rules_lines(ruleset: str) -> list[str]:
    """`/rules` for classic (RULES Part A): the ruleset shown and the others, the optional modules
    (A18–A23) and where the rules come from, as message keys. An unknown ruleset is refused
    (`DataError` naming the rulesets there are)."""
    load_ruleset(ruleset)
    return [msg("rules.classic.head", ruleset=ruleset, rulesets=", ".join(f"`{n}`" for n in ruleset_names())),
            msg("rules.classic.modules"), msg("rules.classic.options"), msg("rules.classic.source")]


#: classic's length classes, in spaces by the shortest line: short below 30, long from 60
MEDIUM_FROM, LONG_FROM = 30, 60


class ClassicStages:
    """Classic's stages: the shipped `.stage` files of data/rallyman/stages and the generated `gen-…` ones.

    Facts: the length in spaces by the shortest line, the zones in route order, tight corners
    (interior note 1–2, A8.1) and hazards (bumps, A10, and shortcuts, A8.4) for the difficulty."""

    def names(self) -> list[str]:
        return stage_names()

    def exists(self, name: str) -> bool:
        return is_stage_name(name)

    def facts(self, name: str) -> StageFacts:
        stage = load_stage(name)
        counts = stage.counts()
        return StageFacts(name, stage.title, stage.length, counts["corners"],
                          length_class=length_class(stage.length, MEDIUM_FROM, LONG_FROM), unit="spaces",
                          zones=stage.zone_order,
                          tight=sum(1 for c in stage.corners if c.interior_note <= TIGHT_GEAR),
                          hazards=counts["bumps"] + counts["shortcuts"])

    def digest(self, name: str) -> str:
        return stage_digest(name)

    def official(self, week: str) -> str:
        """The week's generated official stage, as it has always been named (RULES A24)."""
        return official_stage(week)


class ClassicLibrary:
    """Rallyman classic before a rally."""

    name = "game.rallyman"
    solo_runs = True
    stages: StageLibrary = ClassicStages()
    modules: tuple[str, ...] = RULES_PLUS
    out_reasons: tuple[str, ...] = OUT_REASONS
    texts: Path | None = Path(__file__).parent / "text"  # its own words, {en,fr,de}.json

    def rulesets(self) -> list[str]:
        return ruleset_names()  # "classic" first: the default

    def provisional(self, ruleset: str) -> bool:
        """Classic's rules are the published rules: never provisional."""
        return False

    def summary(self, ruleset: str) -> list[str]:
        """`/rules`: classic's rulesets and Rules+ modules and where the rules come from."""
        return rules_lines(ruleset)

    def default_stage(self, ruleset: str) -> None:
        """A rally of this game names its stage (`/rally create stage:`): there is no default."""
        return None


LIBRARY = ClassicLibrary()
