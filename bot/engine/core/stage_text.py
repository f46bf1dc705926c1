"""What every game's stage file format shares: a note (one line of a stage file, with its number,
so every error names the line), the start and finish lines, and the header field `name: value`.
Each game's format (classic: bot/engine/rallyman/stages/format.py) adds its own notes."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: a header field line, `title: Pinewood Sprint` (the name in lower case)
HEADER = re.compile(r"^([a-z][a-z ]*[a-z]):\s*(.*)$")
#: a whole number as written in a stage file
WHOLE = re.compile(r"^\d+$")


@dataclass(frozen=True)
class Note:
    """One line of a stage file after its header: its number and its text."""

    line: int
    text: str


@dataclass(frozen=True)
class StartNote(Note):
    pass


@dataclass(frozen=True)
class FinishNote(Note):
    pass
