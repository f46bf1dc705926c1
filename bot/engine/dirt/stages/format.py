"""The DIRT stage text format: one hex tile per line, as an organiser lays them out (RULES B2, B13.7).

A stage file is a few header fields, then the tiles in driving order, with the start and finish
lines between them. `#` starts a comment. Example (a 10-tile short stage, B2)::

    title: Dusty Pines
    surface: gravel               # optional; the core box is gravel only (B6.1)
    straight                      # the grid: cars wait here, behind the start line (B5)
    start
    straight
    left 3/5                      # a corner: inside limit 3, outside limit 5 (B8)
    straight slide 1              # its first row is a slide pair (B9), next to the corner
    straight
    right sharp 2/4 shortcut 2    # a sharp corner with a shortcut limited to 2 (B10)
    straight jump 4               # its last row jumps at gear 4 (B11)
    straight narrow               # a one-lane point (B7)
    straight limit 4              # a speed limit on a straight (B8)
    finish
    straight                      # run-off beyond the finish line

Tiles (each a hex of two lanes, left lane 0 and right lane 1, looking forward):

- `straight [narrow] [limit N] [slide ROW] [jump GEAR]`: 3 spaces per lane (one lane if `narrow`).
  `slide ROW` makes row 1 or 3 (the row next to a corner) a slide pair; `jump GEAR` puts the jump
  symbol on the tile's last row.
- `left IN/OUT` or `right IN/OUT`, optionally `sharp`: a corner turning 60° (120° if sharp), its
  inside lane 2 spaces limited to IN, its outside lane 3 (4 if sharp) limited to OUT, IN ≤ OUT.
  `shortcut N` adds a shortcut space inside the corner, limited to N, entered from the tile before
  and left to the tile after (neither may be a corner, B10).
- `start` and `finish`: the start and finish lines, between two tiles.

Numbers (limits, gears) are 1 to 6. `water` and `obstacle` are known words refused while the
provisional ruleset has no rule for them (B13.6). This module only turns text into typed notes
with their line numbers; `build` lays them out and `validate` checks the graph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from bot.engine.core.errors import StageError
from bot.engine.core.stage_text import WHOLE, FinishNote, Note, StartNote, stage_lines

HEADER_FIELDS = frozenset({"title", "surface"})
SURFACES = ("gravel",)
GEARS = range(1, 7)
STRAIGHT_ROWS = 3
MAX_TILES = 31  # the core box holds 31 track tiles (B1)
UNRULED = frozenset({"water", "obstacle", "obstacles", "asphalt", "snow"})

_LIMITS = re.compile(r"^(\d+)/(\d+)$")


@dataclass(frozen=True)
class TileNote(Note):
    """One hex tile: a straight or a corner, with its options."""

    kind: Literal["straight", "left", "right"]
    narrow: bool = False
    sharp: bool = False
    limit: int | None = None  # a straight's speed limit (B8: limits may appear off corners)
    inside: int | None = None  # a corner's inside-lane limit
    outside: int | None = None  # a corner's outside-lane limit
    shortcut: int | None = None  # a corner's shortcut limit (B10)
    slide_row: int | None = None  # 0-based row of a straight's slide pair (B9)
    jump: int | None = None  # a straight's jump gear (B11), on its last row


@dataclass(frozen=True)
class ParsedStage:
    source: str
    header: dict[str, tuple[str, int]]
    notes: tuple[Note, ...]


def parse_text(text: str, source: str) -> ParsedStage:
    """Header fields and notes of a stage file; every error names the file, the line and the reason."""
    header: dict[str, tuple[str, int]] = {}
    notes: list[Note] = []
    for number, key, value in stage_lines(text, source, HEADER_FIELDS):
        if key is None:
            notes.append(_parse_note(value, number, source))
            continue
        if key == "surface" and value.lower() not in SURFACES:
            raise StageError(source, number, f"surface '{value}' has no rule yet",
                             "DIRT stages are gravel for now (B6.1, B13.6)")
        header[key] = (value, number)
    return ParsedStage(source, header, tuple(notes))


def _parse_note(line: str, number: int, source: str) -> Note:
    words = line.lower().split()
    word, args = words[0], words[1:]
    if word in ("start", "finish"):
        if args:
            raise StageError(source, number, f"unexpected '{' '.join(args)}' after {word}",
                             f"`{word}` is a line of its own")
        return StartNote(number, line) if word == "start" else FinishNote(number, line)
    if word == "straight":
        return _parse_straight(args, number, line, source)
    if word == "left":
        return _parse_corner("left", args, number, line, source)
    if word == "right":
        return _parse_corner("right", args, number, line, source)
    _refuse_unruled(word, number, source)
    raise StageError(source, number, f"unknown word '{word}'", "a line is one of: straight, left, right, start, finish")


def _refuse_unruled(word: str, number: int, source: str) -> None:
    if word in UNRULED:
        raise StageError(source, number, f"'{word}' has no rule yet", "the provisional rules leave it out (B13.6)")


def _number(args: list[str], i: int, tile: str, number: int, source: str, sample: int,
            allowed: range = GEARS) -> int:
    """The number after the option word `args[i - 1]`; the hint shows it on a `tile` line."""
    word = args[i - 1]
    if i >= len(args) or not WHOLE.match(args[i]):
        raise StageError(source, number, f"{word} needs a number", f"e.g. {tile} {word} {sample}")
    value = int(args[i])
    if value not in allowed:
        raise StageError(source, number, f"{word} {value} is outside {allowed.start}–{allowed.stop - 1}",
                         f"e.g. {tile} {word} {sample}")
    return value


def _parse_straight(args: list[str], number: int, text: str, source: str) -> TileNote:
    narrow = False
    limit = slide = jump = None
    i = 0
    while i < len(args):
        word = args[i]
        if word == "narrow":
            narrow, i = True, i + 1
        elif word == "limit":
            limit, i = _number(args, i + 1, "straight", number, source, 4), i + 2
        elif word == "jump":
            jump, i = _number(args, i + 1, "straight", number, source, 4), i + 2
        elif word == "slide":
            row = _number(args, i + 1, "straight", number, source, 1, range(1, STRAIGHT_ROWS + 1))
            if row not in (1, STRAIGHT_ROWS):
                raise StageError(source, number, f"slide row {row} touches no corner",
                                 f"a slide pair is a straight's first or last row: slide 1 or {STRAIGHT_ROWS}")
            slide, i = row - 1, i + 2
        else:
            _refuse_unruled(word, number, source)
            raise StageError(source, number, f"unknown word '{word}'",
                             "write straight [narrow] [limit N] [slide ROW] [jump GEAR]")
    if narrow and slide is not None:
        raise StageError(source, number, "a slide pair on a one-lane tile",
                         "a slide spans two lanes (B9): drop `narrow` or `slide`")
    return TileNote(number, text, "straight", narrow=narrow, limit=limit, slide_row=slide, jump=jump)


def _parse_corner(direction: Literal["left", "right"], args: list[str], number: int, text: str,
                  source: str) -> TileNote:
    example = f"{direction} 3/5"
    sharp = bool(args) and args[0] == "sharp"
    if sharp:
        args = args[1:]
    limits = _LIMITS.match(args[0]) if args else None
    if limits is None:
        raise StageError(source, number, f"a {direction} corner needs its limits, inside/outside",
                         f"e.g. {example}")
    inside, outside = int(limits.group(1)), int(limits.group(2))
    for side, value in (("inside", inside), ("outside", outside)):
        if value not in GEARS:
            raise StageError(source, number, f"{side} limit {value} is outside 1–6", f"e.g. {example}")
    if inside > outside:
        raise StageError(source, number, f"inside limit {inside} above the outside limit {outside}",
                         "the inside lane is the slower one (B8): swap them")
    shortcut = None
    i = 1
    while i < len(args):
        if args[i] == "shortcut":
            shortcut, i = _number(args, i + 1, example, number, source, 2), i + 2
        else:
            _refuse_unruled(args[i], number, source)
            raise StageError(source, number, f"unknown word '{args[i]}'",
                             f"write {direction} [sharp] IN/OUT [shortcut N]")
    return TileNote(number, text, direction, sharp=sharp, inside=inside, outside=outside, shortcut=shortcut)
