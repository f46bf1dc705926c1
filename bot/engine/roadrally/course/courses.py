"""The three Road Rally USA courses by name (RULES C2, C7, C9): `base`, `std-SEED`, `sprint-SEED`.

- `base_course()`: the fixed base layout (C2): every tile, chained by its letters from the start
  (exit A joins entry A, B joins B …), so the tile file fixes it.
- `standard_course(seed)`: the variable course (C7): the start, the 10 standard tiles in a seeded
  order, each joined to the previous one, the finish last; an order that overlaps is dropped and
  the next seeded one tried.
- `sprint_course(seed)`: the sprint (C9): the start, 5 seeded standard tiles, the finish.

A tile's turn is set by its join (its entry edge meets the previous exit), so the seed chooses the
tiles and their order and thereby how each one lies. The same seed gives the same course on every
server (`random.Random` seeded with a string). `load_course` reads a stored name, never a path.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

from bot.engine.core.errors import DataError, NotAllowed
from bot.engine.core.text import msg
from bot.engine.roadrally.course.layout import Overlap, place, road_of
from bot.engine.roadrally.course.tiles import SPRINT_TILES, Tile, TileFile, load_tiles
from bot.engine.roadrally.road import Road

COURSE_NAME = re.compile(r"(std|sprint)-(\d{1,9})")
TRIES = 1000  # seeded arrangements tried before giving up (seeds 0-1999 need at most 6)


def base_order(tiles: TileFile) -> list[Tile]:
    """The tiles chained by their letters from the start (C2; the validator checked the chain)."""
    entries = {t.entry.letter: t for t in tiles.tiles if t.entry is not None}
    tile = next(t for t in tiles.tiles if t.role == "start")
    order = [tile]
    while tile.exit is not None:
        tile = entries[tile.exit.letter]
        order.append(tile)
    return order


def base_course(tiles: TileFile | None = None) -> Road:
    """The fixed base layout (C2)."""
    tiles = tiles or load_tiles()
    try:
        return road_of("base", place(base_order(tiles)), tiles.size)
    except Overlap as exc:
        raise DataError("data/roadrally/tiles", "base course",
                        f"tile {exc.tile} would lie on the block {exc.block} of an earlier tile (C7)") from None


def _seeded(name: str, count: int, tiles: TileFile | None) -> Road:
    tiles = tiles or load_tiles()
    start = next(t for t in tiles.tiles if t.role == "start")
    finish = next(t for t in tiles.tiles if t.role == "finish")
    standard = [t for t in tiles.tiles if t.role == "standard"]
    rng = random.Random(f"roadrally-{name}")
    for _ in range(TRIES):
        chosen = rng.sample(standard, count)
        try:
            return road_of(name, place([start, *chosen, finish]), tiles.size)
        except Overlap:
            continue
    raise DataError("data/roadrally/tiles", name, f"no layout without overlap in {TRIES} tries")


def standard_course(seed: int, tiles: TileFile | None = None) -> Road:
    """The variable course of C7 for `seed`: all 12 tiles, no overlap."""
    standard = [t for t in (tiles or load_tiles()).tiles if t.role == "standard"]
    return _seeded(f"std-{seed}", len(standard), tiles)


def sprint_course(seed: int, tiles: TileFile | None = None) -> Road:
    """The sprint course of C9 for `seed`: start, 5 standard tiles, finish."""
    return _seeded(f"sprint-{seed}", SPRINT_TILES, tiles)


@lru_cache(maxsize=64)
def load_course(name: str) -> Road:
    """The course of a stored name: `base`, `std-SEED` or `sprint-SEED`; refused otherwise."""
    if name == "base":
        return base_course()
    match = COURSE_NAME.fullmatch(name)
    if match is None:
        raise NotAllowed(msg("roadrally.unknown_course", name=name[:40]))
    seed = int(match.group(2))
    return standard_course(seed) if match.group(1) == "std" else sprint_course(seed)
