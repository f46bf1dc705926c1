"""Laying race tiles into one road (RULES C2, C7, C9).

Each tile fills one square block of a grid of blocks. The first tile (the start) is laid as
drawn; each next tile is turned so that its entry edge meets the previous tile's exit edge (C2:
an open edge at the middle of a side, so the turn is set by the join) and laid in the block
beyond that exit. A block already holding a tile is an overlap: the layout is refused (C7).
The road is the tiles' roads end to end; positions are cells in course units (one unit = one
space), shifted so the smallest x and y are 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.roadrally.course.tiles import Tile
from bot.engine.roadrally.road import Road, RoadSpace

SIDES = ("N", "E", "S", "W")  # clockwise
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class Overlap(Exception):
    """Two tiles of a layout would lie on the same block (C7: no overlaps): the later tile's id
    and that block."""

    def __init__(self, tile: str, block: tuple[int, int]) -> None:
        super().__init__(tile, block)
        self.tile = tile
        self.block = block


@dataclass(frozen=True)
class Placed:
    """A tile laid on the course: its block and its quarter turns clockwise."""

    tile: Tile
    block: tuple[int, int]
    turns: int


def turned(side: str, turns: int) -> str:
    """The side `side` becomes after `turns` quarter turns clockwise."""
    return SIDES[(SIDES.index(side) + turns) % 4]


def turn_cell(cell: tuple[int, int], turns: int, size: int) -> tuple[int, int]:
    """A cell of a `size` tile after `turns` quarter turns clockwise (x right, y down)."""
    x, y = cell
    for _ in range(turns % 4):
        x, y = size - 1 - y, x
    return x, y


def place(tiles: list[Tile]) -> list[Placed]:
    """Lay `tiles` in order, each joined to the previous one's exit; `Overlap` if two meet."""
    placed: list[Placed] = []
    used: set[tuple[int, int]] = set()
    block, heading = (0, 0), "E"
    for n, tile in enumerate(tiles):
        if n == 0:
            turns = 0
        else:
            assert tile.entry is not None
            turns = (SIDES.index(OPPOSITE[heading]) - SIDES.index(tile.entry.side)) % 4
            block = (block[0] + STEP[heading][0], block[1] + STEP[heading][1])
        if block in used:
            raise Overlap(tile.id, block)
        used.add(block)
        placed.append(Placed(tile, block, turns))
        if tile.exit is not None:
            heading = turned(tile.exit.side, turns)
    return placed


def road_of(name: str, placed: list[Placed], size: int) -> Road:
    """The road of a laid course: every tile's spaces in order, positions in course units."""
    cells: list[tuple[int, int, int, Tile]] = []  # x, y, tile index, tile
    starts: list[int] = []
    for n, p in enumerate(placed):
        starts.append(len(cells))
        for cell in p.tile.road:
            x, y = turn_cell(cell, p.turns, size)
            cells.append((p.block[0] * size + x, p.block[1] * size + y, n, p.tile))
    low_x, low_y = min(c[0] for c in cells), min(c[1] for c in cells)
    spaces: list[RoadSpace] = []
    for index, (x, y, n, tile) in enumerate(cells):
        i = index - starts[n]
        cut = next((starts[n] + s.end for s in tile.shortcuts if s.start == i), None)
        spaces.append(RoadSpace(index=index, kind=tile.kind(i), tile=n, shortcut_to=cut,
                                x=float(x - low_x), y=float(y - low_y)))
    return Road(name=name, spaces=tuple(spaces), tiles=tuple(p.tile.id for p in placed))
