"""`python -m bot stage list|validate|show|generate`: the stage tools for organisers.

- `list` prints a table of the shipped stages (data/rallyman/stages/): length, zones, weather, counts;
- `validate PATH...` checks stage (.stage) and zone (.zone) files and prints `ok NAME (N spaces)`
  or the error (`file:line: reason — hint`) for each; exit 1 if any is invalid. Stage files are
  checked against the shipped zones, replaced by any zone file given on the same command line;
- `show NAME|PATH` prints a stage as pace notes, one line per section;
- `generate --seed N [--length L]` prints a new stage's text (save it as a .stage file).

No Discord, no database: these run anywhere the repository is checked out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Literal

from bot.engine.core.errors import StageError
from bot.engine.core.stage_text import FinishNote, StartNote, read_stage_file
from bot.engine.core.stage_tool import expand, load_each, print_generated, print_table
from bot.engine.rallyman.stages.build import build_stage
from bot.engine.rallyman.stages.format import PointNote, SplitNote, ZoneNote
from bot.engine.rallyman.stages.loader import (
    ZoneFile,
    load_stage,
    load_stage_file,
    parse_zone,
    stage_names,
)
from bot.engine.rallyman.stages.model import Border, Section, SpaceKind, Stage, Surface
from bot.paths import data_dir

DASH = "–"


def register(subparsers: Any) -> None:
    """Add `stage` and its actions to the `python -m bot` parser."""
    parser = subparsers.add_parser("stage", help="stage tools: list, validate, show, generate")
    actions = parser.add_subparsers(dest="stage_action", metavar="ACTION")
    actions.add_parser("list", help="table of the shipped stages").set_defaults(func=cmd_list)
    validate = actions.add_parser("validate", help="check stage and zone files; exit 1 if any is invalid")
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                          help=".stage or .zone file, or a folder of them")
    validate.set_defaults(func=cmd_validate)
    show = actions.add_parser("show", help="a stage as pace notes, one line per section")
    show.add_argument("stage", metavar="NAME|PATH", help="a shipped stage's name or a .stage file")
    show.set_defaults(func=cmd_show)
    generate = actions.add_parser("generate", help="print a new stage made from a seed")
    generate.add_argument("--seed", type=int, required=True, help="same seed, same stage")
    generate.add_argument("--length", type=int, default=30, help="about how many spaces (default 30)")
    generate.set_defaults(func=cmd_generate)

    def usage(_: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    parser.set_defaults(func=usage)


# -- list ------------------------------------------------------------------------------------

def cmd_list(_: argparse.Namespace) -> int:
    """One row per shipped stage; a stage that does not load is reported and makes the exit 1."""
    loaded, failed = load_each(stage_names(), load_stage, "error: {}")
    rows = [("name", "title", "spaces", "zones", "snow", "corners", "bumps", "shortcuts", "splits")]
    for name, stage in loaded:
        c = stage.counts()
        rows.append((name, stage.title, str(stage.length), " ".join(stage.zone_order),
                     " ".join(z for z in stage.zone_order if z in stage.snow_zones) or "-",
                     str(c["corners"]), str(c["bumps"]), str(c["shortcuts"]), str(c["splits"])))
    print_table(rows, {2, 5, 6, 7, 8})
    return 1 if failed else 0


# -- validate --------------------------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    """Check every file given (folders: their .stage and .zone files); report each one."""
    paths = expand(args.paths, ("*.zone", "*.stage"))
    zone_files, failed = load_each([p for p in paths if p.suffix == ".zone"], _read_zone_length)
    given: dict[str, ZoneFile] = {}
    for _, (zone_file, spaces) in zone_files:
        given[zone_file.zone.letter] = zone_file
        print(f"ok zone {zone_file.zone.letter} {zone_file.zone.name} ({spaces} spaces)")
    stage_paths = [p for p in paths if p.suffix != ".zone"]
    if stage_paths:
        zones, broken = _shipped_zones(exclude=set(given))
        for message in broken:
            print(message, file=sys.stderr)
        failed += len(broken)
        zones.update(given)
        stages, refused = load_each(stage_paths, lambda path: load_stage_file(path, zones))
        failed += refused
        for _, stage in stages:
            print(f"ok {stage.name} ({stage.length} spaces)")
    return 1 if failed else 0


def _read_zone(path: Path) -> ZoneFile:
    return parse_zone(read_stage_file(path), str(path))


def _read_zone_length(path: Path) -> tuple[ZoneFile, int]:
    zone_file = _read_zone(path)
    return zone_file, _zone_length(zone_file)


def _shipped_zones(exclude: set[str]) -> tuple[dict[str, ZoneFile], list[str]]:
    """The zones of data/rallyman/zones/, one by one so a broken zone does not hide the others."""
    zones: dict[str, ZoneFile] = {}
    broken: list[str] = []
    for path in sorted((data_dir() / "rallyman" / "zones").glob("*.zone")):
        try:
            zone_file = _read_zone(path)
        except StageError as exc:
            broken.append(str(exc))
            continue
        if zone_file.zone.letter not in exclude:
            zones[zone_file.zone.letter] = zone_file
    return zones, broken


def _zone_length(zone_file: ZoneFile) -> int:
    """Build the whole zone, first connection point to last, as a stage: proves it lays out."""
    points = [n for n in zone_file.notes if isinstance(n, PointNote)]
    first, last = points[0], points[-1]
    notes = zone_file.between(first.number, last.number, first.line, zone_file.source)
    while notes and isinstance(notes[-1], SplitNote):
        notes.pop()
    letter = zone_file.zone.letter
    stage = build_stage(f"zone-{letter}", zone_file.zone.name,
                        [StartNote(first.line, "start"), ZoneNote(first.line, f"zone {letter}", letter), *notes,
                         FinishNote(last.line, "finish")],
                        {letter: zone_file.zone}, zone_file.source)
    return stage.length


# -- show ------------------------------------------------------------------------------------

def cmd_show(args: argparse.Namespace) -> int:
    """Print the stage as pace notes: start, a line per section, zone changes, splits, finish."""
    try:
        stage = _load(args.stage)
    except StageError as exc:
        print(exc, file=sys.stderr)
        return 1
    for line in pace_notes(stage):
        print(line)
    return 0


def _load(name_or_path: str) -> Stage:
    path = Path(name_or_path)
    if path.suffix == ".stage" or path.is_file():
        return load_stage_file(path)
    return load_stage(name_or_path)


def pace_notes(stage: Stage) -> list[str]:
    """The stage as lines a co-driver could read out (see `python -m bot stage show`)."""
    along = max(s.index for s in stage.spaces)
    head = f"{stage.title} ({stage.name}): {stage.length} spaces by the shortest line, {along} along the road"
    if stage.route:
        head += f", route {stage.route}"
    described = [_describe(stage, section) for section in stage.sections]
    width = max(len(what) for _, what, _ in described)
    terrain_width = max(len(terrain) for _, _, terrain in described) + 2
    lines = [head, "start"]
    zone = None
    for section, (where, what, terrain) in zip(stage.sections, described):
        if section.zone != zone:
            zone = section.zone
            side = "snow side" if zone in stage.snow_zones else "dry side"
            lines.append(f"zone {zone} {DASH} {stage.zones[zone].name}, {side}")
        if any(stage.spaces[i].split for i in section.spaces):
            lines.append("split (intermediate time)")
        lines.append(f"{where:>7}  {what:<{width}}  {'[' + terrain + ']':<{terrain_width}}  zone {section.zone}")
    lines.append("finish")
    return lines


def _describe(stage: Stage, section: Section) -> tuple[str, str, str]:
    """(space numbers, the note in words, `left | right` terrain) of one section."""
    spaces = [stage.spaces[i] for i in section.spaces]
    road = [s for s in spaces if s.kind in (SpaceKind.STRAIGHT, SpaceKind.BUMP, SpaceKind.INTERIOR)]
    where = f"{road[0].index}" if len(road) == 1 else f"{road[0].index}{DASH}{road[-1].index}"
    first = spaces[0]
    if first.corner is not None:
        return where, *_describe_corner(stage, first.corner)
    words = f"bump {first.note}" if first.kind is SpaceKind.BUMP else f"straight {len(spaces)}"
    if first.capacity != 2:
        words += f", {first.capacity} car{'s' if first.capacity > 1 else ''} wide"
    if first.zone in stage.snow_zones and first.surface_snow is Surface.ASPHALT:
        words += ", cleared of snow"
    left = _terrains([_terrain_name(s.left) for s in spaces])
    right = _terrains([_terrain_name(s.right) for s in spaces])
    return where, words, f"{left} | {right}"


def _describe_corner(stage: Stage, corner_id: int) -> tuple[str, str]:
    corner = stage.corners[corner_id]
    m = len(corner.interior)
    words = f"{corner.direction} {corner.interior_note} (interior {m} space{'s' if m > 1 else ''}, {corner.angle:g}°)"
    if corner.skid:
        words += ", skid " + "·".join(str(n) for n in corner.skid_notes)
    if corner.shortcut:
        k = len(corner.shortcut)
        words += f", shortcut K{corner.shortcut_note}" + (f" ({k} spaces)" if k > 1 else "")
    inside_of: Literal["left", "right"] = "left" if corner.direction == "left" else "right"
    outside_of: Literal["left", "right"] = "right" if inside_of == "left" else "left"
    inner = stage.spaces[corner.shortcut[0] if corner.shortcut else corner.interior[0]]
    outer = stage.spaces[corner.skid[0] if corner.skid else corner.interior[0]]
    inside = _terrain_name(inner.border(inside_of))
    outside = _terrain_name(outer.border(outside_of))
    left, right = (inside, outside) if inside_of == "left" else (outside, inside)
    return words, f"{left} | {right}"


def _terrain_name(border: Border) -> str:
    """The terrain beside the road on this side: straights and a corner's outermost and innermost
    lines always have terrain there (a road or shortcut border lies between the lines)."""
    assert border.terrain is not None, f"a {border.kind} border has no terrain"
    return border.terrain.value


def _terrains(values: list[str]) -> str:
    return values[0] if len(set(values)) == 1 else ", ".join(values)


# -- generate --------------------------------------------------------------------------------

def cmd_generate(args: argparse.Namespace) -> int:
    """Print the text of the stage generated from `--seed` (same seed, same text)."""
    from bot.engine.rallyman.stages.generator import generate

    try:
        return print_generated(lambda: generate(args.seed, args.length), "stage generate")
    except StageError as exc:
        print(f"stage generate: the shipped zones do not load: {exc}", file=sys.stderr)
        return 1
