"""Achievements as data (`data/careers/achievements.json`): a closed set of condition
kinds the code evaluates from a driver's career stats and the facts of the rally just finished.

Kinds (each validated: unknown kinds, stats, games or bounds are refused naming the file, the
field and the reason):

- `stat`: a career total reaches `at_least` (`rallies`, `finishes`, `stages`, `wins`, `podiums`,
  or `games`: the number of games raced), over every game;
- `clean`: the rally finished without a loss of control, in a game that counts them;
- `flat_out`: the rally finished with at least `share` of its turns ended in the game's top gear
  (1.0: top gear only), in a game with gears;
- `comeback`: won a rally of several cars after starting last;
- `personal_best`: finished a stage faster (or, in points, higher) than the driver's best on it;
- `survivor`: finished a rally after `at_least` losses of control;
- `games_won`: a win in each of `games`.

Names and descriptions are the message keys `career.ach_<id>` and `career.ach_<id>_about`
(`keys_of`, the one place they are built; a test checks every one exists in EN, FR and DE).
Each is earned once per driver (the store's key) and announced where it was earned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot import games
from bot.engine.core.data_files import parse_model
from bot.engine.core.errors import DataError
from bot.paths import data_dir

Stat = Literal["rallies", "finishes", "stages", "wins", "podiums", "games"]
Kind = Literal["stat", "clean", "flat_out", "comeback", "personal_best", "survivor", "games_won"]


class Achievement(BaseModel):
    """One achievement: its id (the key of its texts) and its condition."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
    kind: Kind
    stat: Stat | None = None
    at_least: Annotated[int, Field(ge=1, le=100_000)] | None = None
    share: Annotated[float, Field(gt=0, le=1)] | None = None
    games: tuple[str, ...] = ()

    @field_validator("games")
    @classmethod
    def _known_games(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [g for g in value if g not in games.ids()]
        if unknown:
            raise ValueError(f"unknown game {unknown[0]!r} (games: {', '.join(games.ids())})")
        return value

    @model_validator(mode="after")
    def _fields_of_kind(self) -> Achievement:
        needs = {"stat": ("stat", "at_least"), "survivor": ("at_least",), "flat_out": ("share",),
                 "games_won": ("games",)}
        for name in needs.get(self.kind, ()):
            if not getattr(self, name):
                raise ValueError(f"a {self.kind!r} achievement needs {name!r}")
        allowed = set(needs.get(self.kind, ()))
        for name in ("stat", "at_least", "share", "games"):
            if name not in allowed and getattr(self, name):
                raise ValueError(f"{name!r} means nothing to a {self.kind!r} achievement")
        return self


class AchievementFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    achievements: tuple[Achievement, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> AchievementFile:
        seen: set[str] = set()
        for a in self.achievements:
            if a.id in seen:
                raise ValueError(f"achievement {a.id!r} is defined twice")
            seen.add(a.id)
        return self


def achievements_path() -> Path:
    return data_dir() / "careers" / "achievements.json"


def load_achievements(path: Path | None = None) -> tuple[Achievement, ...]:
    """The achievements of `path` (default: the shipped file), validated."""
    path = path or achievements_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(str(path), "(file)", f"cannot be read ({type(exc).__name__})") from None
    return parse_model(AchievementFile, text, str(path)).achievements


@lru_cache(maxsize=1)
def shipped() -> tuple[Achievement, ...]:
    return load_achievements()


def keys_of(achievement_id: str) -> tuple[str, str]:
    """The message keys of an achievement's name and description (the one place they are built)."""
    return f"career.ach_{achievement_id}", f"career.ach_{achievement_id}_about"


@dataclass(frozen=True)
class Totals:
    """A driver's career totals over every game (what `stat` conditions read)."""

    rallies: int = 0
    finishes: int = 0
    stages: int = 0
    wins: int = 0
    podiums: int = 0
    games: int = 0
    won_games: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RallyFacts:
    """What the finished rally says of one driver (what the other conditions read)."""

    game: str
    finished: bool
    won: bool  # first of a rally of several cars
    started_last: bool
    counters: dict[str, int]
    beat_best: bool  # finished better than the driver's best on this stage before


def met(a: Achievement, totals: Totals, facts: RallyFacts) -> bool:
    """Whether the condition of `a` holds now."""
    c = facts.counters
    if a.kind == "stat":
        return getattr(totals, a.stat or "rallies") >= (a.at_least or 1)
    if a.kind == "clean":
        return facts.finished and "losses" in c and c.get("turns", 0) > 0 and c["losses"] == 0
    if a.kind == "flat_out":
        ended = sum(n for k, n in c.items() if k.startswith("gear."))
        return facts.finished and "top" in c and ended > 0 and c["top"] >= (a.share or 1.0) * ended
    if a.kind == "comeback":
        return facts.won and facts.started_last
    if a.kind == "personal_best":
        return facts.finished and facts.beat_best
    if a.kind == "survivor":
        return facts.finished and c.get("losses", 0) >= (a.at_least or 1)
    if a.kind == "games_won":
        return set(a.games) <= totals.won_games
    return False


def newly_met(achievements: Sequence[Achievement], totals: Totals, facts: RallyFacts) -> list[Achievement]:
    """The achievements whose condition holds (those earned already are skipped by the store)."""
    return [a for a in achievements if met(a, totals, facts)]
