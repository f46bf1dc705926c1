"""The data of Road Rally USA's pictures as an outbox row keeps it, validated.

`BoardData` is the public part of a spectator's `RRView` (RULES C10.8) with the road by its course
name and each seat's shown name: no hand, no stage card, no answer, no deck order can be in it,
since it has no field for them. `ResultsData` is the classification card: one `ResultLine` per seat
(final VP and its parts, C8), its title texts as messages. Both are checked when read back (the
data comes from the database), so a bad row is refused naming the field and the reason instead of
failing somewhere in the drawing.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.engine.roadrally.state import Phase

MAX_SEATS = 5  # C1: 3-5 players (a test game may have fewer)
Card = tuple[int, str, int]  # (id in the seat's deck, colour, value): a discarded card is public


class SeatData(BaseModel):
    """One seat's public counts (`view.PublicSeat`) and its shown name."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=100)
    name: str = Field(max_length=200)
    place: int | None = Field(default=None, ge=1)
    pos: int = Field(ge=0)
    mark: int | None = Field(default=None, ge=1)
    hand_size: int = Field(ge=0)
    deck_size: int = Field(ge=0)
    discard: list[Card] = Field(max_length=100)
    vp: int = Field(ge=0)
    stage_tiles: list[int] = Field(max_length=21)
    checkpoints: int = Field(ge=0)
    stage_cards: int = Field(ge=0)
    scored_cards: int = Field(ge=0)
    retired: bool


class BoardData(BaseModel):
    """What the board shows (`RRView` of a spectator, its road as `course`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    course: str = Field(min_length=1, max_length=100)
    preset: str = Field(min_length=1, max_length=100)
    sprint: bool
    round: int = Field(ge=0)
    phase: Phase
    order: list[str] = Field(max_length=MAX_SEATS)
    current: str | None = None
    to_act: list[str] = Field(max_length=MAX_SEATS)
    seats: list[SeatData] = Field(min_length=1, max_length=MAX_SEATS)
    stage_tiles: list[tuple[int, int]] = Field(max_length=21)
    checkpoint_tiles: list[int] = Field(max_length=21)
    window: int | None = None
    choice: tuple[str, int, bool] | None = None
    revealed: list[tuple[int, str]] = Field(max_length=21)

    @model_validator(mode="after")
    def _known_seats(self) -> BoardData:
        ids = [s.id for s in self.seats]
        if len(set(ids)) != len(ids):
            raise ValueError("seats: a seat id is given twice")
        named = {"order": self.order, "to_act": self.to_act, "current": [self.current] if self.current else [],
                 "choice": [self.choice[0]] if self.choice else [], "revealed": [seat for _, seat in self.revealed]}
        for field, seats in named.items():
            unknown = sorted(set(seats) - set(ids))
            if unknown:
                raise ValueError(f"{field}: {', '.join(unknown)} is not a seat of this game")
        return self


class ResultLine(BaseModel):
    """One seat of the classification (C8): its final VP and their parts, its finish mark."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(max_length=200)
    place: int | None = Field(default=None, ge=1)  # None: retired (ranked after everyone)
    vp: int = Field(ge=0)                           # final VP
    vp_tiles: int = Field(ge=0)
    stage_tiles: int = Field(ge=0)                  # stage tiles held (a count)
    checkpoints: int = Field(ge=0)                  # checkpoint tiles held (a count)
    mark: int | None = Field(default=None, ge=1)    # finish mark (C8); None: not finished
    retired: bool = False


class ResultsData(BaseModel):
    """The classification card: title texts (messages until drawn), the worth of a stage tile and
    of a checkpoint (the preset's), one line per seat, best first."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    subtitle: str = ""
    note: str = ""
    tile_vp: int = Field(ge=0)
    checkpoint_vp: int = Field(ge=0)
    rows: list[ResultLine] = Field(min_length=1, max_length=MAX_SEATS)
