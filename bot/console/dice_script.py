"""`--dice FILE`: the console's scripted dice, read from a file.

The script covers every draw a game makes during a turn: die faces (`.` plain, `!` ⚠), and named
draws in the order they are made: classic's loss-of-control events (A11.2) and DIRT's damage
tokens (B10, B13.4), by the names the rulesets give them. A word that is neither is refused with
the list of what is allowed.
"""

from __future__ import annotations

from pathlib import Path

from bot.console.errors import ConsoleError
from bot.i18n import t

#: every named draw a script may hold: classic's loss-of-control events (its ruleset's
#: `loc_events`), then DIRT's damage tokens (its `DAMAGE_TOKENS`); a test keeps both in step
NAMED_DRAWS: tuple[str, ...] = ("spin", "off_left", "off_right", "ok", "coast", "minus_one", "brake")


def load_dice_script(path: Path) -> dict:
    """`--dice FILE`: faces in order (`.` plain, `!` ⚠) and named draws (`NAMED_DRAWS`) in order."""
    faces: list[bool] = []
    events: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        for word in line.split("#", 1)[0].split():
            if word in (".", "!"):
                faces.append(word == "!")
            elif word in NAMED_DRAWS:
                events.append(word)
            else:
                raise ConsoleError(t("console.dice_file", path=str(path), word=word, names=", ".join(NAMED_DRAWS)))
    return {"faces": faces, "events": events}
