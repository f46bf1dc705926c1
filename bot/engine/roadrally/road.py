"""The road of a Road Rally USA course as the rules engine sees it (RULES C1, C2, C5, C7–C9).

A course is laid from race tiles (bot/engine/roadrally/course/); once laid it is one road: its
square spaces in road order from the start, each with what stands on it. The road never branches:
a shortcut (C5) is a jump from its start space to its end space further along. Stage tiles are not
part of the road: the rules put them on the Diner sites at setup (C2, C9: in road order), so one
road serves every preset. Positions are the renderer's (course units), not the rules'.

Pure data: frozen, built once per course, shared by every game on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class SpaceKind(str, Enum):
    """What a road space is (C5; a plain space otherwise)."""

    ROAD = "road"
    DINER = "diner"            # a stage site: a stage tile is placed here at setup (C2)
    CHECKPOINT = "checkpoint"  # a flag site: a checkpoint tile is placed here at setup (C2, C5)
    GAS = "gas"                # C5: shuffle the draw deck and discards
    SHORTCUT = "shortcut"      # C5: the start space of a shortcut (`shortcut_to` is its end space)
    STORE = "store"            # C5: General Store (its effect applies when a turn starts there)
    MECHANIC = "mechanic"      # C5: look at the top 5 cards and reorder them
    START = "start"            # the start tile's spaces: cars line up here (C2, OPEN-R3)
    FINAL = "final"            # the finish tile's large final space, with its numbered marks (C8)


@dataclass(frozen=True)
class RoadSpace:
    index: int                       # place in road order, 0 = the first start space
    kind: SpaceKind
    tile: int                        # the race tile it lies on (index in the course's tiles)
    shortcut_to: int | None = None   # for a SHORTCUT start space: the index of its end space
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True)
class Road:
    """A laid course: its name, its spaces in road order, and the tiles it was laid from."""

    name: str
    spaces: tuple[RoadSpace, ...]
    tiles: tuple[str, ...]  # race tile ids in laying order (start first, finish last)

    @property
    def final(self) -> int:
        """Index of the final space (the last space of the road, C8)."""
        return len(self.spaces) - 1

    def diners(self) -> list[int]:
        """The stage sites in road order (C2: stage tile 1 goes on the first)."""
        return [s.index for s in self.spaces if s.kind is SpaceKind.DINER]

    def checkpoints(self) -> list[int]:
        return [s.index for s in self.spaces if s.kind is SpaceKind.CHECKPOINT]
