"""What a DIRT driver (or the rally itself) can do: roll the next step, roll a time attack, stop,
use the spare tire; a retirement or a deadline (RULES B13.1, B13.6).

A `Roll` names its step (a gear die with its brake dice, a coast or a leader die, `Step`) and where
it goes (`to`: "" keeps the lane, "left"/"right" the target's lane, "slide" a slide half, "cut" a
shortcut space); a step that flies off a jump may name where it lands (`land`: "left"/"right",
B11, B13.5; "" lands straight on when free, else on the free diagonal).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.stages.model import DIRECTIONS

__all__ = ["DIRECTIONS", "LANDINGS", "Action", "Attack", "Retire", "Roll", "Spare", "Step", "Stop", "Timeout"]


#: the words a jump's landing may be named by (the landing space's lane, B11)
LANDINGS = ("left", "right")


@dataclass(frozen=True)
class Roll:
    step: Step
    to: str = ""
    land: str = ""


@dataclass(frozen=True)
class Attack:
    """A time attack: a planned group of steps rolled at once (B13.1, B13.8.7)."""

    steps: tuple[tuple[Step, str], ...]


@dataclass(frozen=True)
class Stop:
    pass


@dataclass(frozen=True)
class Spare:
    """Use the spare tire card at the start of a turn (A14.1 transposed, B13.6)."""


@dataclass(frozen=True)
class Retire:
    seat: str


@dataclass(frozen=True)
class Timeout:
    pass


Action = Roll | Attack | Stop | Spare | Retire | Timeout
