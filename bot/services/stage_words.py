"""A stage's size and difficulty in words (messages): its length class and length, its size alone,
its stars. Shared by `/stage` (bot.services.stage_library), the lobby, a round's title and a
preview's description (bot.services.alt_text)."""

from __future__ import annotations

from bot.engine.core.game import StageFacts
from bot.engine.core.text import msg

#: a length class as words (`StageFacts.length_class`)
LENGTH_CLASS = {"short": "stages.class_short", "medium": "stages.class_medium", "long": "stages.class_long"}
#: a length as words, by the unit the game counts in (`StageFacts.unit`)
LENGTH_UNIT = {"spaces": "stages.length_spaces", "tiles": "stages.length_tiles"}
MAX_STARS = 5


def stars(difficulty: int) -> str:
    """★★★☆☆ for 3 (of 5)."""
    return "★" * difficulty + "☆" * (MAX_STARS - difficulty)


#: a stage's size alone, by its unit (a lobby post, a round's title)
SIZE_UNIT = {"spaces": "stages.size_spaces", "tiles": "stages.size_tiles"}


def size_text(facts: StageFacts) -> str:
    """`19 spaces` (classic) / `10 tiles` (DIRT), as a message."""
    return msg(SIZE_UNIT[facts.unit], n=facts.length)


def length_text(facts: StageFacts) -> str:
    """`medium, 34 spaces` / `short, 10 tiles`, as a message."""
    return msg(LENGTH_UNIT[facts.unit], length_class=msg(LENGTH_CLASS[facts.length_class]), length=facts.length)
