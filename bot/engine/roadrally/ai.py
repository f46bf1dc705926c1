"""A simple Road Rally USA driver that decides from its own seat's view only (RULES C10.8): it never
sees the state, so it cannot use another seat's hand or stage cards."""

from __future__ import annotations

from bot.engine.roadrally.actions import Action, Choose, Order, Play, Reshuffle, StageAnswer
from bot.engine.roadrally.road import SpaceKind
from bot.engine.roadrally.view import RRView


def choose(v: RRView) -> Action:
    """The AI's action for the seat of `v` (which must be one of `v.to_act`)."""
    me = v.me
    assert me is not None and v.seat is not None
    if v.phase == "stage":
        assert v.window is not None
        return StageAnswer(v.window, v.window in me.stage_cards)  # a card scored is doubled points
    if v.phase == "choose":
        return Choose("cards" if len(me.hand) <= 2 else "vp")
    if v.phase == "reshuffle":
        return Reshuffle(True)
    if v.phase == "mechanic":  # the highest cards first: the next plays go further
        return Order(tuple(c for c, _, _ in sorted(me.mechanic_top, key=lambda c: (-c[2], c[0]))))
    return _play(v)


def _play(v: RRView) -> Play:
    """Play the colour that goes furthest; with a short hand, greens (they draw 2)."""
    me = v.me
    assert me is not None
    by_colour: dict[str, list[tuple[int, str, int]]] = {}
    for card in me.hand:
        by_colour.setdefault(card[1], []).append(card)
    if len(me.hand) <= 3 and "green" in by_colour:
        chosen = by_colour["green"]
    else:
        chosen = max(by_colour.values(), key=lambda cs: (sum(c[2] for c in cs), -len(cs)))
    cards = tuple(c[0] for c in chosen)
    pos = next(s.pos for s in v.seats if s.id == v.seat)
    end = min(pos + sum(c[2] for c in chosen), v.road.final)
    space = v.road.spaces[end]
    shortcut = space.kind is SpaceKind.SHORTCUT and space.shortcut_to is not None
    return Play(cards, shortcut=shortcut)
