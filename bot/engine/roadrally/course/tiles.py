"""Road Rally USA race tiles as data (RULES C1, C2, C5, C8, C9) and their validator.

The tiles live in `data/roadrally/tiles/*.json`, each file a `TileFile`: square tiles of `size` x
`size` cells (x right, y down). A tile's road is a path of cells in road order from its entry edge
to its exit edge; an open edge is the middle cell of one side (N, E, S, W) with a letter, so any
exit can meet any entry once the tile is turned, and the base course joins A to A, B to B (C2).
The start tile has an exit only, the finish tile an entry only and ends on its large FINAL space.

`parse_tiles` checks the shape of the file with pydantic, then the game's own facts: a road that
joins its edges, one space per cell, shortcuts forward on their tile, known space kinds, the
totals of C1 (21 Diner sites, 6 checkpoint sites, 1 start, 1 finish, 10 standard tiles) and the
sprint's need for 11 Diner sites on any 5 standard tiles (C9). Every refusal is a `DataError`
naming the file, the tile and the reason.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.engine.core.data_files import parse_model
from bot.engine.core.errors import DataError
from bot.engine.roadrally.road import SpaceKind
from bot.paths import data_dir

Side = Literal["N", "E", "S", "W"]
Role = Literal["start", "standard", "finish"]

#: The kinds a tile file may name for a special space (C5); the others follow from the tile.
SPECIAL_KINDS: dict[str, SpaceKind] = {
    "diner": SpaceKind.DINER,
    "checkpoint": SpaceKind.CHECKPOINT,
    "gas": SpaceKind.GAS,
    "store": SpaceKind.STORE,
    "mechanic": SpaceKind.MECHANIC,
}

DINER_SITES = 21       # C1: 21 stage tiles, one per Diner site
CHECKPOINT_SITES = 6   # C1: 6 checkpoint tiles
STANDARD_TILES = 10    # C1: 10 standard tiles
SPRINT_TILES = 5       # C9: 5 standard tiles + start + finish
SPRINT_DINERS = 11     # C9: stage tiles 11-21 on the course
FINISH_ROAD = 4        # C8: the finish tile's 4 road spaces before its final space


class Edge(BaseModel):
    """An open edge: the middle cell of a side, with the letter the base course joins by (C2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    side: Side
    letter: str = Field(pattern=r"^[A-Z]$")


class Shortcut(BaseModel):
    """A shortcut (C5): from its start space to its end space, road indices on the same tile."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)
    start: int = Field(alias="from")
    end: int = Field(alias="to")


class Tile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,30}$")
    name: str = Field(min_length=1)
    role: Role
    entry: Edge | None = None
    exit: Edge | None = None
    road: tuple[tuple[int, int], ...] = Field(min_length=1)
    specials: dict[int, str] = {}
    shortcuts: tuple[Shortcut, ...] = ()

    def kind(self, i: int) -> SpaceKind:
        """What the tile's `i`-th road space is."""
        if self.role == "finish" and i == len(self.road) - 1:
            return SpaceKind.FINAL
        if any(s.start == i for s in self.shortcuts):
            return SpaceKind.SHORTCUT
        if i in self.specials:
            return SPECIAL_KINDS[self.specials[i]]
        return SpaceKind.START if self.role == "start" else SpaceKind.ROAD

    def count(self, kind: SpaceKind) -> int:
        return sum(1 for i in range(len(self.road)) if self.kind(i) is kind)


class TileFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    about: str = ""
    size: int = Field(ge=3, le=15)
    tiles: tuple[Tile, ...] = Field(min_length=1)


def edge_cell(side: str, size: int) -> tuple[int, int]:
    """The cell of an open edge: the middle of its side."""
    mid = size // 2
    return {"N": (mid, 0), "E": (size - 1, mid), "S": (mid, size - 1), "W": (0, mid)}[side]


def _check_tile(tile: Tile, size: int, source: str) -> None:
    where = f"tile {tile.id}"
    if tile.role == "start" and tile.entry is not None:
        raise DataError(source, where, "a start tile has no entry: the road begins on it (C2)")
    if tile.role != "start" and tile.entry is None:
        raise DataError(source, where, f"a {tile.role} tile needs an entry edge")
    if tile.role == "finish" and tile.exit is not None:
        raise DataError(source, where, "a finish tile has no exit: the road ends on its final space (C8)")
    if tile.role != "finish" and tile.exit is None:
        raise DataError(source, where, f"a {tile.role} tile needs an exit edge")
    if tile.entry and tile.exit and tile.entry.side == tile.exit.side:
        raise DataError(source, where, "its entry and exit are on the same side")
    seen: set[tuple[int, int]] = set()
    for i, (x, y) in enumerate(tile.road):
        if not (0 <= x < size and 0 <= y < size):
            raise DataError(source, where, f"road space {i} ({x}, {y}) is off the {size}x{size} tile")
        if (x, y) in seen:
            raise DataError(source, where, f"road space {i} is on the cell ({x}, {y}) of an earlier space")
        seen.add((x, y))
        if i and abs(x - tile.road[i - 1][0]) + abs(y - tile.road[i - 1][1]) != 1:
            raise DataError(source, where, f"the road does not join its edges: space {i} ({x}, {y}) "
                                           f"is not next to space {i - 1}")
    if tile.entry and tile.road[0] != edge_cell(tile.entry.side, size):
        raise DataError(source, where, f"the road does not join its edges: it must start at the {tile.entry.side} "
                                       f"edge {edge_cell(tile.entry.side, size)}")
    if tile.exit and tile.road[-1] != edge_cell(tile.exit.side, size):
        raise DataError(source, where, f"the road does not join its edges: it must end at the {tile.exit.side} "
                                       f"edge {edge_cell(tile.exit.side, size)}")
    if tile.role == "finish" and len(tile.road) != FINISH_ROAD + 1:
        raise DataError(source, where, f"the finish tile has {FINISH_ROAD} road spaces and its final space (C8), "
                                       f"not {len(tile.road)} spaces")
    last = len(tile.road) - 1
    for i, kind in tile.specials.items():
        if kind not in SPECIAL_KINDS:
            raise DataError(source, where, f"unknown kind '{kind}' at road space {i} "
                                           f"(known: {', '.join(SPECIAL_KINDS)})")
        if not 0 <= i <= last:
            raise DataError(source, where, f"special space {i} is off its road (spaces 0-{last})")
        if tile.role == "finish" and i == last:
            raise DataError(source, where, "the final space cannot be a special space")
    starts: set[int] = set()
    for cut in tile.shortcuts:
        if not (0 <= cut.start <= last and 0 <= cut.end <= last) or (tile.role == "finish" and cut.end == last):
            raise DataError(source, where, f"shortcut {cut.start} -> {cut.end} goes off its tile (spaces 0-{last})")
        if cut.end <= cut.start + 1:
            raise DataError(source, where, f"shortcut {cut.start} -> {cut.end} does not go forward past a space")
        if cut.start in tile.specials or cut.start in starts:
            raise DataError(source, where, f"shortcut {cut.start} -> {cut.end} starts on a space "
                                           "that is already special")
        starts.add(cut.start)


def check_tiles(tiles: TileFile, source: str) -> None:
    """Refuse a tile file whose tiles break the game's facts (see the module's docstring)."""
    ids = [t.id for t in tiles.tiles]
    for tile_id in ids:
        if ids.count(tile_id) > 1:
            raise DataError(source, f"tile {tile_id}", "two tiles have this id")
    for tile in tiles.tiles:
        _check_tile(tile, tiles.size, source)
    roles: list[str] = [t.role for t in tiles.tiles]
    for role, wanted in (("start", 1), ("finish", 1), ("standard", STANDARD_TILES)):
        if roles.count(role) != wanted:
            raise DataError(source, "tiles", f"wrong totals: {roles.count(role)} {role} tile(s), C1 has {wanted}")
    diners = sum(t.count(SpaceKind.DINER) for t in tiles.tiles)
    if diners != DINER_SITES:
        raise DataError(source, "tiles", f"wrong totals: {diners} Diner sites, C1 has {DINER_SITES} stage tiles")
    flags = sum(t.count(SpaceKind.CHECKPOINT) for t in tiles.tiles)
    if flags != CHECKPOINT_SITES:
        raise DataError(source, "tiles", f"wrong totals: {flags} checkpoint sites, "
                                         f"C1 has {CHECKPOINT_SITES} checkpoint tiles")
    ends = sum(t.count(SpaceKind.DINER) for t in tiles.tiles if t.role != "standard")
    fewest = sorted(t.count(SpaceKind.DINER) for t in tiles.tiles if t.role == "standard")[:SPRINT_TILES]
    if ends + sum(fewest) < SPRINT_DINERS:
        raise DataError(source, "tiles", f"wrong totals: a sprint course could hold only "
                                         f"{ends + sum(fewest)} Diner sites, C9 places stage tiles 11-21 "
                                         f"({SPRINT_DINERS})")
    _check_letters(tiles, source)


def _check_letters(tiles: TileFile, source: str) -> None:
    """Each letter joins one exit to one entry, and from the start they chain every tile (C2)."""
    entries: dict[str, Tile] = {}
    for tile in tiles.tiles:
        if tile.entry is not None:
            if tile.entry.letter in entries:
                raise DataError(source, f"tile {tile.id}",
                                f"entry letter {tile.entry.letter} is also another tile's entry")
            entries[tile.entry.letter] = tile
    tile = next(t for t in tiles.tiles if t.role == "start")
    chain = [tile.id]
    while tile.exit is not None:
        following = entries.get(tile.exit.letter)
        if following is None or following.id in chain:
            raise DataError(source, f"tile {tile.id}", f"no tile's entry joins its exit letter {tile.exit.letter} (C2)")
        tile = following
        chain.append(tile.id)
    if len(chain) != len(tiles.tiles):
        raise DataError(source, "tiles",
                        f"the letters join only {', '.join(chain)} from the start, not every tile (C2)")


def parse_tiles(text: str, source: str) -> TileFile:
    """A tile file from its JSON text, checked; `source` names the file in every refusal."""
    tiles = parse_model(TileFile, text, source)
    check_tiles(tiles, source)
    return tiles


def tiles_dir() -> Path:
    return data_dir() / "roadrally" / "tiles"


@lru_cache(maxsize=1)
def tiles_text() -> str:
    """The shipped tile file's text (a result card's digest of a course binds it)."""
    return (tiles_dir() / "race_tiles.json").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def load_tiles() -> TileFile:
    """The shipped race tiles (`data/roadrally/tiles/race_tiles.json`)."""
    return parse_tiles(tiles_text(), "data/roadrally/tiles/race_tiles.json")
