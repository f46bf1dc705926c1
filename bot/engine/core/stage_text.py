"""What every game's stage file format shares: a note (one line of a stage file, with its number,
so every error names the line), the start and finish lines, and the header field `name: value`.
Each game's format (classic: bot/engine/rallyman/stages/format.py) adds its own notes."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bot.engine.core.errors import StageError

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


def read_stage_file(path: Path, source: str | None = None) -> str:
    """The text of a stage or zone file, UTF-8. A file that cannot be read, or is not UTF-8 text,
    is refused naming it (`source`, default the path) and where its first bad byte is: one broken
    file is reported, never a traceback, and the rest of a library still lists."""
    shown = source if source is not None else str(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StageError(shown, None, f"cannot read the file ({exc.strerror})", "check the path") from None
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise StageError(shown, line, f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x})",
                         "save the file as UTF-8") from None
