"""What every game's stage file format shares: a note (one line of a stage file, with its number,
so every error names the line), the start and finish lines, and the header field `name: value`.
Each game's format (classic: bot/engine/rallyman/stages/format.py) adds its own notes; every
game's file is read line by line by `stage_lines`."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
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


def stage_lines(text: str, source: str, fields: Collection[str]) -> Iterator[tuple[int, str | None, str]]:
    """The lines of a stage file that hold something (what follows `#` is a comment; blank lines
    are skipped), numbered from 1, in order: `(number, name, value)` for a header field
    (`name: value`, before the first note; a name not in `fields` is refused), `(number, None,
    line)` for a note. Lazy, so the first error in the file is the one raised."""
    in_notes = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        field = HEADER.match(line.lower()) if not in_notes else None
        if field is None:
            in_notes = True
            yield number, None, line
            continue
        key = field.group(1)
        if key not in fields:
            raise StageError(source, number, f"unknown field '{key}'", f"fields here are: {', '.join(sorted(fields))}")
        yield number, key, line.split(":", 1)[1].strip()
