"""What spectators are shown of a game: the contract between the engine and the renderer.

The engine fills a `BoardView` from its state (`board_view(state)`); the renderer draws it over
the stage. Nothing here knows about dice streams or rules, so either side can change freely.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: How a car is drawn: as it stands (`state.Pose`), or skidding when it is on a skid space.
ShownPose = Literal["normal", "skid", "off_left", "off_right", "spun"]
#: Where a car is in the stage, as spectators see it.
ShownStatus = Literal["waiting", "racing", "finished", "out"]


class PathStep(BaseModel):
    """One die of the turn just played: where it took the car and what it showed."""

    model_config = ConfigDict(frozen=True)

    space: int = Field(description="space id reached (FINISH = -2 when it crossed the line)")
    die: str = Field(description="'1'..'5' for a gear die, 'W' for a white die")
    hazard: bool = Field(description="the face showed ⚠")


class CarView(BaseModel):
    """One car as spectators see it."""

    model_config = ConfigDict(frozen=True)

    driver_id: str
    name: str
    initials: str
    colour: int = Field(description="index into the colour-blind-safe palette, one per driver for the whole "
                                    "rally (their seat in the start order of SS1)")
    space: int = Field(description="space id; START = -1 (behind the line), FINISH = -2")
    pose: ShownPose = "normal"
    status: ShownStatus = "racing"
    gear: int = 0
    chrono_s: int = Field(default=0, description="sum of the chrono pile so far, seconds")
    seconds_held: int = Field(default=0, description="second markers held (A18)")
    hazards: int = Field(default=0, description="⚠ counted this turn (active driver) or last turn")
    black_lost: int = 0
    white_lost: int = Field(default=0, description="white dice lost to flats")
    spare: bool = True
    active: bool = False
    place: int | None = Field(default=None, description="rank by chrono once finished")
    tires: str | None = Field(default=None,
                              description="'asphalt' or 'snow' with the weather module (A20.2), else None")


class GhostView(BaseModel):
    """A ghost car: the space a stored run held at the same turn, drawn translucent
    under the real cars, with its label ("ghost") in the reader's words."""

    model_config = ConfigDict(frozen=True)

    place: int = Field(description="space id; START = -1, FINISH = -2")
    label: str = ""


class BoardView(BaseModel):
    """Everything the board image shows after a turn."""

    model_config = ConfigDict(frozen=True)

    stage: str = Field(description="stage name, to find the stage and its cached static layer")
    title: str
    round: int = 0
    cars: tuple[CarView, ...] = ()
    path: tuple[PathStep, ...] = Field(default=(), description="the dice of the turn just played, in order")
    path_driver: str | None = Field(default=None, description="driver id of the car that drove `path`")
    dirt: dict[int, int] = Field(default_factory=dict, description="corner id → dirt markers (A8.5)")
    snow_zones: frozenset[str] = frozenset()
    status: str = Field(default="", description="one line: whose turn, deadline, or the result")
    finished: bool = False
    special: int = Field(default=0, description="the special being driven in a rally, from 1; 0: a single special")
    specials: int = Field(default=0, description="the rally's number of specials; 0: a single special")
    ghost: GhostView | None = Field(default=None, exclude=True,  # added by the services, never dumped by the engine
                                    description="a ghost car to draw (a solo run's chosen ghost)")


class ResultRow(BaseModel):
    """One driver in a stage's classification (RULES A15.2, A17)."""

    model_config = ConfigDict(frozen=True)

    driver_id: str
    name: str
    initials: str = ""
    colour: int = Field(default=0, description="index into the colour-blind-safe palette, as on the board")
    time_s: int | None = Field(default=None,
                               description="stage time in seconds (chrono pile − seconds held); None if DNF")
    gap_s: int | None = Field(default=None, description="seconds behind the winner; the renderer computes it when None")
    status: Literal["finished", "dnf"] = "finished"
    times: tuple[int | None, ...] = Field(default=(), description="per-special times, one per `columns` entry")
    tiebreak_s: int | None = Field(default=None, description="equal times: the smaller shows first (A17 OPEN-5)")
    reason: str | None = Field(default=None, description="why a DNF is out: a reason code (knocked_out, retired …) "
                                                         "or, once shown in a language, its words")


class ResultsView(BaseModel):
    """What the results image shows when a stage ends; rows in any order (DNF are listed last)."""

    model_config = ConfigDict(frozen=True)

    stage: str
    title: str
    subtitle: str = Field(default="", description="one line under the title, e.g. the rally and stage number")
    rows: tuple[ResultRow, ...] = ()
    columns: tuple[str, ...] = Field(default=(), description="per-special column heads (SS1, SS2 …) of a rally")
