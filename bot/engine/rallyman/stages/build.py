"""Turning parsed pace notes into a `Stage`: the space graph (RULES A24) and its geometry.

Progress values follow the interior (shortest) line: a straight space adds 1; a corner with an
interior line of m spaces spans m+1 units, its skid and shortcut spaces spread evenly over the
same span, so cars on any trajectory compare by how far round the corner they are (RULES A5.4).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from bot.engine.core.errors import StageError
from bot.engine.rallyman.stages.format import (
    BumpNote,
    CornerNote,
    FinishNote,
    Note,
    PointNote,
    SplitNote,
    StartNote,
    StraightNote,
    ZoneNote,
)
from bot.engine.rallyman.stages.geometry import Cursor, check_overlap, corner_layout
from bot.engine.rallyman.stages.model import (
    FINISH,
    START,
    Border,
    Corner,
    Section,
    Space,
    SpaceKind,
    Stage,
    Surface,
    Terrain,
    Zone,
)


@dataclass
class _Draft:
    """Mutable space under construction; frozen into a `Space` at the end."""

    id: int
    kind: SpaceKind
    zone: str
    progress: float
    index: int
    capacity: int
    line: int
    left: Border
    right: Border
    x: float
    y: float
    heading: float
    note: int | None = None
    corner: int | None = None
    bailout: int | None = None
    clear: bool = False
    split: bool = False
    next: list[int] = field(default_factory=list)


def _terrain(t: Terrain) -> Border:
    return Border(kind="terrain", terrain=t)


class _Builder:
    def __init__(self, source: str, zones: dict[str, Zone]) -> None:
        self.source = source
        self.zones = zones
        self.drafts: list[_Draft] = []
        self.corners: list[Corner] = []
        self.sections: list[Section] = []
        self.ends: list[int] = [START]
        self.start_next: list[int] = []
        self.progress = 0.0
        self.index = 0
        self.zone: str | None = None
        self.zone_order: list[str] = []
        self.split_pending: int | None = None  # line of a `split` waiting for the next section
        self.cursor = Cursor(0.0, 0.0, 0.0)

    # -- helpers -------------------------------------------------------------------------------
    def _new(self, zone: str, **kw) -> _Draft:
        draft = _Draft(id=len(self.drafts), zone=zone, **kw)
        self.drafts.append(draft)
        return draft

    def _link(self, entries: list[int]) -> None:
        """Connect the previous section's ends to `entries` and mark a pending split point."""
        for end in self.ends:
            if end == START:
                self.start_next.extend(entries)
            else:
                self.drafts[end].next.extend(entries)
        if self.split_pending:
            for e in entries:
                self.drafts[e].split = True
            self.split_pending = None

    def _need_zone(self, note: Note) -> str:
        if self.zone is None:
            raise StageError(self.source, note.line, "road before any zone",
                             "put a line `zone A` (a zone from data/rallyman/zones/) before the first section")
        return self.zone

    # -- notes ---------------------------------------------------------------------------------
    def straight(self, note: StraightNote | BumpNote) -> None:
        zone = self._need_zone(note)
        is_bump = isinstance(note, BumpNote)
        count = note.count if isinstance(note, StraightNote) else 1
        made = []
        for i in range(count):
            left, right = note.sides.at(i)
            x, y = self.cursor.ahead(0.5)
            self.progress += 1
            self.index += 1
            d = self._new(zone, kind=SpaceKind.BUMP if is_bump else SpaceKind.STRAIGHT, progress=self.progress,
                          index=self.index, capacity=note.capacity, line=note.line, left=_terrain(left),
                          right=_terrain(right), x=x, y=y, heading=self.cursor.heading, clear=note.clear,
                          note=note.note if isinstance(note, BumpNote) else None)
            self._link([d.id])
            self.ends = [d.id]
            self.cursor = self.cursor.advance(1.0)
            made.append(d.id)
        self.sections.append(Section(text=note.text, line=note.line, zone=zone, spaces=tuple(made)))

    def corner(self, note: CornerNote) -> None:
        zone = self._need_zone(note)
        corner_id = len(self.corners)
        m, n, k = note.interior_count, len(note.skid_notes), note.shortcut_count
        layout = corner_layout(self.cursor, note.direction, note.angle, m, n, k)
        inside, outside = note.sides.at(0)
        if note.direction == "right":
            inside, outside = outside, inside
        base, span = self.progress, m + 1
        # Skid spaces spread from the furthest point of the road the corner is entered from, so a
        # long skid right after another corner's long skid never steps back in progress (A5.4).
        entry = max([base] + [self.drafts[e].progress for e in self.ends if e != START])

        def make(kind: SpaceKind, pos, frac: float, note_value: int) -> _Draft:
            return self._new(zone, kind=kind, progress=base + frac * span, index=0, capacity=1, line=note.line,
                             left=_terrain(inside), right=_terrain(outside), x=pos[0], y=pos[1],
                             heading=pos[2], note=note_value, corner=corner_id, clear=note.clear)

        interior = [make(SpaceKind.INTERIOR, layout.interior[i], (i + 1) / span, note.interior_note)
                    for i in range(m)]
        for i, d in enumerate(interior):
            d.index = self.index + i + 1
        skid = [make(SpaceKind.SKID, layout.skid[j], 0.0, note.skid_notes[j]) for j in range(n)]
        for j, d in enumerate(skid):
            d.progress = entry + (j + 1) / (n + 1) * (base + span - entry)
        shortcut = [make(SpaceKind.SHORTCUT, layout.shortcut[j], (j + 1) / (k + 1), note.shortcut_note)
                    for j in range(k)] if note.shortcut_note is not None else []
        for chain in (interior, skid, shortcut):
            for a, b in zip(chain, chain[1:]):
                a.next.append(b.id)
        for s in skid[:-1]:
            s.bailout = _nearest_ahead(s.progress, interior).id
        self._set_corner_borders(note.direction, interior, skid, shortcut, inside, outside)
        self._link([c[0].id for c in (interior, skid, shortcut) if c])
        self.ends = [c[-1].id for c in (interior, skid, shortcut) if c]
        self.progress = base + m
        self.index += m
        self.cursor = layout.exit
        self.corners.append(Corner(
            id=corner_id, direction=note.direction, interior=tuple(d.id for d in interior),
            interior_note=note.interior_note, skid=tuple(d.id for d in skid), skid_notes=note.skid_notes,
            shortcut=tuple(d.id for d in shortcut), shortcut_note=note.shortcut_note, line=note.line,
            angle=note.angle))
        ids = tuple(d.id for d in interior + skid + shortcut)
        self.sections.append(Section(text=note.text, line=note.line, zone=zone, spaces=ids))

    def _set_corner_borders(self, direction, interior, skid, shortcut, inside, outside) -> None:
        """Inside/outside borders of corner spaces: terrain, or the neighbouring trajectory (A11.3, A11.4)."""
        in_side, out_side = ("left", "right") if direction == "left" else ("right", "left")

        def put(d: _Draft, side: str, border: Border) -> None:
            setattr(d, side, border)

        for d in interior:
            put(d, in_side, Border(kind="shortcut", link=_nearest(d.progress, shortcut).id) if shortcut
                else _terrain(inside))
            put(d, out_side, Border(kind="road", link=_nearest(d.progress, skid).id) if skid else _terrain(outside))
        for d in skid:
            put(d, in_side, Border(kind="road", link=_nearest(d.progress, interior).id))
            put(d, out_side, _terrain(outside))
        for d in shortcut:
            put(d, in_side, _terrain(inside))
            put(d, out_side, Border(kind="road", link=_nearest(d.progress, interior).id))

    def finish(self, note: Note) -> None:
        if not self.drafts:
            raise StageError(self.source, note.line, "the stage has no road between start and finish",
                             "add sections such as `straight 4` before `finish`")
        for end in self.ends:
            self.drafts[end].next.append(FINISH)
        self.ends = []


