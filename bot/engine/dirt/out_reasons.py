"""Why a DIRT car is out of the rally, in words (RULES B13.3–B13.5): the engine's reason codes
through the narration's closed table (no message key is built from a stored value)."""

from __future__ import annotations

from bot.engine.core.text import msg
from bot.engine.dirt.narrate import REASON_WORDS

#: every reason code the engine writes (`Car.reason`, `SeatResult.reason`)
OUT_REASONS: tuple[str, ...] = tuple(REASON_WORDS)


def out_reason_word(code: str) -> str:
    """The reason in words; an unknown code (a newer engine's) reads as retired."""
    return msg(REASON_WORDS.get(code, "dirt.reason_retired"))
