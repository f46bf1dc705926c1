"""What spectators are shown of a DIRT rally: the contract between DIRT's engine and its renderer.

The engine fills a `BoardView` from its state and a `ResultsView` when a stage ends; the renderer
(`bot/render/dirt/`) draws them over the stage (`DirtStage`). Nothing here knows about dice streams
or rules, so either side can change freely. Every model is frozen and refuses what it cannot draw
(a gear above 6, a colour outside the six cars, an unknown die, a negative count), naming the field.
Texts (`status`, a result's `reason`) are already in the reader's words.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

#: the dice of a DIRT turn as the board draws them (B6): gear dice by face, then the other kinds
DIE_FACES = ("1", "2", "3", "4", "5", "6", "coast", "leader", "brake")
#: the damage tokens a dashboard can hold (B10, B13.4)
TOKEN_KINDS = ("ok", "coast", "minus_one", "brake")


class CarView(BaseModel):
    """One car: where it is, how it stands, its gear, stage time so far and dashboard tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: str
    name: str
    colour: int = Field(ge=0, le=5, description="0-5: the join order, one colour per driver for the rally")
    space: int | None = Field(ge=0, description="None: not on the track (waiting behind the grid, or out)")
    gear: int = Field(ge=0, le=6)
    pose: Literal["normal", "drift", "slide"] = "normal"
    status: Literal["waiting", "racing", "finished", "out", "retired"] = "racing"
    seconds: int = Field(ge=0, description="stage time so far: time cards − second tokens")
    tokens: dict[str, int] = Field(default_factory=dict)
    to_act: bool = False

    @field_validator("tokens")
    @classmethod
    def _known_tokens(cls, value: dict[str, int]) -> dict[str, int]:
        for kind, count in value.items():
            if kind not in TOKEN_KINDS:
                raise ValueError(f"token '{kind}': one of {', '.join(TOKEN_KINDS)}")
            if count < 0:
                raise ValueError(f"token '{kind}': count {count} is negative")
        return value


class DieView(BaseModel):
    """One die of the turn just played, on the space it was laid on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    die: str
    hazard: bool = False
    space: int = Field(ge=0)

    @field_validator("die")
    @classmethod
    def _known_die(cls, value: str) -> str:
        if value not in DIE_FACES:
            raise ValueError(f"die '{value}': one of {', '.join(DIE_FACES)}")
        return value


class GhostView(BaseModel):
    """A ghost car: the space a stored run held at the same turn, drawn translucent
    under the real cars, with its label ("ghost") in the reader's words."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    place: int = Field(ge=0, description="space id")
    label: str = ""


class BoardView(BaseModel):
    """The board after a turn: the stage by name, the round, the stage's place in the rally, the cars,
    the dice just rolled and the path they drove, the "−1" tokens on tiles, and a status line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stage: str
    round: int = Field(ge=0)
    stage_no: int = Field(ge=1, description="1-based stage number of the rally")
    stages: int = Field(ge=1)
    cars: list[CarView] = Field(max_length=6)
    dice: list[DieView] = Field(default_factory=list)
    path: list[int] = Field(default_factory=list)
    minus: dict[int, int] = Field(default_factory=dict, description="tile index → '−1' tokens on it (B10)")
    status: str = ""
    ghost: GhostView | None = Field(default=None, exclude=True,  # added by the services, never dumped by the engine
                                    description="a ghost car to draw (a solo run's chosen ghost)")

    @model_validator(mode="after")
    def _consistent(self) -> BoardView:
        if self.stage_no > self.stages:
            raise ValueError(f"stage_no {self.stage_no} is after the rally's last stage ({self.stages})")
        if any(space < 0 for space in self.path):
            raise ValueError("path: a space id is never negative")
        for tile, count in self.minus.items():
            if tile < 0 or count < 1:
                raise ValueError(f"minus: tile {tile} with {count} tokens (tile ≥ 0, at least 1 token)")
        return self


class ResultRow(BaseModel):
    """One driver of a classification: per-stage times (None: not finished), total, gap, rank."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    status: Literal["finished", "out", "retired"]
    times: list[int | None]
    total: int | None = Field(default=None, ge=0)
    gap: int | None = Field(default=None, ge=0)
    rank: int | None = Field(default=None, ge=1)
    reason: str = ""

    @field_validator("times")
    @classmethod
    def _no_negative_time(cls, value: list[int | None]) -> list[int | None]:
        if any(t is not None and t < 0 for t in value):
            raise ValueError("times: a stage time is never negative")
        return value


class ResultsView(BaseModel):
    """A stage's or a rally's classification card: a title, one column per stage, one row per driver."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    subtitle: str = ""
    columns: list[str] = Field(max_length=8)
    rows: list[ResultRow] = Field(max_length=6)

    @model_validator(mode="after")
    def _times_match_columns(self) -> ResultsView:
        for row in self.rows:
            if len(row.times) != len(self.columns):
                raise ValueError(f"row '{row.name}': {len(row.times)} times for {len(self.columns)} columns")
        return self
