"""Exact odds of losing control before rolling (RULES B13.1).

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
    faces = rules.faces
    # alive[h]: how many of the `scale` equally likely face patterns so far add h more ⚠ without
    # reaching the limit (whole numbers: exact and quick; fractions only for the answer)
    alive = [0] * (limit - shown)
    alive[0] = scale = 1
    by_step: list[Fraction] = []
    for step in plan:
        before = sum(alive)
        dice = step.dice()
        for die in dice:
            alive = _add_die(alive, faces, rules.hazard_faces[die])
        grown = faces ** len(dice)
        scale *= grown
        by_step.append(Fraction(before * grown - sum(alive), scale))
    return DirtOdds(sum(by_step, Fraction(0)), tuple(by_step))


def _add_die(alive: list[int], faces: int, hazards: int) -> list[int]:
    """The counts after one more die of `faces` faces, `hazards` of them ⚠; the patterns that
    reach the limit fall out of the list."""
    out = [0] * len(alive)
    clean = faces - hazards
    last = len(alive) - 1
    for h, count in enumerate(alive):
        if count:
            out[h] += count * clean
            if h < last:
                out[h + 1] += count * hazards
    return out


def next_die_odds(rules: DirtRuleset, limit: int, shown: int, step: Step) -> Fraction:
    """Chance that the next step (one die, or a gear die with its brake dice) loses control."""
    return plan_odds(rules, limit, shown, (step,)).total
