"""Road Rally USA's presets: every number and every default of RULES Part C as data
(data/roadrally/presets/): `rr-base`, `rr-standard`, `rr-demo-fr` (AMB-R3), each with its `sprint`
block (C9). A file that is not what the model says is refused naming the file, field and reason.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.engine.core.data_files import parse_model
from bot.engine.core.errors import DataError
from bot.paths import data_dir

COLOURS = ("green", "yellow", "red")
PRESETS = ("rr-base", "rr-standard", "rr-demo-fr")
PLAYER_COUNTS = ("3", "4", "5")
DECK_A = tuple(range(1, 11))   # C1: stage cards 1-10
DECK_B = tuple(range(11, 22))  # C1: stage cards 11-21


class Sprint(BaseModel):
    """C9: stage tiles from `first_stage` on, `stage_cards` from deck B, `card_limit` scored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    first_stage: int = Field(ge=1, le=21)
    stage_cards: int = Field(ge=1, le=4)
    card_limit: int = Field(ge=1, le=4)


class Preset(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    source: str
    #: colour -> [[value, count], ...] (C1, OPEN-R1)
    cards: dict[str, tuple[tuple[int, int], ...]]
    #: cards drawn after a play of that colour (C4)
    draws: dict[str, int]
    hand_size: int = Field(ge=1, le=10)
    #: stage cards dealt per player count (C2, C7) and how (`mixed`: A+B shuffled together;
    #: `halves`: half from A, half from B, an odd one from the rest of both, C7)
    stage_cards: dict[str, int]
    stage_deal: Literal["mixed", "halves"]
    #: points by race position per player count; `true`: "or 2 cards" (C6.3)
    points: dict[str, tuple[tuple[int, bool], ...]]
    card_limit: dict[str, int]              # stage cards a player may score in the game (C6.4)
    round_limit: int | None = Field(ge=1)   # stages scored per round in total (C6.4)
    checkpoint: Literal["end", "pass"]      # C5: ending the move there, or RR-FR: first to pass
    empty_hand_reshuffle: Literal["compulsory", "optional"]  # C4
    gas_draw: Literal["shuffle_then_draw", "choose"]         # C5, AMB-R1
    sprint: Sprint
    # C10 and the fixed numbers of C4-C8
    empty_hand_draw: int = Field(default=2, ge=0)    # C4
    checkpoint_draw: int = Field(default=2, ge=0)    # C5, C10.1
    store_draw: int = Field(default=1, ge=0)         # C5
    store_max: int = Field(default=5, ge=1)          # C5: up to 5 cards of any colours
    #: C10.5: the turn a player takes from a General Store when not choosing: the one that draws
    #: more (`more_draws`: a store turn when it draws more than the colour's normal draw), or
    #: always a normal turn (`normal`); the AI drivers take it
    store_default: Literal["more_draws", "normal"] = "more_draws"
    mechanic_look: int = Field(default=5, ge=1)      # C5
    choice_cards: int = Field(default=2, ge=1)       # C6.3: "or 2 cards"
    tile_vp: int = Field(default=2, ge=0)            # C6.3, C8: a stage tile is worth 2
    checkpoint_vp: int = Field(default=2, ge=0)      # C5, C8
    timeout_reshuffles: bool = True                  # C10.2
    timeout_choice: Literal["vp", "cards"] = "vp"    # C10.2

    @field_validator("cards")
    @classmethod
    def _cards(cls, v: dict[str, tuple[tuple[int, int], ...]]) -> dict[str, tuple[tuple[int, int], ...]]:
        if set(v) != set(COLOURS):
            raise ValueError(f"must give exactly the colours {', '.join(COLOURS)}")
        for colour, mix in v.items():
            if not mix or any(value < 1 or count < 1 for value, count in mix):
                raise ValueError(f"{colour}: each [value, count] needs value >= 1 and count >= 1")
        return v

    @field_validator("draws")
    @classmethod
    def _draws(cls, v: dict[str, int]) -> dict[str, int]:
        if set(v) != set(COLOURS) or any(n < 0 for n in v.values()):
            raise ValueError(f"must give a draw of 0 or more for each of {', '.join(COLOURS)}")
        return v

    @field_validator("stage_cards", "card_limit", "points")
    @classmethod
    def _per_count(cls, v: dict) -> dict:
        if set(v) != set(PLAYER_COUNTS):
            raise ValueError(f"must give each player count {', '.join(PLAYER_COUNTS)}")
        return v

    @model_validator(mode="after")
    def _tables(self) -> Preset:
        for count, table in self.points.items():
            if len(table) != int(count):
                raise ValueError(f"points.{count} must have {count} places")
        for count, n in self.stage_cards.items():
            if not 1 <= n <= 21 // int(count):
                raise ValueError(f"stage_cards.{count} must be 1 to {21 // int(count)}")
        return self

    def deck(self) -> tuple[tuple[str, int], ...]:
        """A player's movement deck: (colour, value) by card id (C1)."""
        return tuple((colour, value) for colour in COLOURS for value, count in self.cards[colour]
                     for _ in range(count))


def load_preset_text(text: str, source: str) -> Preset:
    preset = parse_model(Preset, text, source)
    expected = source.rsplit("/", 1)[-1].removesuffix(".json")
    if preset.name != expected:
        raise DataError(source, "name", f"must be the file's name '{expected}'")
    return preset


def store_by_default(rules: Preset, colours: set[str], count: int) -> bool:
    """C5, C10.5: whether a play of `count` cards of `colours` from a General Store that does not
    say which turn it is, is a store turn: cards of several colours only can be (up to the
    store's limit); one colour is the turn that draws more (`store_default`); more cards than
    the store allows are a normal turn."""
    if count > rules.store_max:
        return False
    if len(colours) > 1:
        return True
    return rules.store_default == "more_draws" and rules.store_draw > rules.draws[next(iter(colours))]


@cache
def preset(name: str) -> Preset:
    """The preset called `name` (one of PRESETS), read once."""
    if name not in PRESETS:
        raise DataError(f"roadrally/presets/{name}.json", "name", f"no such preset (known: {', '.join(PRESETS)})")
    path = data_dir() / "roadrally" / "presets" / f"{name}.json"
    return load_preset_text(path.read_text(encoding="utf-8"), f"roadrally/presets/{name}.json")
