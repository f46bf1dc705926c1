"""`--dice FILE`: the console's scripted dice, read from a file."""

from __future__ import annotations

from pathlib import Path

from bot.console.errors import ConsoleError
from bot.i18n import t


def load_dice_script(path: Path) -> dict:
    """`--dice FILE`: faces in order (`.` plain, `!` ⚠) and loss-of-control events by name."""
    faces: list[bool] = []
    events: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        for word in line.split("#", 1)[0].split():
            if word in (".", "!"):
                faces.append(word == "!")
            elif word in ("spin", "off_left", "off_right"):
                events.append(word)
            else:
                raise ConsoleError(t("console.dice_file", path=str(path), word=word))
    return {"faces": faces, "events": events}
