"""From DIRT stage notes to the space graph: tiles laid on the hex grid, spaces and their neighbours.

Forward neighbours follow B7: from a space, for each lane, the first space of that lane whose front
edge is further along the track (straight on in its own lane, diagonal into the other), never a
space beside it. Inside a corner a car keeps the line it chose on entry (B8). A slide pair (B9)
is an alternative way over its row; a shortcut (B10) joins the tile before its corner to the tile
after. The checks that need the whole graph are in `validate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from bot.engine.core.errors import StageError
from bot.engine.core.stage_text import FinishNote, StartNote
from bot.engine.dirt.stages import geometry
from bot.engine.dirt.stages.format import MAX_TILES, STRAIGHT_ROWS, ParsedStage, TileNote
from bot.engine.dirt.stages.model import DirtSpace, DirtStage, DirtTile, SpaceKind

EPS = 1e-9


@dataclass
class _Graph:
    """The spaces laid so far, each as it will stay but for its links, and the links, which grow
    as the shortcuts and slides are laid: `forward[i]` and `overlaps[i]` are space i's."""

    spaces: list[DirtSpace] = field(default_factory=list)
    forward: list[list[int]] = field(default_factory=list)
    overlaps: list[list[int]] = field(default_factory=list)

    def add(self, space: DirtSpace, forward: list[int] | None = None, overlaps: list[int] | None = None) -> None:
        """Lay `space` (its id the next one) with these first links."""
        assert space.id == len(self.spaces)
        self.spaces.append(space)
        self.forward.append(forward if forward is not None else [])
        self.overlaps.append(overlaps if overlaps is not None else [])

    def linked(self) -> tuple[DirtSpace, ...]:
        """The spaces with their links, as the stage keeps them."""
        return tuple(DirtSpace(**s.model_dump(exclude={"forward", "overlaps"}), forward=tuple(f),
                               overlaps=tuple(sorted(o)))
                     for s, f, o in zip(self.spaces, self.forward, self.overlaps, strict=True))


class _Pose(TypedDict):
    x: float
    y: float
    heading: float


def _at(xyh: tuple[float, float, float]) -> _Pose:
    """A space's position fields from a point and heading, rounded as a stage keeps them."""
    return {"x": round(xyh[0], 4), "y": round(xyh[1], 4), "heading": round(xyh[2], 2)}


def lane_counts(note: TileNote) -> tuple[int, int]:
    """Spaces in the left and right lane of a tile (a narrow tile: one lane, counted as the left)."""
    if note.kind == "straight":
        return (STRAIGHT_ROWS, 0) if note.narrow else (STRAIGHT_ROWS, STRAIGHT_ROWS)
    inner, outer = 2, 4 if note.sharp else 3
    return (inner, outer) if note.kind == "left" else (outer, inner)


def build_stage(parsed: ParsedStage, name: str) -> DirtStage:
    source = parsed.source
    tiles, start, finish = _tiles_and_lines(parsed)
    placed = _place(tiles, source)
    graph = _normal_spaces(tiles, placed)
    _link_forward(graph)
    _add_shortcuts(tiles, placed, graph, source)
    _add_slides(tiles, placed, graph, source)
    spaces = graph.spaces
    title = parsed.header.get("title", (name.replace("-", " ").title(), 0))[0]
    grid = sorted((i for i, s in enumerate(spaces) if s.kind is SpaceKind.NORMAL and s.front <= start + EPS),
                  key=lambda i: (-spaces[i].front, spaces[i].lanes))
    return DirtStage(
        name=name, title=title, source=source,
        tiles=tuple(DirtTile(index=i, line=n.line, kind=n.kind, sharp=n.sharp, narrow=n.narrow, cell=p.cell,
                             heading=p.heading, exit=p.exit, inside=n.inside, outside=n.outside, shortcut=n.shortcut)
                    for i, (n, p) in enumerate(zip(tiles, placed, strict=True))),
        spaces=graph.linked(),
        start_line=float(start), finish_line=float(finish), grid=tuple(grid))


def _tiles_and_lines(parsed: ParsedStage) -> tuple[list[TileNote], int, int]:
    source = parsed.source
    tiles: list[TileNote] = []
    start: int | None = None
    finish: int | None = None
    for note in parsed.notes:
        if isinstance(note, StartNote):
            if start is not None:
                raise StageError(source, note.line, "a second start line", "a stage has one `start`")
            if not tiles:
                raise StageError(source, note.line, "no grid behind the start line",
                                 "put a tile before `start`: cars wait there (B5)")
            start = len(tiles)
        elif isinstance(note, FinishNote):
            if finish is not None:
                raise StageError(source, note.line, "a second finish line", "a stage has one `finish`")
            if start is None:
                raise StageError(source, note.line, "the finish comes before the start", "write `start` first")
            if len(tiles) == start:
                raise StageError(source, note.line, "no tile between the start and the finish",
                                 "a stage has tiles to drive")
            finish = len(tiles)
        elif isinstance(note, TileNote):
            tiles.append(note)
            if len(tiles) > MAX_TILES:
                raise StageError(source, note.line, f"more than {MAX_TILES} tiles",
                                 f"the box holds {MAX_TILES} track tiles (B1)")
    last = parsed.notes[-1].line if parsed.notes else "tiles"
    if start is None:
        raise StageError(source, last, "no start line", "write `start` after the grid tile")
    if finish is None:
        raise StageError(source, last, "no finish line", "write `finish` before the run-off tile")
    return tiles, start, finish


