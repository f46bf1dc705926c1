"""Loading zones and stages from `data/` (or text): files in, validated `Stage` out.

A stage file either writes its pace notes inline (with `zone X` lines) or names a route over
zone files in the rulebook's notation, `route: A1-A4 / B2-B3` (RULES A2.3): zone A from its
connection point @1 to @4, then zone B from @2 to @3.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bot.engine.core.errors import StageError
from bot.engine.core.stage_text import read_stage_file
from bot.engine.rallyman.stages.build import build_stage
from bot.engine.rallyman.stages.format import (
    FinishNote,
    Note,
    ParsedFile,
    PointNote,
    SplitNote,
    StartNote,
    ZoneNote,
    parse_legend,
    parse_text,
)
from bot.engine.rallyman.stages.model import Stage, Zone
from bot.paths import data_dir

STAGE_FIELDS = frozenset({"title", "route", "snow"})
ZONE_FIELDS = frozenset({"zone", "name", "legend", "snow legend"})
_SEGMENT = re.compile(r"^([A-Za-z])(\d+)-([A-Za-z])(\d+)$")


@dataclass(frozen=True)
class ZoneFile:
    """A zone board: its legend and its pace notes with numbered connection points."""

    zone: Zone
    notes: tuple[Note, ...]
    source: str

    def between(self, a: int, b: int, where: int | str, stage_source: str) -> list[Note]:
        """The notes from connection point @a to @b (driven towards higher points only)."""
        points = {n.number: i for i, n in enumerate(self.notes) if isinstance(n, PointNote)}
        for p in (a, b):
            if p not in points:
                raise StageError(stage_source, where, f"zone {self.zone.letter} has no connection point @{p}",
                                 f"its points are {', '.join('@' + str(x) for x in sorted(points))}")
        z = self.zone.letter
        if a == b:
            raise StageError(stage_source, where, f"{z}{a}-{z}{b} covers no road",
                             f"a segment joins two different points of zone {z}: "
                             f"{', '.join('@' + str(x) for x in sorted(points))}")
        if points[a] > points[b]:
            raise StageError(stage_source, where, f"{z}{a}-{z}{b} runs backwards",
                             f"zone {z} is driven in the order its points appear in {self.source} "
                             f"(@{b} comes before @{a}): write {z}{b}-{z}{a}")
        return [n for n in self.notes[points[a] + 1:points[b]] if not isinstance(n, PointNote)]


def parse_zone(text: str, source: str) -> ZoneFile:
    parsed = parse_text(text, source, ZONE_FIELDS)
    letter = _required(parsed, "zone")
    if not re.fullmatch(r"[A-Za-z]", letter[0]):
        raise StageError(source, letter[1], f"zone letter '{letter[0]}'", "a zone is named by one letter, e.g. zone: A")
    legend_text, legend_line = _required(parsed, "legend")
    legend = parse_legend(legend_text, source, legend_line)
    snow_field = parsed.header.get("snow legend")
    snow = parse_legend(snow_field[0], source, snow_field[1]) if snow_field else dict(legend)
    for note in parsed.notes:
        if isinstance(note, (StartNote, FinishNote, ZoneNote)):
            raise StageError(source, note.line, f"`{note.text.split()[0]}` does not belong in a zone file",
                             "a zone holds road and @N connection points; stages add start, finish and zones")
    if sum(isinstance(n, PointNote) for n in parsed.notes) < 2:
        raise StageError(source, "points", "a zone needs at least two connection points",
                         "mark places a route can enter or leave with @1, @2, ...")
    zone = Zone(letter=letter[0].upper(), name=parsed.header.get("name", (letter[0].upper(), 0))[0],
                legend_dry=legend, legend_snow=snow)
    return ZoneFile(zone=zone, notes=tuple(parsed.notes), source=source)


def _required(parsed: ParsedFile, key: str) -> tuple[str, int]:
    if key not in parsed.header:
        raise StageError(parsed.source, key, f"missing field '{key}'", f"add a line `{key}: ...` at the top")
    return parsed.header[key]


def parse_stage(text: str, source: str, zones: dict[str, ZoneFile], name: str | None = None) -> Stage:
    """Build the stage written in `text`; `source` names it in errors."""
    parsed = parse_text(text, source, STAGE_FIELDS)
    name = name or Path(source).stem
    title = parsed.header.get("title", (name.replace("-", " ").title(), 0))[0]
    route_field = parsed.header.get("route")
    if route_field:
        if parsed.notes:
            raise StageError(source, parsed.notes[0].line, "a route stage has no pace notes of its own",
                             "either write `route:` or the notes, not both")
        notes = _route_notes(route_field[0], route_field[1], source, zones)
    else:
        notes = parsed.notes
    snow: frozenset[str] = frozenset()
    if "snow" in parsed.header:
        value, line = parsed.header["snow"]
        letters = [p.strip().upper() for p in value.split(",") if p.strip()]
        bad = [p for p in letters if not re.fullmatch(r"[A-Z]", p)]
        if bad:
            raise StageError(source, line, f"snow lists '{bad[0]}'", "list zone letters, e.g. snow: A, C")
        snow = frozenset(letters)
    try:
        return build_stage(name, title, notes, {z: zf.zone for z, zf in zones.items()}, source,
                           route=route_field[0] if route_field else None, snow=snow)
    except StageError as exc:
        if not route_field or exc.where == route_field[1] or not isinstance(exc.where, int):
            raise
        # The failing note is in a zone file: point at the route line and say where the note is.
        files = ", ".join(sorted({zones[z].source for z in _route_zones(route_field[0]) if z in zones}))
        raise StageError(source, route_field[1], f"{exc.reason} (lines of {files})",
                         "the route's zones do not fit together: pick other connection points, another zone "
                         "order, or change a corner in the zone file") from None


def _route_zones(route: str) -> list[str]:
    return [m.group(1).upper() for part in route.split("/") if (m := _SEGMENT.match(part.strip()))]


def _route_notes(route: str, line: int, source: str, zones: dict[str, ZoneFile]) -> list[Note]:
    notes: list[Note] = [StartNote(line, "start")]
    for part in route.split("/"):
        m = _SEGMENT.match(part.strip())
        if not m:
            raise StageError(source, line, f"bad route segment '{part.strip()}'",
                             "write segments like A1-A4 separated by /, e.g. route: A1-A4 / B2-B3")
        z1, a, z2, b = m.group(1).upper(), int(m.group(2)), m.group(3).upper(), int(m.group(4))
        if z1 != z2:
            raise StageError(source, line, f"segment {part.strip()} changes zone inside a segment",
                             "a segment stays on one zone; join zones with /, e.g. A1-A4 / B2-B3")
        if z1 not in zones:
            raise StageError(source, line, f"zone {z1} is not defined",
                             f"known zones: {', '.join(sorted(zones)) or 'none'} (data/rallyman/zones/)")
        notes.append(ZoneNote(line, f"zone {z1}", z1))
        notes.extend(zones[z1].between(a, b, line, source))
    notes.append(FinishNote(line, "finish"))
    _drop_trailing_split(notes)
    return notes


def _drop_trailing_split(notes: list[Note]) -> None:
    """A zone's split mark at its very end means nothing when the route finishes there."""
    while len(notes) >= 2 and isinstance(notes[-2], SplitNote):
        del notes[-2]


