"""`/rules` for Rallyman: DIRT: its rules summary as message keys.

DIRT's rulebook is known only in part (RULES Part B), so its ruleset fills each gap with a labelled
house default (B13). The summary says so first ("provisional rules" when the ruleset file says it
is), then gives one line per B13 default with its OPEN ids, every number read from the ruleset file
(`bot.engine.dirt.ruleset`), never written here: when the real values replace the defaults, this
text follows.
"""

from __future__ import annotations

from bot.engine.core.text import msg
from bot.engine.dirt.dice import GEAR_DICE
from bot.engine.dirt.ruleset import load_ruleset


def rules_lines(ruleset: str) -> list[str]:
    """The summary of `ruleset` (a DataError naming the rulesets there are for an unknown one)."""
    rules = load_ruleset(ruleset)
    gravel = rules.dashboard.gravel
    cards = ", ".join(f"{gear} = {rules.time_card_seconds[gear]} s" for gear in GEAR_DICE)
    bag = rules.damage_bag
    return [
        msg("dirt.rules.head_provisional" if rules.provisional else "dirt.rules.head", ruleset=rules.name),
        msg("dirt.rules.turn", min=rules.attack_min_dice, seconds=rules.attack_seconds_per_die,
            limit=gravel.hazard_limit),
        msg("dirt.rules.time_cards", cards=cards, zero=rules.zero_side_seconds),
        msg("dirt.rules.loss", over=rules.overspeed_knockout_over),
        msg("dirt.rules.damage", total=sum(bag.values()), ok=bag["ok"], coast=bag["coast"],
            minus_one=bag["minus_one"], brake=bag["brake"], knockout=rules.knockout_damage_tokens),
        msg("dirt.rules.jumps", over=rules.jump_knockout_over),
        msg("dirt.rules.rest"),
        msg("dirt.rules.more_all_but_drawer" if rules.minus_one_affects == "all_but_drawer"
            else "dirt.rules.more_behind"),
        msg("dirt.rules.source"),
    ]

