"""A turn (RULES C4, C5, C10.1-C10.5): the empty-hand turn, a play and its move, the special spaces
where the move ends, the draw; and the Mechanic's reorder."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.roadrally.actions import Order, Play, Reshuffle
from bot.engine.roadrally.cards import deck_of, draw, refuse, reshuffle
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.road import SpaceKind
from bot.engine.roadrally.state import RRState

#: the space kinds a turn tests, read once (an Enum member read through its class is slow in 3.11)
STORE, SHORTCUT, GAS, MECHANIC = SpaceKind.STORE, SpaceKind.SHORTCUT, SpaceKind.GAS, SpaceKind.MECHANIC


def begin_turn(state: RRState, events: list[RoadEvent]) -> bool:
    """Start the current seat's turn. An empty hand (C4): compulsory reshuffle and draw 2 at once
    (True: the turn is over), or the optional one asked (phase `reshuffle`)."""
    seat = state.seats[state.current()]
    state.phase = "turn"
    if seat.hand:
        return False
    if state.preset.empty_hand_reshuffle == "optional":
        state.phase = "reshuffle"
        return False
    reshuffle(state, seat, events)
    draw(seat, state.preset.empty_hand_draw, events)
    return True


def empty_hand(state: RRState, action: Reshuffle, events: list[RoadEvent]) -> None:
    """C4 standard: the player's answer to the optional reshuffle, then the draw of 2."""
    seat = state.seats[state.current()]
    if action.yes:
        reshuffle(state, seat, events)
    draw(seat, state.preset.empty_hand_draw, events)


def check_play(state: RRState, action: Play) -> None:
    """Refuse a play the rules forbid (C4, C5); nothing is changed."""
    seat = state.seats[state.current()]
    hand = seat.hand
    if not hand:
        raise refuse("roadrally.hand_empty")
    cards = action.cards
    if not cards:
        raise refuse("roadrally.no_cards")
    if len(set(cards)) != len(cards) or not all(card in hand for card in cards):
        for card in cards:  # the first card not in the hand, or played twice
            if card not in hand or cards.count(card) > 1:
                raise refuse("roadrally.card_not_in_hand", card=card)
    road = state.road
    here = road.spaces[seat.pos].kind
    deck = deck_of(state)
    if action.store and action.normal:
        raise refuse("roadrally.store_or_normal")
    if action.store or action.normal:
        if here is not STORE:
            raise refuse("roadrally.no_store_here")
    if action.store:
        if len(cards) > state.preset.store_max:
            raise refuse("roadrally.too_many_cards", max=state.preset.store_max)
    elif len({deck[c][0] for c in cards}) > 1:
        raise refuse("roadrally.mixed_colours")
    end = min(seat.pos + sum(deck[c][1] for c in cards), road.final)
    space = road.spaces[end]
    if action.shortcut:
        if space.kind is not SHORTCUT or space.shortcut_to is None:
            raise refuse("roadrally.no_shortcut_here")
        space = road.spaces[space.shortcut_to]
    if action.draw_first and (space.kind is not GAS or state.preset.gas_draw != "choose"):
        raise refuse("roadrally.no_gas_choice")


def play(state: RRState, action: Play, events: list[RoadEvent]) -> bool:
    """Apply a checked play (C4, C5). False: the turn waits for a Mechanic reorder."""
    i = state.current()
    seat = state.seats[i]
    road = state.road
    p = state.preset
    deck = deck_of(state)
    cards = action.cards
    hand = seat.hand
    for card in cards:
        hand.remove(card)
    seat.discard.extend(cards)  # C10.3: discarded before any space effect
    events.append(RoadEvent("played", seat.id, tuple(cards)))
    start = seat.pos
    move = 0
    for c in cards:
        move += deck[c][1]
    final = len(road.spaces) - 1  # the final space (C8): no move goes beyond it
    end = min(start + move, final)
    passed: Sequence[int] = range(start + 1, end + 1)
    if action.shortcut:  # OPEN-R2, C10.4: the bypassed road is not reached
        target = road.spaces[end].shortcut_to
        assert target is not None
        end = target
        passed = [*passed, end]
    if end != start:
        seat.pos = end
        state.stamp += 1
        seat.arrived = state.stamp
        if end == final and seat.mark is None:
            seat.mark = 1 + sum(1 for s in state.seats if s.mark is not None)
            events.append(RoadEvent("finished", seat.id, (seat.mark,)))
    events.append(RoadEvent("moved", seat.id, (start, end)))
    stage_tiles = state.stage_tiles
    if stage_tiles:
        for space in passed:  # C6.1: passed or stopped on
            stage = stage_tiles.get(space)
            if stage is not None:
                state.reached.add(stage)
    checkpoint_tiles = state.checkpoint_tiles
    if checkpoint_tiles:
        for space in (passed if p.checkpoint == "pass" else (end,)):  # C5, C10.1
            if space in checkpoint_tiles:
                checkpoint_tiles.discard(space)
                seat.checkpoints += 1
                last = state.seats[state.race_order()[-1]]
                events.append(RoadEvent("checkpoint", seat.id, (space,)))
                draw(last, p.checkpoint_draw, events)
    n = p.store_draw if action.store else p.draws[deck[cards[0]][0]]
    kind = road.spaces[end].kind
    if kind is GAS:  # C5, AMB-R1
        if action.draw_first:
            draw(seat, n, events)
            n = 0
        reshuffle(state, seat, events)
    elif kind is MECHANIC and seat.deck:  # C5: look at the top 5 before drawing
        state.phase = "mechanic"
        state.mechanic_draw = n
        return False
    draw(seat, n, events)
    return True


def mechanic_order(state: RRState, action: Order, events: list[RoadEvent]) -> None:
    """C5 Mechanic: the top cards put back in the chosen order, then the draw."""
    seat = state.seats[state.current()]
    look = min(state.preset.mechanic_look, len(seat.deck))
    if sorted(action.cards) != sorted(seat.deck[:look]):
        raise refuse("roadrally.bad_order", n=look)
    seat.deck[:look] = list(action.cards)
    draw(seat, state.mechanic_draw, events)
    state.mechanic_draw = 0
