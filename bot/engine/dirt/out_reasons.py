"""Why a DIRT car is out of the rally, in words (RULES B13.3–B13.5; a closed table: no message key is
built from a stored value, and a test checks every code has its text in every language)."""

from __future__ import annotations

from bot.engine.core.text import msg

REASON_KEYS: dict[str, str] = {
    "knocked_out": "dirt.out_knocked_out",  # a 4th damage token other than OK!, or no gear die left (B13.4)
    "overspeed": "dirt.out_overspeed",      # entered a space 3 or more gears above its limit (B13.3)
    "jump": "dirt.out_jump",                # took a jump 2 or more gears above its gear (B13.5)
    "damage": "dirt.out_damage",            # knocked out by damage before the next stage (B13.8.9)
    "retired": "dirt.out_retired",          # left the rally, or missed too many turns
}


def out_reason_word(code: str) -> str:
    """The reason in words; an unknown code (a newer engine's) reads as retired."""
    return msg(REASON_KEYS.get(code, "dirt.out_retired"))
