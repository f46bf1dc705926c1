"""The stage as the engine and the renderer see it: a graph of spaces with geometry (RULES A24).

A stage is built once from its text (see `stage_loader`) and never changes during a rally; the
moving parts (dirt markers, cars) live in the game state. Ids are indices into `Stage.spaces`.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.text import msg

#: Position id of a car that has not yet crossed the start line (RULES A4.1).
START = -1
#: Position id of a car that has crossed the finish line (RULES A15.1).
FINISH = -2


class Terrain(str, Enum):
    """Terrain beside the road; damage per terrain comes from the zone legend (RULES A11.3, A12.1)."""

    GRASS = "grass"
    DIRT = "dirt"
    SNOW = "snow"
    FOREST = "forest"
    ROCKS = "rocks"
    VILLAGE = "village"
    WATER = "water"


#: Labels of spaces by (stage name, position): see `Stage.label`.
_LABELS: dict[tuple[str, int], str] = {}


class Surface(str, Enum):
    """Road surface of a space on one side of its zone board (RULES A20.5)."""

    ASPHALT = "asphalt"
    SNOW = "snow"


class SpaceKind(str, Enum):
    STRAIGHT = "straight"
    BUMP = "bump"
    INTERIOR = "interior"
    SKID = "skid"
    SHORTCUT = "shortcut"


class Border(BaseModel):
    """What lies beside one side of a space: terrain, another road space, or a shortcut space."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["terrain", "road", "shortcut"]
    terrain: Terrain | None = None
    link: int | None = None


class Space(BaseModel):
    """One space of the road (RULES A24 "Space")."""

    model_config = ConfigDict(frozen=True)

    id: int
    kind: SpaceKind
    zone: str
    progress: float = Field(description="distance along the road, to order cars (RULES A5.4)")
    index: int = Field(description="1-based number of the space along the road, for humans")
    capacity: int
    next: tuple[int, ...] = Field(description="spaces a die can move the car into; FINISH crosses the line")
    note: int | None = Field(default=None, description="interior/skid/shortcut max or exact gear, bump note")
    corner: int | None = None
    bailout: int | None = Field(default=None, description="skid space: interior space reached by bailing out (A8.3)")
    left: Border
    right: Border
    surface_dry: Surface = Surface.ASPHALT
    surface_snow: Surface = Surface.SNOW
    split: bool = False
    line: int = Field(description="line of the stage or zone file that made this space")
    x: float = 0.0
    y: float = 0.0
    heading: float = Field(default=0.0, description="degrees, 0 = +x, clockwise on screen (y grows down)")

    def surface(self, snowy: bool) -> Surface:
        """The surface of this space when its zone shows its snow side (`snowy`) or its dry side."""
        return self.surface_snow if snowy else self.surface_dry

    def border(self, side: Literal["left", "right"]) -> Border:
        return self.left if side == "left" else self.right


class Corner(BaseModel):
    """A corner and its trajectories (RULES A8, A24 "Corner")."""

    model_config = ConfigDict(frozen=True)

    id: int
    direction: Literal["left", "right"]
    interior: tuple[int, ...]
    interior_note: int
    skid: tuple[int, ...] = ()
    skid_notes: tuple[int, ...] = ()
    shortcut: tuple[int, ...] = ()
    shortcut_note: int | None = None
    line: int
    angle: float = Field(description="degrees turned, for geometry and pace notes")

    def spaces(self) -> tuple[int, ...]:
        return self.interior + self.skid + self.shortcut


class Zone(BaseModel):
    """A zone board with its damage legends (RULES A1, A12.1) on its dry and snow sides."""

    model_config = ConfigDict(frozen=True)

    letter: str
    name: str
    legend_dry: dict[Terrain, int]
    legend_snow: dict[Terrain, int]

    def damage(self, terrain: Terrain, snowy: bool) -> int:
        """Black dice lost when a car goes off the road into `terrain` on this zone."""
        return (self.legend_snow if snowy else self.legend_dry)[terrain]


class Section(BaseModel):
    """One line of pace notes, kept so the stage can be shown back to humans."""

    model_config = ConfigDict(frozen=True)

    text: str
    line: int
    zone: str
    spaces: tuple[int, ...]


class Stage(BaseModel):
    """A whole special stage: spaces, corners, zones, and where it starts and finishes."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str
    source: str = Field(description="file the stage came from, for error messages")
    route: str | None = None
    zones: dict[str, Zone]
    zone_order: tuple[str, ...] = Field(description="zones in route order, first appearance only (A20.1)")
    snow_zones: frozenset[str] = Field(default=frozenset(), description="fixed weather: zones on their snow side")
    spaces: tuple[Space, ...]
    corners: tuple[Corner, ...]
    sections: tuple[Section, ...]
    start_next: tuple[int, ...] = Field(description="spaces the first die of a car can reach (A4.1)")
    length: int = Field(description="spaces along the shortest road line from start to finish")

    def space(self, space_id: int) -> Space:
        return self.spaces[space_id]

    def successors(self, position: int) -> tuple[int, ...]:
        """Where one die can move a car from `position` (START included)."""
        if position == START:
            return self.start_next
        if position == FINISH:
            return ()
        return self.spaces[position].next

    def beyond_road(self, space_id: int, side: Literal["left", "right"]) -> tuple[Space, Border]:
        """What a car thrown off `side` of a space meets once it has crossed the road (RULES
        A11.3, AMB-20): the lane(s) beside it on that side ("road" borders) are looked through to
        the outermost lane, and its border on that side (terrain, or the corner's shortcut,
        A11.4) is returned with that lane's space."""
        space = self.spaces[space_id]
        border = space.border(side)
        seen = {space_id}
        while border.kind == "road" and border.link is not None and border.link not in seen:
            seen.add(border.link)
            space = self.spaces[border.link]
            border = space.border(side)
        return space, border

    def label(self, position: int) -> str:
        """A space as drivers name it: `space 12`, `skid of corner 3`, `the start`, `the finish`
        (a message; made once per stage and space: a stage's spaces never change)."""
        found = _LABELS.get((self.name, position))
        if found is None:
            if len(_LABELS) > 50_000:
                _LABELS.clear()
            found = _LABELS[(self.name, position)] = self._label(position)
        return found

    def _label(self, position: int) -> str:
        if position == START:
            return msg("space.start")
        if position == FINISH:
            return msg("space.finish")
        space = self.spaces[position]
        if space.kind in (SpaceKind.SKID, SpaceKind.SHORTCUT):
            assert space.corner is not None, "skid and shortcut spaces belong to a corner"
            return msg("space.corner_line", line=msg(f"word.{space.kind.value}"), corner=space.corner + 1)
        return msg("space.index", n=space.index)

    def counts(self) -> dict[str, int]:
        """Figures for listings: corners, bumps, shortcuts, splits."""
        return {
            "corners": len(self.corners),
            "bumps": sum(1 for s in self.spaces if s.kind is SpaceKind.BUMP),
            "shortcuts": sum(1 for c in self.corners if c.shortcut),
            "splits": sum(1 for s in self.spaces if s.split and s.kind not in (SpaceKind.SKID, SpaceKind.SHORTCUT)),
        }
