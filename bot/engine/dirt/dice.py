"""DIRT's dice (RULES B6): black gear dice 1–6, white coast dice, orange leader dice, red brake
dice, and rolling one through the engine's only randomness, a `DiceSource`.

A die is named by a short id: the gear dice "1"…"6", then "coast", "leader", "brake". How many
of a die's faces show ⚠ is the ruleset's (B13.1), never a constant here.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Literal, Protocol, get_args

from bot.engine.core.dice import DiceSource

Die = Literal["1", "2", "3", "4", "5", "6", "coast", "leader", "brake"]
DICE: tuple[Die, ...] = get_args(Die)
GEAR_DICE: tuple[Die, ...] = ("1", "2", "3", "4", "5", "6")
COAST: Die = "coast"
LEADER: Die = "leader"
BRAKE: Die = "brake"
#: each die kind's stream of a `DiceSource` (`dirt:<die>`), named once
STREAMS: dict[str, str] = {die: f"dirt:{die}" for die in DICE}


class Faces(Protocol):
    """What rolling needs of a ruleset (`DirtRuleset` is one): the faces of a die and how many of
    them show ⚠ per die kind. A protocol, so the ruleset may import the die kinds from here."""

    @property
    def faces(self) -> int: ...

    @property
    def hazard_faces(self) -> Mapping[str, int]: ...


def is_gear_die(die: str) -> bool:
    """A black gear die (B6.2), whose number is the gear it puts the car in."""
    return die in GEAR_DICE


def gear_die(gear: int) -> Die:
    """The black die of `gear` (1–6)."""
    if not 1 <= gear <= 6:
        raise ValueError(f"there is no gear die {gear} (gear dice are 1-6)")
    return GEAR_DICE[gear - 1]


def hazard_chance(rules: Faces, die: Die) -> Fraction:
    """The exact chance that `die` shows ⚠ (B13.1: its ⚠ faces of the ruleset's faces)."""
    return Fraction(rules.hazard_faces[die], rules.faces)


def roll(source: DiceSource, rules: Faces, die: Die) -> bool:
    """Roll one die; True when it shows ⚠. Each kind rolls from its own stream (`dirt:<die>`),
    so with stream dice what a brake die shows never depends on how many coast dice were rolled."""
    return source.roll(STREAMS[die], rules.faces, rules.hazard_faces[die])
