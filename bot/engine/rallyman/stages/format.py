"""Reading the stage text format: pace notes an organiser can type (see data/rallyman/stages/README.md).

This module only turns text into typed notes with their line numbers; `stage_build` turns notes
into the space graph. Every error names the file, the line and what would be valid.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from bot.engine.core.errors import StageError
from bot.engine.core.stage_text import WHOLE, FinishNote, Note, StartNote, stage_lines
from bot.engine.rallyman.stages.model import Terrain

TERRAINS = ", ".join(t.value for t in Terrain)
NOTE_RANGE = range(1, 6)
MAX_STRAIGHT = 30
DEFAULT_CAPACITY = 2  # RULES A13.1, OPEN-11
DEFAULT_INTERIOR_SPACES = 2
DEFAULT_ANGLE = {1: 180.0, 2: 120.0, 3: 90.0, 4: 60.0, 5: 45.0}


@dataclass(frozen=True)
class Sides:
    """Terrain on the left and right of each space of a section (one entry per space, or one for all)."""

    left: tuple[Terrain, ...]
    right: tuple[Terrain, ...]

    def at(self, i: int) -> tuple[Terrain, Terrain]:
        return (self.left[min(i, len(self.left) - 1)], self.right[min(i, len(self.right) - 1)])


@dataclass(frozen=True)
class StraightNote(Note):
    count: int
    capacity: int
    sides: Sides
    clear: bool = False


@dataclass(frozen=True)
class BumpNote(Note):
    note: int
    capacity: int
    sides: Sides
    clear: bool = False


@dataclass(frozen=True)
class CornerNote(Note):
    direction: Literal["left", "right"]
    interior_note: int
    interior_count: int
    skid_notes: tuple[int, ...]
    shortcut_note: int | None
    shortcut_count: int
    angle: float
    sides: Sides
    clear: bool = False


@dataclass(frozen=True)
class SplitNote(Note):
    pass


@dataclass(frozen=True)
class ZoneNote(Note):
    letter: str


@dataclass(frozen=True)
class PointNote(Note):
    number: int


@dataclass
class ParsedFile:
    """A stage or zone file: its header fields (with their lines) and its notes in order."""

    source: str
    header: dict[str, tuple[str, int]] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)


_BRACKET = re.compile(r"\[([^\]]*)\]")
_NOTE_COUNT = re.compile(r"^(\d+)(?:x(\d+))?$")
_SHORTCUT = re.compile(r"^k(\d+)(?:x(\d+))?$")


def parse_text(text: str, source: str, header_keys: frozenset[str]) -> ParsedFile:
    """Split a file into header fields and notes; terrain not written is inherited (pace-note style)."""
    parsed = ParsedFile(source=source)
    sides = Sides((Terrain.GRASS,), (Terrain.GRASS,))
    for number, key, value in stage_lines(text, source, header_keys):
        if key is not None:
            parsed.header[key] = (value, number)
            continue
        note, sides = _parse_note(value, number, source, sides)
        parsed.notes.append(note)
    return parsed


def _parse_note(line: str, number: int, source: str, sides: Sides) -> tuple[Note, Sides]:
    text = line
    bracket = _BRACKET.search(line)
    body = _BRACKET.sub(" ", line).lower().split()
    if bracket:
        sides = _parse_sides(bracket.group(1), number, source)
    if not body:
        raise StageError(source, number, "terrain without a section", "put [left|right] after a section")
    word, args = body[0], body[1:]
    clear = "clear" in args
    args = [a for a in args if a != "clear"]
    if word == "start":
        return StartNote(number, text), sides
    if word == "finish":
        return FinishNote(number, text), sides
    if word == "split":
        return SplitNote(number, text), sides
    if word == "zone":
        if len(args) != 1 or not re.fullmatch(r"[a-z]", args[0]):
            raise StageError(source, number, "a zone boundary needs one zone letter", "e.g. zone A")
        return ZoneNote(number, text, args[0].upper()), sides
    if word.startswith("@"):
        if not WHOLE.match(word[1:]) or args:
            raise StageError(source, number, f"bad connection point '{word}'", "write @ and a number, e.g. @3")
        return PointNote(number, text, int(word[1:])), sides
    if word == "straight":
        return _parse_straight(args, number, text, source, sides, clear), sides
    if word == "bump":
        return _parse_bump(args, number, text, source, sides, clear), sides
    if word in ("left", "right"):
        return _parse_corner(word, args, number, text, source, sides, clear), sides
    raise StageError(source, number, f"unknown note '{word}'",
                     "a line is one of: start, straight N, left N, right N, bump N, split, zone X, finish")


def _parse_sides(inner: str, number: int, source: str) -> Sides:
    parts = inner.split("|")
    if len(parts) != 2:
        raise StageError(source, number, f"terrain '[{inner}]' needs a left and a right side",
                         "write [left|right], e.g. [grass|forest]")

    def side(part: str) -> tuple[Terrain, ...]:
        names = [p.strip().lower() for p in part.split(",")]
        out = []
        for name in names:
            try:
                out.append(Terrain(name))
            except ValueError:
                raise StageError(source, number, f"unknown terrain '{name}'", f"use one of: {TERRAINS}") from None
        return tuple(out)

    return Sides(side(parts[0]), side(parts[1]))


def _int_arg(args: list[str], i: int, what: str, number: int, source: str, example: str) -> int:
    if i >= len(args) or not WHOLE.match(args[i]):
        raise StageError(source, number, f"{what} needs a number", f"e.g. {example}")
    return int(args[i])


def _check_note(value: int, what: str, number: int, source: str) -> int:
    if value not in NOTE_RANGE:
        raise StageError(source, number, f"{what} {value} is outside 1–5",
                         "a note is a gear: 1 (hairpin) to 5 (flat out)")
    return value


def _capacity(args: list[str], number: int, source: str) -> tuple[int, list[str]]:
    if "cap" not in args:
        return DEFAULT_CAPACITY, args
    i = args.index("cap")
    cap = _int_arg(args, i + 1, "cap", number, source, "straight 4 cap 2")
    if not 1 <= cap <= 4:
        raise StageError(source, number, f"capacity {cap} is outside 1–4", "cars side by side on one space: 1 to 4")
    return cap, args[:i] + args[i + 2:]


def _check_sides_length(sides: Sides, count: int, number: int, source: str) -> None:
    for name, values in (("left", sides.left), ("right", sides.right)):
        if len(values) not in (1, count):
            raise StageError(source, number, f"{len(values)} {name} terrains for {count} spaces",
                             "give one terrain for the whole section or one per space")


def _parse_straight(args, number, text, source, sides, clear) -> StraightNote:
    capacity, args = _capacity(args, number, source)
    count = _int_arg(args, 0, "a straight", number, source, "straight 4")
    if len(args) > 1:
        raise StageError(source, number, f"unexpected '{' '.join(args[1:])}' after straight {count}",
                         "write straight N [cap C] [left|right]")
    if not 1 <= count <= MAX_STRAIGHT:
        raise StageError(source, number, f"straight of {count} spaces",
                         f"a straight has 1 to {MAX_STRAIGHT} spaces; split longer ones")
    _check_sides_length(sides, count, number, source)
    return StraightNote(number, text, count, capacity, sides, clear)


def _parse_bump(args, number, text, source, sides, clear) -> BumpNote:
    capacity, args = _capacity(args, number, source)
    note = _check_note(_int_arg(args, 0, "a bump", number, source, "bump 3"), "bump note", number, source)
    if len(args) > 1:
        raise StageError(source, number, f"unexpected '{' '.join(args[1:])}' after bump {note}", "write bump N")
    _check_sides_length(sides, 1, number, source)
    return BumpNote(number, text, note, capacity, sides, clear)


def _parse_corner(direction, args, number, text, source, sides, clear) -> CornerNote:
    example = f"{direction} 3 skid 4x3 K4"
    m = _NOTE_COUNT.match(args[0]) if args else None
    if m is None:
        raise StageError(source, number, f"a {direction} corner needs its interior note", f"e.g. {example}")
    interior_note = _check_note(int(m.group(1)), "corner note", number, source)
    interior_count = int(m.group(2)) if m.group(2) else DEFAULT_INTERIOR_SPACES
    if not 1 <= interior_count <= 4:
        raise StageError(source, number, f"interior line of {interior_count} spaces",
                         "an interior line has 1 to 4 spaces")
    skid: tuple[int, ...] = ()
    shortcut_note: int | None = None
    shortcut_count = 0
    angle = DEFAULT_ANGLE[interior_note]
    i = 1
    while i < len(args):
        token = args[i]
        if token == "skid":
            if i + 1 >= len(args):
                raise StageError(source, number, "skid without a note", "e.g. skid 4x3 (note 4 on 3 spaces)")
            skid = _parse_skid(args[i + 1], number, source)
            i += 2
        elif k := _SHORTCUT.match(token):
            shortcut_note = _check_note(int(k.group(1)), "shortcut note", number, source)
            shortcut_count = int(k.group(2)) if k.group(2) else 1
            i += 1
        elif token == "turn":
            angle = float(_int_arg(args, i + 1, "turn", number, source, "turn 90"))
            if not 15 <= angle <= 180:
                raise StageError(source, number, f"turn {angle:g} degrees", "a corner turns 15 to 180 degrees")
            i += 2
        else:
            raise StageError(source, number, f"unexpected '{token}' in a corner",
                             f"a corner is: {direction} NOTE[xSPACES] [skid NOTExSPACES] [K NOTE] [turn DEGREES]")
    if shortcut_note is not None and shortcut_count >= interior_count:
        raise StageError(source, number,
                         f"the shortcut K{shortcut_note} skips nothing: it has {shortcut_count} space(s) and the "
                         f"interior line {interior_count}",
                         "a shortcut must be shorter than the interior line, "
                         f"e.g. {direction} {interior_note}x2 K{shortcut_note}")
    return CornerNote(number, text, direction, interior_note, interior_count, skid, shortcut_note,
                      shortcut_count, angle, sides, clear)


def _parse_skid(token: str, number: int, source: str) -> tuple[int, ...]:
    if "x" in token:
        note_text, _, count_text = token.partition("x")
        if not (WHOLE.match(note_text) and WHOLE.match(count_text)):
            raise StageError(source, number, f"bad skid '{token}'", "e.g. skid 4x3 or skid 4-4-3")
        note = _check_note(int(note_text), "skid note", number, source)
        count = int(count_text)
        if not 1 <= count <= 6:
            raise StageError(source, number, f"skid of {count} spaces", "a skid has 1 to 6 spaces")
        return (note,) * count
    if "-" in token:
        parts = token.split("-")
        if not all(WHOLE.match(p) for p in parts) or len(parts) > 6:
            raise StageError(source, number, f"bad skid '{token}'", "e.g. skid 4-4-3 (one note per space, up to 6)")
        return tuple(_check_note(int(p), "skid note", number, source) for p in parts)
    if WHOLE.match(token):
        raise StageError(source, number, f"skid {token} has no spaces",
                         f"write the note and the number of spaces, e.g. skid {token}x3, or one note per space, "
                         f"e.g. skid {token}-{token}-{token}")
    raise StageError(source, number, f"bad skid '{token}'", "e.g. skid 4x3 or skid 4-4-3")


def parse_legend(value: str, source: str, number: int) -> dict[Terrain, int]:
    """`grass 0, dirt 0, forest 1, ...`: black dice lost per terrain; all seven terrains required."""
    legend: dict[Terrain, int] = {}
    for part in value.split(","):
        words = part.split()
        if len(words) != 2 or not WHOLE.match(words[1]):
            raise StageError(source, number, f"bad legend entry '{part.strip()}'",
                             "write terrain and dice lost, e.g. forest 1")
        try:
            terrain = Terrain(words[0].lower())
        except ValueError:
            raise StageError(source, number, f"unknown terrain '{words[0]}'", f"use one of: {TERRAINS}") from None
        lost = int(words[1])
        if lost > 5:
            raise StageError(source, number, f"{terrain.value} {lost} loses more than 5 dice", "a car has 5 black dice")
        legend[terrain] = lost
    missing = [t.value for t in Terrain if t not in legend]
    if missing:
        raise StageError(source, number, f"the legend misses {', '.join(missing)}",
                         "give the dice lost for all seven terrains (RULES A12.1)")
    return legend