def _place(tiles: list[TileNote], source: str) -> list[geometry.Placed]:
    placed = geometry.place([geometry.turn_of(t.kind, t.sharp) for t in tiles])
    seen: dict[tuple[int, int], int] = {}
    for i, p in enumerate(placed):
        if p.cell in seen:
            first = tiles[seen[p.cell]]
            raise StageError(source, tiles[i].line, f"this tile overlaps the tile of line {first.line}",
                             "both would lie on the same hex: turn earlier or the other way")
        seen[p.cell] = i
    return placed


def _normal_spaces(tiles: list[TileNote], placed: list[geometry.Placed]) -> _Graph:
    graph = _Graph()
    for index, (note, tile) in enumerate(zip(tiles, placed, strict=True)):
        counts = lane_counts(note)
        corner = index if note.kind != "straight" else None
        inner_lane = 0 if note.kind == "left" else 1
        for lane, count in enumerate(counts):
            for row in range(count):
                lanes = (0, 1) if note.narrow else (lane,)
                inside = (lane == inner_lane) if corner is not None else None
                limit = note.limit if corner is None else (note.inside if inside else note.outside)
                offset = 0.0 if note.narrow else (-1 if lane == 0 else 1) * geometry.LANE_OFFSET
                graph.add(DirtSpace(
                    id=len(graph.spaces), tile=index, line=note.line, kind=SpaceKind.NORMAL, lanes=lanes, row=row,
                    rear=index + row / count, front=index + (row + 1) / count, corner=corner, inside=inside,
                    limit=limit, jump=note.jump if row == count - 1 else None,
                    **_at(geometry.lane_point(tile, (row + 0.5) / count, offset))))
    return graph


def _link_forward(graph: _Graph) -> None:
    """B7: straight on or diagonal, the front edge further along; inside a corner, no lane change."""
    spaces = graph.spaces
    ordered = sorted(range(len(spaces)), key=lambda i: spaces[i].front)
    for s, forward in zip(spaces, graph.forward, strict=True):
        for lane in (0, 1):
            for j in ordered:
                t = spaces[j]
                if lane in t.lanes and t.front > s.front + EPS:
                    same_corner = s.corner is not None and t.corner == s.corner
                    if not same_corner or set(t.lanes) & set(s.lanes):
                        if j not in forward:
                            forward.append(j)
                    break


def _add_shortcuts(tiles: list[TileNote], placed: list[geometry.Placed], graph: _Graph, source: str) -> None:
    """B10: entered from the tile before the corner, left to the tile after; never from a corner space."""
    spaces = graph.spaces
    for index, note in enumerate(tiles):
        if note.shortcut is None:
            continue
        before = tiles[index - 1] if index > 0 else None
        if before is None or before.kind != "straight":
            raise StageError(source, note.line, "the shortcut cannot be entered: the tile before it is a corner",
                             "a shortcut is entered from a non-corner space (B10): put a straight before it")
        new = len(spaces)
        graph.add(DirtSpace(id=new, tile=index, line=note.line, kind=SpaceKind.SHORTCUT, lanes=(), row=0, rear=index,
                            front=index + 1, limit=note.shortcut, **_at(geometry.shortcut_point(placed[index]))))
        for s, forward in zip(spaces[:new], graph.forward, strict=False):
            if s.tile == index - 1 and any(spaces[j].tile == index for j in forward):
                forward.append(new)
        after = tiles[index + 1] if index + 1 < len(tiles) else None
        if after is not None and after.kind == "straight":
            graph.forward[new] = [j for j, t in enumerate(spaces[:new]) if t.tile == index + 1 and t.row == 0]


def _add_slides(tiles: list[TileNote], placed: list[geometry.Placed], graph: _Graph, source: str) -> None:
    """B9, B13.8.3: two halves spanning the track, each overlapping the normal spaces of their row."""
    spaces = graph.spaces
    for index, note in enumerate(tiles):
        if note.slide_row is None:
            continue
        beside = index - 1 if note.slide_row == 0 else index + 1
        if not 0 <= beside < len(tiles) or tiles[beside].kind == "straight":
            where = "before" if note.slide_row == 0 else "after"
            raise StageError(source, note.line, f"slide {note.slide_row + 1} is not next to a corner",
                             f"a slide pair touches a corner (B9): put a corner {where} this tile")
        row = [j for j, s in enumerate(spaces) if s.tile == index and s.kind is SpaceKind.NORMAL
               and s.row == note.slide_row]
        rear, front = spaces[row[0]].rear, spaces[row[0]].front
        mid = (rear + front) / 2
        first, second = len(spaces), len(spaces) + 1
        onward = sorted({k for j in row for k in graph.forward[j]})
        for k, (a, b) in enumerate(((rear, mid), (mid, front))):
            x, y, h = geometry.lane_point(placed[index], (note.slide_row + (k + 0.5) / 2) / STRAIGHT_ROWS, 0.0)
            graph.add(DirtSpace(id=len(spaces), tile=index, line=note.line, kind=SpaceKind.SLIDE, lanes=(0, 1),
                                row=note.slide_row, rear=a, front=b, limit=note.limit,
                                **_at((x, y, geometry.slide_heading(h)))),
                      forward=[second] if k == 0 else onward, overlaps=list(row))
        for j in row:
            graph.overlaps[j].extend((first, second))
        for forward in graph.forward[:first]:
            if any(j in forward for j in row):
                forward.append(first)
