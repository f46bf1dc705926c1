"""Rulesets: every number and every OPEN/AMB default of RULES.md, loaded from data/rallyman/rulesets/.

The engine reads these settings instead of constants, so a rulebook edition's rules (classic,
classic-consecutive, classic-sisu) or a house rule is a data file. Validation errors name the
file, the field and the reason.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.engine.core.data_files import parse_model
from bot.engine.core.errors import DataError
from bot.paths import data_dir

GEARS = ("1", "2", "3", "4", "5")
DIE_IDS = GEARS + ("W",)


#: the loss-of-control events of the event die (A11.2)
LocEvent = Literal["spin", "off_left", "off_right"]

class DiceSpec(BaseModel):
    """Die faces (RULES A1, OPEN-1): how many of the `faces` of each die show ⚠."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    faces: int = Field(6, ge=2, le=20)
    hazard_faces: dict[str, int]
    black_dice: int = Field(5, ge=1, le=5)
    white_dice: int = Field(2, ge=0, le=2)

    @model_validator(mode="after")
    def _every_die(self) -> DiceSpec:
        missing = [d for d in DIE_IDS if d not in self.hazard_faces]
        if missing:
            raise ValueError(f"hazard_faces misses die {', '.join(missing)} (dice are 1-5 and W)")
        for die, n in self.hazard_faces.items():
            if die not in DIE_IDS:
                raise ValueError(f"hazard_faces has unknown die '{die}' (dice are 1-5 and W)")
            if not 0 <= n <= self.faces:
                raise ValueError(f"hazard_faces.{die} = {n} is not between 0 and {self.faces}")
        return self


def _per_gear(value: dict[str, int], what: str) -> dict[str, int]:
    missing = [g for g in GEARS if g not in value]
    if missing:
        raise ValueError(f"{what} misses gear {', '.join(missing)}")
    if any(v < 0 for v in value.values()):
        raise ValueError(f"{what} has a negative time")
    return value


class Modules(BaseModel):
    """Optional rule modules switchable per rally (RULES A22 SISU, A23 shakedown; Rules+ A20
    weather and tires, A21 split times shown to all)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sisu: bool = False
    shakedown: bool = False
    weather: bool = False
    splits: bool = False
    attack: bool = False  # A18 time attack
    seconds: bool = False  # A19 spending second markers (won by time attacks, A18.4)


class Ruleset(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    dice: DiceSpec
    gear_card_seconds: dict[str, int]
    loc_card_seconds: dict[str, int]
    loc_events: dict[LocEvent, int]
    spare_tire_seconds: int = Field(ge=0)
    no_move_neutral_seconds: int = Field(ge=0)
    shortcut_deck: dict[Literal["good", "dirty", "flat"], int]
    hazard_limit: int = Field(ge=1, le=7)
    snow_hazard_limit: int = Field(ge=1, le=7)
    snow_threshold_scope: Literal["surface", "turn"]
    stagger: Literal["interleaved", "consecutive"]
    overspeed_reference: Literal["highest", "space"]
    bump_beyond_n2: Literal["as_n2", "knocked_out"]
    bump_landing_full: Literal["illegal"]
    skid_bailout: Literal["any_but_last", "anywhere"]
    spun_car_blocks_corner: bool
    finish_loc_black_dice: int = Field(ge=0, le=5)
    knocked_out_at_black_lost: int = Field(ge=1, le=5)
    flats_knock_out_at: int = Field(ge=1)
    sisu_scope: Literal["turn", "die"]
    sisu_against_bump: bool
    dirt_cleared_after_stage: bool
    #: A19.2 / AMB-7 option: second markers may place a die at any time, not only when one more ⚠
    #: would be a loss of control.
    spend_seconds_anytime: bool = False
    #: A20.1 / AMB-16: with the weather module on, `uncertain` rolls each zone's side at the start
    #: of every special; `certain` keeps the stage's fixed snow zones.
    weather_forecast: Literal["uncertain", "certain"] = "uncertain"
    #: A20.1 / OPEN-13: the gear die rolled for the i-th zone of a special is weather_dice[(i-1) mod len].
    weather_dice: tuple[Literal["1", "2", "3", "4", "5"], ...] = ("1", "2", "3", "4", "5")
    modules: Modules

    @field_validator("gear_card_seconds")
    @classmethod
    def _gear_cards(cls, v: dict[str, int]) -> dict[str, int]:
        return _per_gear(v, "gear_card_seconds")

    @field_validator("loc_card_seconds")
    @classmethod
    def _loc_cards(cls, v: dict[str, int]) -> dict[str, int]:
        return _per_gear(v, "loc_card_seconds")

    @field_validator("weather_dice")
    @classmethod
    def _weather_dice(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if not v:
            raise ValueError("needs at least one gear die (1-5)")
        return v

    @field_validator("loc_events", "shortcut_deck")
    @classmethod
    def _weights(cls, v: dict[str, int]) -> dict[str, int]:
        if sum(v.values()) <= 0 or any(n < 0 for n in v.values()):
            raise ValueError("needs non-negative counts with at least one above 0")
        return v

    def hazard_probability(self, die: str) -> float:
        """Chance that `die` ('1'..'5' or 'W') shows ⚠ (RULES A1, OPEN-1)."""
        return self.dice.hazard_faces[die] / self.dice.faces

    def snow_count(self, hazards: int, snow_hazards: int) -> int:
        """The ⚠ of a turn that count against the snow limit of asphalt tires (A20.3): those on
        snow spaces, or with the AMB-8 option `snow_threshold_scope: turn` every ⚠ of the turn
        once one was on snow. The turn, the risk preview and the time-attack odds all ask this."""
        return hazards if self.snow_threshold_scope == "turn" and snow_hazards else snow_hazards

    def card_seconds(self, gear: int) -> int:
        return self.gear_card_seconds[str(gear)]

    def with_modules(self, **modules: bool) -> Ruleset:
        """A copy with some modules switched (per-rally choice of the host)."""
        return self.model_copy(update={"modules": self.modules.model_copy(update=modules)})


def parse_ruleset(text: str, source: str) -> Ruleset:
    """A ruleset from its JSON text; `source` names the file in errors."""
    return parse_model(Ruleset, text, source)


#: Former names: the rulesets were named after the language of their rulebook edition, which read
#: like a choice of language. Rallies stored under the old names still load (and replay as they were).
RENAMED = {"classic-en": "classic", "classic-fr": "classic-consecutive", "classic-de": "classic-sisu"}
DEFAULT_RULESET = "classic"


@lru_cache(maxsize=16)
def load_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """A shipped ruleset by name (data/rallyman/rulesets/<name>.json), or by its former name."""
    name = RENAMED.get(name, name)
    path = data_dir() / "rallyman" / "rulesets" / f"{name}.json"
    if not path.exists():
        known = ", ".join(sorted(p.stem for p in path.parent.glob("*.json")))
        raise DataError(f"data/rallyman/rulesets/{name}.json", "name", f"no ruleset named '{name}' (known: {known})")
    return parse_ruleset(path.read_text(encoding="utf-8"), f"data/rallyman/rulesets/{name}.json")


def ruleset_names() -> list[str]:
    return sorted(p.stem for p in (data_dir() / "rallyman" / "rulesets").glob("*.json"))
