"""What happened, for the channel: public facts only (RULES C10.8). Played cards are public (they go
to the discard pile); drawn cards are told by their number only, a bypassed stage names no seat."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RoadEvent:
    #: dealt (data: the deal's commitment as one number), played, reshuffled, drew, checkpoint,
    #: stage_scored, stage_bypassed, final, over ...
    kind: str
    seat: str | None = None
    data: tuple[int, ...] = ()