def _nearest(progress: float, chain: list[_Draft]) -> _Draft:
    return min(chain, key=lambda d: (abs(d.progress - progress), d.progress))


def _nearest_ahead(progress: float, chain: list[_Draft]) -> _Draft:
    ahead = [d for d in chain if d.progress >= progress]
    return ahead[0] if ahead else chain[-1]


def build_stage(name: str, title: str, notes: list[Note], zones: dict[str, Zone], source: str,
                route: str | None = None, snow: frozenset[str] = frozenset()) -> Stage:
    """Build and validate the stage described by `notes` (which must run from start to finish)."""
    if not notes:
        raise StageError(source, "notes", "the stage has no pace notes",
                         "write `start`, the sections and `finish`, or a line `route: A1-A4`")
    if not isinstance(notes[0], StartNote):
        raise StageError(source, notes[0].line, "the stage does not begin with `start`", "make `start` the first note")
    b = _Builder(source, zones)
    finished = False
    for note in notes[1:]:
        if finished:
            raise StageError(source, note.line, "notes after the finish", "`finish` must be the last note")
        if isinstance(note, ZoneNote):
            if note.letter not in zones:
                raise StageError(source, note.line, f"zone {note.letter} is not defined",
                                 f"known zones: {', '.join(sorted(zones)) or 'none'} (data/rallyman/zones/)")
            b.zone = note.letter
            if note.letter not in b.zone_order:
                b.zone_order.append(note.letter)
        elif isinstance(note, (StraightNote, BumpNote)):
            b.straight(note)
        elif isinstance(note, CornerNote):
            b.corner(note)
        elif isinstance(note, SplitNote):
            b.split_pending = note.line
        elif isinstance(note, FinishNote):
            b.finish(note)
            finished = True
        elif isinstance(note, StartNote):
            raise StageError(source, note.line, "a second `start`", "a stage has one start, on its first note")
        elif isinstance(note, PointNote):
            raise StageError(source, note.line, "connection points (@N) belong in zone files",
                             "use `route:` to drive over zones, or remove the @ line")
    if not finished:
        raise StageError(source, notes[-1].line, "the stage has no finish after this line",
                         "end the pace notes with a line `finish`")
    if b.split_pending:
        raise StageError(source, b.split_pending, "a split point right before the finish",
                         "a split marks the next space; move `split` before some road")
    unknown_snow = sorted(snow - set(b.zone_order))
    if unknown_snow:
        raise StageError(source, "snow", f"zone(s) {', '.join(unknown_snow)} are not on this stage",
                         f"zones of this stage: {', '.join(b.zone_order)}")
    spaces = tuple(_freeze(d) for d in b.drafts)
    check_overlap(spaces, source)
    _check_jumps(spaces, source)
    length = _shortest_length(spaces, tuple(b.start_next), source)
    return Stage(name=name, title=title, source=source, route=route,
                 zones={z: zones[z] for z in b.zone_order}, zone_order=tuple(b.zone_order),
                 snow_zones=frozenset(snow), spaces=spaces, corners=tuple(b.corners),
                 sections=tuple(b.sections), start_next=tuple(b.start_next), length=length)


