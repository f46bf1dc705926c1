"""A simple Road Rally USA driver that decides from its own seat's view only (RULES C10.8): it never
sees the state, so it cannot use another seat's hand or stage cards."""

from __future__ import annotations

import hashlib

from bot.engine.roadrally.actions import Action, Choose, Order, Play, Reshuffle, StageAnswer
from bot.engine.roadrally.road import SpaceKind
from bot.engine.roadrally.view import RRView

SHORTCUT = SpaceKind.SHORTCUT  # read once (an Enum member read through its class is slow in 3.11)


def choose(v: RRView) -> Action:
    """The AI's action for the seat of `v` (which must be one of `v.to_act`)."""
    me = v.me
    assert me is not None and v.seat is not None
    if v.phase == "stage":
        assert v.window is not None
        return StageAnswer(v.window, v.window in me.stage_cards and _scores(v))
    if v.phase == "choose":
        return Choose("cards" if len(me.hand) <= 2 else "vp")
    if v.phase == "reshuffle":
        return Reshuffle(True)
    if v.phase == "mechanic":  # the highest cards first: the next plays go further
        return Order(tuple(c for c, _, _ in sorted(me.mechanic_top, key=lambda c: (-c[2], c[0]))))
    return _play(v)


#: the chance (in 1/256) that the AI plays a stage card it holds, by its race place among the
#: active seats from the leader: a card scored doubles the seat's points for that place (C6.3) and
#: uses one of its few scorings (C6.4), so a good player keeps it more often when behind. Never 0
#: nor 256: a stage bypassed must not tell the table that no AI holds its card (RULES C10.8).
PLAY_CHANCE = (224, 176, 128, 96, 64)


def _scores(v: RRView) -> bool:
    """Whether to play the held card of the open window: a draw from the seat's own view only
    (its id, its hand, its stage cards, the stage and the round), never from anything hidden of
    the others, at the chance of its race place (`PLAY_CHANCE`)."""
    me = v.me
    assert me is not None and v.window is not None
    own = next(s for s in v.seats if s.id == v.seat)
    place = (own.place or len(PLAY_CHANCE)) - 1
    chance = PLAY_CHANCE[min(place, len(PLAY_CHANCE) - 1)]
    seen = f"{v.seat}|{v.round}|{v.window}|{sorted(me.stage_cards)}|{[c for c, _, _ in me.hand]}"
    draw = hashlib.sha256(seen.encode()).digest()[0]
    return draw < chance


def _play(v: RRView) -> Play:
    """Play the colour that goes furthest; with a short hand, greens (they draw 2). A tie goes to
    fewer cards, then to the colour of the lowest card id (the hand's order)."""
    me = v.me
    assert me is not None
    by_colour: dict[str, list[int]] = {}  # colour -> [move, count, card ids...], in hand order
    for c, col, value in me.hand:
        kind = by_colour.get(col)
        if kind is None:
            by_colour[col] = [value, 1, c]
        else:
            kind[0] += value
            kind[1] += 1
            kind.append(c)
    if len(me.hand) <= 3 and "green" in by_colour:
        chosen = by_colour["green"]
    else:
        chosen = max(by_colour.values(), key=lambda kind: (kind[0], -kind[1]))
    pos = next(s.pos for s in v.seats if s.id == v.seat)
    spaces = v.road.spaces
    space = spaces[min(pos + chosen[0], len(spaces) - 1)]
    shortcut = space.kind is SHORTCUT and space.shortcut_to is not None
    return Play(tuple(chosen[2:]), shortcut=shortcut)
