"""How a classic action is offered as a turn button (`Game.commands.button`): its words in the reader's
language and its colour. The button's action stays the canonical label (`4 skid`, `W`, `stop`);
only what is shown on it is translated. Time-attack groups are typed (`/attack`), never buttons:
there are too many (A18)."""

from __future__ import annotations

from bot.engine.core.game import Button
from bot.engine.core.text import Listed, msg
from bot.engine.rallyman.actions import LINES
from bot.engine.rallyman.words import HAZARD_WHITE, die_word

#: Closed tables, action or line → catalogue key (no key is built from a value).
BUTTON_WORDS = {"stop": "discord.button_stop", "spare": "discord.button_spare"}
LINE_WORDS = {"interior": "word.interior", "skid": "word.skid", "shortcut": "word.shortcut"}


def button(label: str) -> Button | None:
    """`W` → `white`, `4 skid` → `4 · skid` (green: it picks a trajectory), `stop` (red), `spare`
    and white dice (grey), gear dice (blue); a time-attack group → None (no button)."""
    words = label.split()
    if not words or words[0] == "attack":
        return None
    if label in BUTTON_WORDS:
        return Button(msg(BUTTON_WORDS[label]), "danger" if label == "stop" else "secondary")
    text = Listed(_reader_words(words), "dot")
    if words[0] == "W":
        return Button(text, "secondary")
    if any(w in LINES for w in words):
        return Button(text, "success")
    return Button(text, "primary")


def _reader_words(words: list[str]) -> list[str]:
    """A label's words in the reader's language (`W` → `gaz`, `skid` → `Driften`), each a word
    `parse` reads in every language (RULES D1)."""
    return [die_word(w) if w in ("W", HAZARD_WHITE) else msg(LINE_WORDS[w]) if w in LINE_WORDS else w
            for w in words]


def reader_words(label: str) -> str:
    """A label as the reader types it: `4 dérapage`, `gaz`; English keeps `W` (see `shown`)."""
    return Listed([msg("turn.typed_white") if w == "W" else reader for w, reader in
                   zip(label.split(), _reader_words(label.split()), strict=True)], "space")


def shown(label: str) -> str:
    """A move as a line names it for typing, in backquotes and the reader's words: `4 skid` reads
    `4 dérapage` in French, `4 Driften` in German, `W` reads `gaz` and `gas`."""
    return msg("turn.move", move=reader_words(label))
