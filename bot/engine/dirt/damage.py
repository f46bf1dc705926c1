"""Damage tokens (RULES B10, B13.3, B13.4, B13.8.4, B13.8.8): drawing from the bag, the shortcut side
and the damage side, and the knock-out they can bring.

Every drawn token goes on the dashboard except a "−1" drawn on a shortcut, which goes on the tile
(its corner limits drop for the other drivers, B10). On the damage side a "−1" token takes the
highest gear die (B13.4). A brake-die token drawn on a shortcut has no shortcut side in the known
pages: it goes on the dashboard like a coast-die token (−1 brake die from the next turn).
"""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.dirt.dice_rules import dice_left
from bot.engine.dirt.events import ev
from bot.engine.dirt.ruleset import DAMAGE_TOKENS
from bot.engine.dirt.state import DirtState


def draw(state: DirtState) -> str | None:
    """One token from the bag, or None when it is empty (B13.8.8). The draw runs over the kinds in
    `DAMAGE_TOKENS`' fixed order, never the bag dict's own: a state read back from a snapshot
    (whose keys are sorted) draws the very token the state that was saved would have."""
    weights = {kind: state.bag[kind] for kind in DAMAGE_TOKENS if state.bag[kind] > 0}
    if not weights:
        return None
    kind = state.dice.pick("dirt:bag", weights)
    state.bag[kind] -= 1
    return kind


def wrecked(state: DirtState, seat: str) -> bool:
    """A 4th token other than OK!, or no gear die left to use: knocked out (B13.4)."""
    car = state.cars[seat]
    if car.damage() >= state.rules.knockout_damage_tokens:
        return True
    left = dice_left(state.rules, leading=False, coast_tokens=car.tokens["coast"], brake_tokens=car.tokens["brake"],
                     minus_one_tokens=car.tokens["minus_one"])
    return not left.gears


def shortcut_token(state: DirtState, seat: str, tile: int, events: list[Event]) -> None:
    """B10: entering a shortcut draws one token and applies its shortcut side."""
    kind = draw(state)
    if kind is None:
        events.append(ev("dirt_bag_empty", seat))
        return
    if kind == "minus_one":
        state.minus.setdefault(tile, []).append(seat)
        events.append(ev("dirt_minus_one", seat, tile=tile))
        return
    state.cars[seat].tokens[kind] += 1
    if kind != "ok":
        state.fresh[kind] += 1  # in effect from the start of the driver's next turn (B10)
    events.append(ev("dirt_shortcut", seat, token=kind))


def damage_token(state: DirtState, seat: str, events: list[Event]) -> None:
    """B13.3: a loss of control draws one token and applies its damage side (OK!: none)."""
    kind = draw(state)
    if kind is None:
        events.append(ev("dirt_bag_empty", seat))
        return
    state.cars[seat].tokens[kind] += 1
    events.append(ev("dirt_damage", seat, token=kind))
