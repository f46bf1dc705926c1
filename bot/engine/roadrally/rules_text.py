"""`/rules` for Road Rally USA (RULES Part C): a summary citing the C ids, every number read from
the preset file (`bot.engine.roadrally.presets`), never written here, so the text follows the data.
The house's defaults (OPEN-R1..R3, AMB-R1..R3, C10) are named where they apply."""

from __future__ import annotations

from bot.engine.core.text import Listed, msg
from bot.engine.roadrally.presets import COLOURS, PLAYER_COUNTS, preset
from bot.engine.roadrally.words import CARD_MARK

#: each preset's name, in words (a closed table: `PRESETS`)
PRESET_WORDS = {"rr-base": "roadrally.rules.preset_base", "rr-standard": "roadrally.rules.preset_standard",
                "rr-demo-fr": "roadrally.rules.preset_demo_fr"}


def _mix(colour: str, mix: tuple[tuple[int, int], ...]) -> str:
    """`🟩 5×1 + 4×2`: how many cards of each value a colour has."""
    return f"{CARD_MARK[colour]} " + " + ".join(f"{count}×{value}" for value, count in mix)


def _per_count(table: dict[str, int]) -> str:
    return Listed([msg("roadrally.rules.for_players", players=n, value=table[n]) for n in PLAYER_COUNTS], "comma")


def _points(table: tuple[tuple[int, bool], ...], cards: int) -> str:
    return Listed([msg("roadrally.rules.or_cards", points=points, cards=cards) if or_cards else str(points)
                   for points, or_cards in table], "dot")


def rules_lines(preset_name: str) -> list[str]:
    """The summary of `preset_name` (a DataError naming the presets there are for an unknown one)."""
    p = preset(preset_name)
    draws = Listed([f"{CARD_MARK[c]} {p.draws[c]}" for c in COLOURS], "comma")
    lines = [
        msg("roadrally.rules.head", preset=msg(PRESET_WORDS[p.name]), name=p.name),
        msg("roadrally.rules.cards", mix=Listed([_mix(c, p.cards[c]) for c in COLOURS], "comma"),
            total=len(p.deck()), hand=p.hand_size),
        msg("roadrally.rules.setup_mixed" if p.stage_deal == "mixed" else "roadrally.rules.setup_halves",
            stages=_per_count(p.stage_cards)),
        msg("roadrally.rules.turn", draws=draws),
        msg("roadrally.rules.empty_optional" if p.empty_hand_reshuffle == "optional"
            else "roadrally.rules.empty_compulsory", n=p.empty_hand_draw),
        msg("roadrally.rules.checkpoint_pass" if p.checkpoint == "pass" else "roadrally.rules.checkpoint_end",
            vp=p.checkpoint_vp, n=p.checkpoint_draw),
        msg("roadrally.rules.gas_choose" if p.gas_draw == "choose" else "roadrally.rules.gas_then_draw"),
        msg("roadrally.rules.shortcut"),
        msg("roadrally.rules.store", max=p.store_max, n=p.store_draw),
        msg("roadrally.rules.mechanic", n=p.mechanic_look),
        msg("roadrally.rules.stages"),
    ]
    lines += [msg("roadrally.rules.points_row", players=n, points=_points(p.points[n], p.choice_cards))
              for n in PLAYER_COUNTS]
    lines.append(msg("roadrally.rules.scoring", tile_vp=p.tile_vp))
    lines.append(msg("roadrally.rules.limits_round" if p.round_limit is not None else "roadrally.rules.limits",
                     cards=_per_count(p.card_limit), round=p.round_limit or 0))
    lines += [
        msg("roadrally.rules.finish", tile_vp=p.tile_vp, checkpoint_vp=p.checkpoint_vp),
        msg("roadrally.rules.sprint", first=p.sprint.first_stage, cards=p.sprint.stage_cards,
            limit=p.sprint.card_limit),
        msg("roadrally.rules.timeout", reshuffle=msg("roadrally.rules.timeout_reshuffle" if p.timeout_reshuffles
                                                     else "roadrally.rules.timeout_keep"),
            choice=msg("roadrally.rules.timeout_vp" if p.timeout_choice == "vp" else "roadrally.rules.timeout_cards")),
        msg("roadrally.rules.defaults"),
    ]
    return lines