def _freeze(d: _Draft) -> Space:
    return Space(id=d.id, kind=d.kind, zone=d.zone, progress=round(d.progress, 6), index=d.index,
                 capacity=d.capacity, next=tuple(d.next), note=d.note, corner=d.corner, bailout=d.bailout,
                 left=d.left, right=d.right, surface_dry=Surface.ASPHALT,
                 surface_snow=Surface.ASPHALT if d.clear else Surface.SNOW, split=d.split, line=d.line,
                 x=round(d.x, 4), y=round(d.y, 4), heading=round(d.heading % 360.0, 4))


#: Spaces after a bump that a jump can fly over (A10.1: at N+2 the car lands on the 3rd).
JUMP_FLIGHT = 2
_CORNER_KINDS = (SpaceKind.INTERIOR, SpaceKind.SKID, SpaceKind.SHORTCUT)


def _check_jumps(spaces: tuple[Space, ...], source: str) -> None:
    """AMB-21 / A10.3: no corner space (interior, skid or shortcut) among the two spaces after a
    bump on any line, so a jump never flies over a corner's entry and skips its note. The landing
    space of a jump at N+2 (the 3rd after the bump) may be a corner space: it is checked normally."""
    for bump in spaces:
        if bump.kind is not SpaceKind.BUMP:
            continue
        frontier = [bump.id]
        for distance in range(1, JUMP_FLIGHT + 1):
            frontier = [n for f in frontier for n in spaces[f].next if n != FINISH]
            corner = next((spaces[n] for n in frontier if spaces[n].kind in _CORNER_KINDS), None)
            if corner is not None:
                plural = "space" if distance == 1 else "spaces"
                raise StageError(source, bump.line,
                                 f"bump {bump.note}: a corner lies {distance} {plural} after the bump (line "
                                 f"{corner.line}), so a jump could fly over its entry (RULES A10.3, AMB-21)",
                                 f"leave at least {JUMP_FLIGHT} spaces of road between a bump and a corner, "
                                 f"e.g. `straight {JUMP_FLIGHT}` after the bump")


def _shortest_length(spaces: tuple[Space, ...], start_next: tuple[int, ...], source: str) -> int:
    """Spaces on the shortest way from start to finish; also proves the finish is reachable."""
    dist = {s: 1 for s in start_next}
    queue = deque(start_next)
    while queue:
        cur = queue.popleft()
        for nxt in spaces[cur].next:
            if nxt == FINISH:
                return dist[cur]
            if nxt not in dist:
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    raise StageError(source, "finish", "the finish cannot be reached from the start", "check the route")

