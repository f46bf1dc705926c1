"""What an odds computation works with and returns: one die's risk (`Step`) and the result (`Odds`).

Shared by the odds of a plan of dice (bot/engine/rallyman/odds.py) and of a time-attack group
(bot/engine/rallyman/attack.py), so neither needs the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core.text import msg


@dataclass(frozen=True)
class Step:
    die: str
    hazard_p: float  # chance this die shows ⚠
    certain: str  # "" | "loc" (over-speed, bump N+2) | "ko"
    bump_risk: bool  # bump at N+1: ⚠ on this die is a loss of control
    snow: bool  # the die moves the car onto snow


@dataclass(frozen=True)
class Odds:
    loss_of_control: float  # chance the plan ends in a loss of control or knock-out
    knocked_out: float
    steps: tuple[Step, ...]

    @property
    def percent(self) -> str:
        """`12.5%` (`12,5 %` in French): a message, its number in the reader's way."""
        return msg("number.percent", value=round(self.loss_of_control * 100, 1))
