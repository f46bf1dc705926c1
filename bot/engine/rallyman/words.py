"""The words the engine puts into its messages, as messages: dice, gears, places, lists.

The engine never writes "white", "3rd" or "skid of corner 2" in English: it names them with
message keys (`word.white`, `gear.3`, `space.corner_line`) so each reader sees their language
(RULES Part D gives the game terms). Pure: `bot.engine.core.text` only.
"""

from __future__ import annotations

from bot.engine.core.text import Listed, msg

HAZARD_WHITE = "W!"  # a white die showing ⚠ in a time attack's order (A18.3)


def die_word(die: str) -> str:
    """A die as a word: `3`, `white` (a white die), `white⚠`."""
    if die == "W":
        return msg("word.white")
    if die == HAZARD_WHITE:
        return msg("word.white_hazard")
    return die


def die_noun(die: str) -> str:
    """A die as a noun: `3`, `white die`."""
    return msg("word.white_die") if die == "W" else die


def dice_words(dice: tuple[str, ...] | list[str]) -> str:
    """Dice one after the other: `3 white 4`."""
    return Listed([die_word(d) for d in dice], "space")


def allowed_words(allowed: list[str]) -> str:
    """What may be rolled: `2, 3 or white`; `nothing`."""
    if not allowed:
        return msg("word.nothing")
    return Listed([die_word(d) for d in allowed], "either")


def gear_name(gear: int) -> str:
    """`neutral`, `1st` … `5th` (and beyond for other rulesets)."""
    return msg(f"gear.{gear}") if 0 <= gear <= 6 else msg("gear.other", n=gear)


def ordinal(n: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th` … (a die's place in a roll)."""
    return msg(f"ordinal.{n}") if 1 <= n <= 3 else msg("ordinal.other", n=n)