# -- the shipped data --------------------------------------------------------------------------

def load_zones(folder: Path | None = None) -> dict[str, ZoneFile]:
    folder = folder or data_dir() / "rallyman" / "zones"
    zones: dict[str, ZoneFile] = {}
    for path in sorted(folder.glob("*.zone")):
        zf = parse_zone(read_stage_file(path, _rel(path)), _rel(path))
        if zf.zone.letter in zones:
            raise StageError(_rel(path), "zone", f"zone {zf.zone.letter} is defined twice",
                             f"also in {zones[zf.zone.letter].source}")
        zones[zf.zone.letter] = zf
    return zones


def stage_paths(folder: Path | None = None) -> list[Path]:
    return sorted((folder or data_dir() / "rallyman" / "stages").glob("*.stage"))


def load_stage_file(path: Path, zones: dict[str, ZoneFile] | None = None) -> Stage:
    text = read_stage_file(path)
    return parse_stage(text, _rel(path), zones if zones is not None else load_zones())


@lru_cache(maxsize=64)
def load_stage(name: str) -> Stage:
    """A shipped stage by name (file stem in data/rallyman/stages/); cached, stages never change. The name
    is looked up among the shipped stages, never used as a path (`../x`, `/etc/x` are unknown).
    Generated stages too: `bot.engine.rallyman.stages.catalogue.load_stage`. The zones are read
    once (`shipped_zones`): a render worker's first board of a stage read them all again (~10 ms)."""
    path = data_dir() / "rallyman" / "stages" / f"{name}.stage"
    if name not in stage_names() or not path.exists():
        known = ", ".join(p.stem for p in stage_paths())
        raise StageError(name, None, f"no stage named '{name}'", f"known stages: {known}")
    return load_stage_file(path, shipped_zones())


@lru_cache(maxsize=1)
def shipped_zones() -> dict[str, ZoneFile]:
    """The zones shipped in data/rallyman/zones/ (read once)."""
    return _shipped_zones()


def _shipped_zones() -> dict[str, ZoneFile]:
    return load_zones()


def stage_names() -> list[str]:
    return [p.stem for p in stage_paths()]


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
