"""A DIRT stage as the engine and the renderer see it: hex tiles and the graph of their spaces (B7–B11).

Built once from the stage text and never changed during a rally (the "−1" tokens on a tile and the
cars live in the game state). Space ids are indices into `DirtStage.spaces`; `progress` is measured
in tiles from the first tile's entry edge, so the space whose front edge is furthest along leads
(B4).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict

#: the words a driver names a step's target by ("" keeps the lane), in the order moves are listed (B7–B10)
DIRECTIONS = ("", "left", "right", "slide", "cut")


class SpaceKind(str, Enum):
    NORMAL = "normal"  # a space of a lane (or of the one lane at a one-lane point, B7)
    SLIDE = "slide"  # one half of a slide pair, spanning the track width (B9)
    SHORTCUT = "shortcut"  # the shortcut space inside a corner (B10)


class DirtSpace(BaseModel):
    """One space: where it is, what it is, its limit and where a car may go from it."""

    model_config = ConfigDict(frozen=True)

    id: int
    tile: int
    line: int  # the stage file's line of its tile
    kind: SpaceKind
    #: lanes covered: (0,) left, (1,) right, (0, 1) a one-lane point or a slide half, () a shortcut
    lanes: tuple[int, ...]
    row: int
    rear: float
    front: float
    #: the corner tile this space belongs to, and whether it is on the inside line (B8)
    corner: int | None = None
    inside: bool | None = None
    limit: int | None = None
    jump: int | None = None
    #: forward neighbours: straight on or diagonal, never sideways (B7)
    forward: tuple[int, ...] = ()
    #: spaces covering the same ground (a slide half and the normal spaces of its row, B13.8.3)
    overlaps: tuple[int, ...] = ()
    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0

    @cached_property
    def word(self) -> str:
        """The direction word that names this space as a target (B7–B10); worked out once, as a
        stage never changes (speed)."""
        if self.kind is SpaceKind.SLIDE:
            return "slide"
        if self.kind is SpaceKind.SHORTCUT:
            return "cut"
        if len(self.lanes) == 1:
            return "left" if self.lanes[0] == 0 else "right"
        return ""


class DirtTile(BaseModel):
    """One hex tile: its cell on the grid, entry and exit headings (indices 0–5) and its kind."""

    model_config = ConfigDict(frozen=True)

    index: int
    line: int
    kind: Literal["straight", "left", "right"]
    sharp: bool = False
    narrow: bool = False
    cell: tuple[int, int]
    heading: int
    exit: int
    inside: int | None = None
    outside: int | None = None
    shortcut: int | None = None


@dataclass(frozen=True)
class StageTables:
    """A stage's graph as plain tuples, indexed by space id (read-only).

    `words`: the direction words a step from the space may name (`DirtStage.forward_words`);
    `first`: the target each word names (the first of `targets_by_word`); `keep`: per lane, the
    normal forward targets a car in that lane keeps to with no word; `normal`: the normal forward
    targets; `touch`: the space and those overlapping it (a car on any of them blocks it, B7,
    B13.8.3); `jump`, `tile`: the space's jump gear and tile; `landings`: per lane, a jump's
    landing spaces in the order they are tried (B11, B13.5); `finish`: whether a car on it has
    crossed the finish line; `closed`: the spaces closed with no "−1" token on their tile (B10);
    `plain`: whether the space is a normal one (not a slide half or a shortcut); `pose`: a car's
    pose on it (`moves.pose_of`); `lane`: the lane a car on it is in, None on a two-lane space;
    `special`: whether entering it does more than move the car there (a limit, a jump, a shortcut);
    `next_inner`, by tile index: the inside lane of the next corner after the tile, None after the last;
    `near`: the spaces a car on which may block a step from the space or its landing (B7, B13.8.6)."""

    grid_front: int
    words: tuple[tuple[str, ...], ...]
    first: tuple[dict[str, int], ...]
    keep: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    normal: tuple[tuple[int, ...], ...]
    touch: tuple[frozenset[int], ...]
    jump: tuple[int | None, ...]
    tile: tuple[int, ...]
    landings: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    finish: tuple[bool, ...]
    closed: frozenset[int]
    plain: tuple[bool, ...]
    pose: tuple[str, ...]
    lane: tuple[int | None, ...]
    special: tuple[bool, ...]
    next_inner: tuple[int | None, ...]
    near: tuple[frozenset[int], ...]


def compile_stage(stage: DirtStage) -> StageTables:
    """Work the tables out from the stage's graph (see `StageTables`)."""
    spaces = stage.spaces

    def normal(s: int) -> tuple[int, ...]:
        return tuple(t for t in spaces[s].forward if spaces[t].kind is SpaceKind.NORMAL)

    def keep(s: int, lane: int) -> tuple[int, ...]:  # `moves._named`'s `keep`
        return tuple(t for t in normal(s) if spaces[t].lanes == (lane,) or len(spaces[t].lanes) == 2)

    def next_inner(tile: int) -> int | None:  # the inside lane of the next corner after `tile` (B4.3)
        corner = next((t for t in stage.tiles[tile + 1:] if t.kind != "straight"), None)
        return None if corner is None else 0 if corner.kind == "left" else 1

    def near(s: int) -> frozenset[int]:  # the spaces whose cars may change where a step from `s` goes
        ahead = set(spaces[s].forward)
        ahead.update(t for f in spaces[s].forward if spaces[f].jump is not None for t in normal(f))  # landings
        return frozenset(x for t in ahead for x in (t, *stage.overlap_sets[t]))  # their `touch`

    def landings(s: int, lane: int) -> tuple[int, ...]:  # `moves.landing`'s order
        return tuple(sorted(normal(s), key=lambda t: (spaces[t].lanes != (lane,) and len(spaces[t].lanes) == 1, t)))

    return StageTables(
        grid_front=stage.grid[0],
        words=stage.forward_words,
        first=tuple({word: targets[0] for word, targets in named.items()} for named in stage.targets_by_word),
        keep=tuple((keep(s.id, 0), keep(s.id, 1)) for s in spaces),
        normal=tuple(normal(s.id) for s in spaces),
        touch=tuple(frozenset({s.id, *stage.overlap_sets[s.id]}) for s in spaces),
        jump=tuple(s.jump for s in spaces),
        tile=tuple(s.tile for s in spaces),
        landings=tuple((landings(s.id, 0), landings(s.id, 1)) for s in spaces),
        finish=tuple(stage.finished(s.id) for s in spaces),
        closed=frozenset(s.id for s in spaces if s.limit is not None and s.limit <= 0),
        plain=tuple(s.kind is SpaceKind.NORMAL for s in spaces),
        pose=tuple("slide" if s.kind is SpaceKind.SLIDE else "drift" if s.corner is not None and s.inside is False
                   else "normal" for s in spaces),
        lane=tuple(s.lanes[0] if len(s.lanes) == 1 else None for s in spaces),
        special=tuple(s.limit is not None or s.jump is not None or s.kind is SpaceKind.SHORTCUT for s in spaces),
        next_inner=tuple(next_inner(i) for i in range(len(stage.tiles))),
        near=tuple(near(s.id) for s in spaces))


