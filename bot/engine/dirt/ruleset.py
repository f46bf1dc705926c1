"""DIRT's ruleset: every number and every house default of RULES B13, loaded from data/dirt/rulesets/.

DIRT's rulebook is only partly known, so each gap is filled with a labelled default (B13) that is
data here, not code: the real values replace them without a code change. Validation errors name
the file, the field and the reason (`DataError`), as classic's rulesets do.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from bot.engine.core.data_files import parse_model
from bot.engine.core.errors import DataError
from bot.engine.dirt.dice import DICE, GEAR_DICE
from bot.paths import data_dir

GEARS = tuple(int(g) for g in GEAR_DICE)
DAMAGE_TOKENS = ("ok", "coast", "minus_one", "brake")  # B13.4, the kinds of the bag
Column = Literal["gravel", "gravel_leader"]


class DiceColumn(BaseModel):
    """One surface column of the dashboard (B6.1): the dice it offers and its ⚠ limit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gears: tuple[int, ...]
    coast: int = Field(ge=0, le=6)
    leader: int = Field(ge=0, le=6)
    brake: int = Field(ge=0, le=6)
    #: reaching this many ⚠ in one turn is a loss of control (B6.1, B13.1)
    hazard_limit: int = Field(ge=1, le=20)

    @field_validator("gears")
    @classmethod
    def _gears(cls, v: tuple[int, ...]) -> tuple[int, ...]:
        if not v:
            raise ValueError("needs at least one gear die")
        wrong = [g for g in v if g not in GEARS]
        if wrong:
            raise ValueError(f"gear die {wrong[0]} does not exist (gear dice are 1-6)")
        if len(set(v)) != len(v):
            raise ValueError("lists a gear die twice (each gear has one die)")
        return tuple(sorted(v))


