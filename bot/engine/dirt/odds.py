"""Exact odds of losing control before rolling (RULES B13.1, issue 24 item 3).

A DIRT car loses control when the ⚠ shown this turn reach the limit of its dashboard column
(B13.1). Every die shows ⚠ independently with the chance its ⚠ faces give (gear + brake dice each
count their own face), so the number of ⚠ a group adds has an exact distribution, built die by
die (a small dynamic programme over the count, in fractions: no sampling, no rounding). A planned
group is resolved along the plan and stops at the step that reaches the limit, so its chance of a
loss of control is the chance that its dice add enough ⚠, split by the step where it happens.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.engine.dirt.dice import DICE, Die, hazard_chance
from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.ruleset import DirtRuleset


@dataclass(frozen=True)
class DirtOdds:
    """The chance of a loss of control for a plan, and the share of it at each step."""

    total: Fraction
    by_step: tuple[Fraction, ...]


def plan_odds(rules: DirtRuleset, limit: int, shown: int, plan: Sequence[Step]) -> DirtOdds:
    """Chance that rolling `plan` step by step makes the ⚠ of the turn reach `limit`, when
    `shown` ⚠ are already out this turn (a loss of control already happened at `shown ≥ limit`)."""
    if shown >= limit:
        return DirtOdds(Fraction(1), tuple(Fraction(0) for _ in plan))
    # alive[h]: chance of having added h more ⚠ so far without reaching the limit
    alive = [Fraction(0)] * (limit - shown)
    alive[0] = Fraction(1)
    by_step: list[Fraction] = []
    for step in plan:
        before = sum(alive, Fraction(0))
        for die in step.dice():
            alive = _add_die(alive, hazard_chance(rules, _die(die)))
        by_step.append(before - sum(alive, Fraction(0)))
    return DirtOdds(sum(by_step, Fraction(0)), tuple(by_step))


def _add_die(alive: list[Fraction], p: Fraction) -> list[Fraction]:
    """The counts after one more die; the mass that reaches the limit falls out of the list."""
    out = [Fraction(0)] * len(alive)
    for h, mass in enumerate(alive):
        if mass:
            out[h] += mass * (1 - p)
            if h + 1 < len(alive):
                out[h + 1] += mass * p
    return out


def _die(die: str) -> Die:
    for known in DICE:
        if known == die:
            return known
    raise ValueError(f"'{die}' is not a DIRT die")


def next_die_odds(rules: DirtRuleset, limit: int, shown: int, step: Step) -> Fraction:
    """Chance that the next step (one die, or a gear die with its brake dice) loses control."""
    return plan_odds(rules, limit, shown, (step,)).total