class DirtStage(BaseModel):
    """A whole stage: tiles, spaces, the start and finish lines (as progress) and the grid."""

    model_config = ConfigDict(frozen=True)

    name: str
    title: str
    source: str
    tiles: tuple[DirtTile, ...]
    spaces: tuple[DirtSpace, ...]
    start_line: float
    finish_line: float
    #: grid spaces behind the start line, nearest the line first (B5)
    grid: tuple[int, ...]

    @property
    def length(self) -> str:
        """short, medium or long by tile count (B2: 10, 14, 18 tiles)."""
        count = len(self.tiles)
        return "short" if count < 12 else "medium" if count < 16 else "long"

    @cached_property
    def forward_words(self) -> tuple[tuple[str, ...], ...]:
        """Per space, the distinct words of its forward neighbours in `DIRECTIONS` order (the
        moves a step from it may name), worked out once per stage."""
        return tuple(tuple(sorted({self.spaces[t].word for t in space.forward}, key=DIRECTIONS.index))
                     for space in self.spaces)

    @cached_property
    def targets_by_word(self) -> tuple[dict[str, tuple[int, ...]], ...]:
        """Per space, its forward neighbours by the word that names them, in forward order (the
        first one is the target of that word), worked out once per stage. Read-only."""
        out: list[dict[str, tuple[int, ...]]] = []
        for space in self.spaces:
            named: dict[str, tuple[int, ...]] = {}
            for t in space.forward:
                named[self.spaces[t].word] = named.get(self.spaces[t].word, ()) + (t,)
            out.append(named)
        return tuple(out)

    @cached_property
    def overlap_sets(self) -> tuple[frozenset[int], ...]:
        """Per space, the spaces it overlaps (B7, B13.8.3), as sets, worked out once per stage."""
        return tuple(frozenset(space.overlaps) for space in self.spaces)

    @cached_property
    def tables(self) -> StageTables:
        """The stage's graph as plain tuples for the engine's quick paths (speed),
        worked out once per stage."""
        return compile_stage(self)

    def finished(self, space: int) -> bool:
        """Whether a car on this space has crossed the finish line."""
        return self.spaces[space].rear >= self.finish_line - 1e-9