class Dashboard(BaseModel):
    """The dashboard's columns (B6.1). Asphalt and snow exist as fields for the expansions but are
    refused while this ruleset has no rule for them (B13.6)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gravel: DiceColumn
    gravel_leader: DiceColumn
    asphalt: DiceColumn | None = None
    snow: DiceColumn | None = None

    @field_validator("asphalt", "snow")
    @classmethod
    def _unruled(cls, v: DiceColumn | None) -> DiceColumn | None:
        if v is not None:
            raise ValueError("must be null: this ruleset has no rule for this surface yet (B13.6)")
        return v

    @model_validator(mode="after")
    def _columns(self) -> Dashboard:
        if self.gravel.leader:
            raise ValueError("gravel.leader must be 0: leader dice are the leader column's (B6.4)")
        if not self.gravel_leader.leader:
            raise ValueError("gravel_leader.leader must be at least 1: the leader column has leader dice (B6.4)")
        return self


class DirtRuleset(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    title: str
    #: every result, board and card of this ruleset says "provisional rules" (B13)
    provisional: bool
    faces: int = Field(ge=2, le=20)
    #: ⚠ faces per die kind (B13.1, OPEN-D4)
    hazard_faces: dict[str, int]
    dashboard: Dashboard
    #: seconds of a time card per gear, and of its "0" side (B13.2, OPEN-D2)
    time_card_seconds: dict[str, int]
    zero_side_seconds: int = Field(ge=0)
    #: the damage-token bag at a stage start, by kind (B13.4, OPEN-D1, D8)
    damage_bag: dict[str, int]
    #: holding this many tokens other than OK! knocks the car out (B13.4)
    knockout_damage_tokens: int = Field(ge=1)
    #: entering a space this many gears above its limit knocks out; fewer is a loss of control (B13.3)
    overspeed_knockout_over: int = Field(ge=1)
    #: a jump taken this many gears above its gear knocks out (B13.5)
    jump_knockout_over: int = Field(ge=1)
    #: time attack: the smallest group, and the seconds won per die rolled (B13.1, B13.8.7)
    attack_min_dice: int = Field(ge=2)
    attack_seconds_per_die: int = Field(ge=0)
    #: the spare tire card put on the time pile during a stage (B13.6, A14.1: 60 s)
    spare_card_seconds: int = Field(default=60, ge=0)
    #: flags of B13.8.4 and B13.6: who a "−1" token affects and how long, what counts toward the
    #: knock-out, the OK! token's damage side, which column a coast-die token reduces
    minus_one_affects: Literal["all_but_drawer", "behind"]
    minus_one_lasts: Literal["stage"]
    knockout_counts: Literal["dashboard"]
    ok_damage_side: Literal["no_effect"]
    coast_token_reduces: Literal["column_in_use"]
    #: B13.4, B13.8.8: drawn tokens stay out of the bag until the next stage start
    tokens_return_to_bag: Literal["stage_start"]
    #: the other defaults B13 names, as flags with the one value the engine plays (the real
    #: rulebook's pages may bring another, then the engine learns it): B13.6 (OPEN-D3) a tie in
    #: the order of play keeps the previous round's relative order; B13.8.1 the order is fixed at
    #: a round's start and the drivers entering the stage play after the cars on the track;
    #: B13.8.2 a car that cannot move takes the card of its gear; B13.8.5 entering a shortcut over
    #: its limit draws the shortcut token first; B13.8.9 a loss of control on the finish line:
    #: the finish stands; B13.8.10 later stages start fastest rally time first
    order_tie_break: Literal["previous_round"]
    order_fixed_at: Literal["round_start"]
    entering_drivers_play: Literal["after_track"]
    no_move_card: Literal["current_gear"]
    shortcut_over_limit_draws: Literal["shortcut_then_damage"]
    finish_loss_of_control: Literal["finish_stands"]
    later_start_order: Literal["fastest_total_first"]

    @field_validator("hazard_faces")
    @classmethod
    def _hazards(cls, v: dict[str, int], info: ValidationInfo) -> dict[str, int]:
        missing = [d for d in DICE if d not in v]
        if missing:
            raise ValueError(f"misses die {', '.join(missing)} (dice are 1-6, coast, leader, brake)")
        unknown = [d for d in v if d not in DICE]
        if unknown:
            raise ValueError(f"has unknown die '{unknown[0]}' (dice are 1-6, coast, leader, brake)")
        faces = info.data.get("faces", 6)
        for die, n in v.items():
            if not 0 <= n <= faces:
                raise ValueError(f"{die} = {n} is not between 0 and {faces} (the faces of a die)")
        return v

    @field_validator("time_card_seconds")
    @classmethod
    def _cards(cls, v: dict[str, int]) -> dict[str, int]:
        missing = [g for g in GEAR_DICE if g not in v]
        if missing:
            raise ValueError(f"misses gear {', '.join(missing)} (one time card per gear 1-6)")
        if set(v) - set(GEAR_DICE):
            raise ValueError(f"has unknown gear '{sorted(set(v) - set(GEAR_DICE))[0]}' (gears are 1-6)")
        if any(s < 0 for s in v.values()):
            raise ValueError("has a negative time")
        return v

    @field_validator("damage_bag")
    @classmethod
    def _bag(cls, v: dict[str, int]) -> dict[str, int]:
        if set(v) != set(DAMAGE_TOKENS):
            raise ValueError(f"must count exactly the kinds {', '.join(DAMAGE_TOKENS)}")
        if any(n < 0 for n in v.values()) or sum(v.values()) <= 0:
            raise ValueError("needs non-negative counts with at least one token")
        return v

    def column(self, leading: bool) -> DiceColumn:
        """The column in use on gravel: the leader's for the round's first player while the
        leader dice are in play (B6.4), the gravel column otherwise."""
        return self.dashboard.gravel_leader if leading else self.dashboard.gravel

    def card_seconds(self, gear: int) -> int:
        """The time card of `gear`; gear 0 is the "0" side (B13.2)."""
        return self.zero_side_seconds if gear == 0 else self.time_card_seconds[str(gear)]


def parse_ruleset(text: str, source: str) -> DirtRuleset:
    """A ruleset from its JSON text; `source` names the file in errors."""
    return parse_model(DirtRuleset, text, source)


DEFAULT_RULESET = "provisional"


@lru_cache(maxsize=8)
def load_ruleset(name: str = DEFAULT_RULESET) -> DirtRuleset:
    """A shipped DIRT ruleset by name (data/dirt/rulesets/<name>.json)."""
    path = data_dir() / "dirt" / "rulesets" / f"{name}.json"
    source = f"data/dirt/rulesets/{name}.json"
    if name not in ruleset_names():  # a name typed by someone: never a path
        known = ", ".join(sorted(p.stem for p in path.parent.glob("*.json")))
        raise DataError(source, "name", f"no DIRT ruleset named '{name}' (known: {known})")
    return parse_ruleset(path.read_text(encoding="utf-8"), source)


def ruleset_names() -> list[str]:
    """The shipped DIRT rulesets (data/dirt/rulesets/*.json), by name."""
    return sorted(p.stem for p in (data_dir() / "dirt" / "rulesets").glob("*.json"))
