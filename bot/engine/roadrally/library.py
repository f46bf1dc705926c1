"""Road Rally USA's courses as the `StageLibrary` of the `Game` protocol (bot/engine/core/game.py).

A rally names a course the way a Rallyman rally names a stage:
- `base`: the fixed base layout (C2);
- `standard`: the variable course (C7) laid out from the rally's own seed when it starts (every
  game a new road), and `sprint` the same for the sprint (C9);
- `std-SEED` / `sprint-SEED`: one such layout fixed by its seed (the same road on every server).

Facts count road spaces. Road Rally has no corners to speak of (its cards move straight along the
road), so the difficulty formula of `bot.engine.core.difficulty` sees only the length and the
hazards, the shortcuts (C5). The week's "official" course exists for the protocol's sake only: a
table game has no world scratch (`solo_runs` False).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from bot.engine.core.difficulty import length_class
from bot.engine.core.errors import NotAllowed
from bot.engine.core.game import StageFacts, StageLibrary
from bot.engine.core.text import msg
from bot.engine.roadrally.course.courses import COURSE_NAME, load_course
from bot.engine.roadrally.course.tiles import tiles_text
from bot.engine.roadrally.presets import PRESETS
from bot.engine.roadrally.road import Road, SpaceKind
from bot.engine.roadrally.rules_text import rules_lines

#: the courses a rally may name (the first: the default of the standard presets)
NAMES = ("standard", "base", "sprint")
#: a seeded course's seed is shown and stored in 9 digits at most (`std-123456789`)
SEED_DIGITS = 10**9
MEDIUM_FROM, LONG_FROM = 60, 90  # road spaces: a sprint (about 48) is short, the 80 of base and standard long


def course_of(name: str, seed: int) -> str:
    """The laid course a rally plays: `standard` and `sprint` get the rally's seed; others are fixed."""
    if name == "standard":
        return f"std-{seed % SEED_DIGITS}"
    if name == "sprint":
        return f"sprint-{seed % SEED_DIGITS}"
    return name


def is_sprint(course: str) -> bool:
    return course == "sprint" or course.startswith("sprint-")


def title_of(course: str) -> str:
    """A course's title, in the reader's words (`Road Rally USA · course std-12`)."""
    return msg("roadrally.course_title", course=course)


class RoadRallyCourses:
    """The courses by name (names never used as paths)."""

    def names(self) -> list[str]:
        return list(NAMES)

    def exists(self, name: str) -> bool:
        return name in NAMES or COURSE_NAME.fullmatch(name) is not None

    def road(self, name: str) -> Road:
        """The road of a name (`standard`, `sprint`: seed 0's, to describe them before a rally)."""
        if not self.exists(name):
            raise NotAllowed(msg("roadrally.unknown_course", name=name[:40]))
        return load_course(course_of(name, 0))

    def facts(self, name: str) -> StageFacts:
        road = self.road(name)
        shortcuts = sum(1 for s in road.spaces if s.kind is SpaceKind.SHORTCUT)
        length = len(road.spaces)
        return StageFacts(name, title_of(name), length, 0,
                          length_class=length_class(length, MEDIUM_FROM, LONG_FROM), unit="spaces",
                          hazards=shortcuts)

    def digest(self, name: str) -> str:
        """SHA-256 of the tile file and the course's name (the name fixes the layout from it)."""
        self.road(name)
        return hashlib.sha256(f"{name}\n{tiles_text()}".encode()).hexdigest()

    def official(self, week: str) -> str:
        """A course for the week, from the week alone (no world scratch for a table game)."""
        digest = hashlib.sha256(f"roadrally-{week}".encode()).digest()
        return f"std-{int.from_bytes(digest[:4], 'big') % SEED_DIGITS}"


ROADRALLY_COURSES = RoadRallyCourses()


#: the optional rule modules a Road Rally lobby may turn on, and why a seat may be out
MODULES = ("sprint",)
OUT_REASONS = ("retired",)


class RoadRallyLibrary:
    """Road Rally USA before a game."""

    name = "game.roadrally"
    solo_runs = False
    stages: StageLibrary = ROADRALLY_COURSES
    modules: tuple[str, ...] = MODULES
    out_reasons: tuple[str, ...] = OUT_REASONS
    texts: Path | None = Path(__file__).parent / "text"  # its own words, {en,fr,de}.json

    def rulesets(self) -> list[str]:
        """The presets, `rr-standard` first (the default: RR-EN's standard rules)."""
        return sorted(PRESETS, key=lambda n: (n != "rr-standard", n))

    def provisional(self, ruleset: str) -> bool:
        return False

    def summary(self, ruleset: str) -> list[str]:
        return rules_lines(ruleset)

    def default_stage(self, ruleset: str) -> str:
        """The base rules play the fixed base course (C2); the others the variable course (C7)."""
        return "base" if ruleset == "rr-base" else "standard"


LIBRARY = RoadRallyLibrary()
