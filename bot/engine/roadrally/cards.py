"""Moving cards between a seat's deck, hand and discard pile (RULES C4, C5), through the injected
dice source only."""

from __future__ import annotations

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import msg
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.state import RRState, SeatState


def refuse(key: str, **params: object) -> NotAllowed:
    """A refusal with its message key (raised by the caller: the state is a clone, so nothing changes)."""
    return NotAllowed(msg(key, **params))


def draw(seat: SeatState, n: int, events: list[RoadEvent]) -> None:
    """Draw `n` from the top, or what remains (C4 out of gas)."""
    n = min(n, len(seat.deck))
    if n:
        seat.hand.extend(seat.deck[:n])
        del seat.deck[:n]
        events.append(RoadEvent("drew", seat.id, (n,)))


def reshuffle(state: RRState, seat: SeatState, events: list[RoadEvent]) -> None:
    """Draw deck and discards shuffled into a new deck (C4 empty hand, C5 Gas)."""
    pool = [str(c) for c in seat.deck + seat.discard]
    seat.deck = [int(c) for c in state.dice.shuffle(pool)]
    seat.discard = []
    events.append(RoadEvent("reshuffled", seat.id, (len(seat.deck),)))


_DECKS: dict[str, tuple[tuple[str, int], ...]] = {}


def deck_of(state: RRState) -> tuple[tuple[str, int], ...]:
    """(colour, value) by card id for this game's preset, made once per preset."""
    found = _DECKS.get(state.preset.name)
    if found is None:
        found = _DECKS[state.preset.name] = state.preset.deck()
    return found


Card = tuple[int, str, int]  # (id in the seat's deck, colour, value), as a view shows a card

_CARDS: dict[str, tuple[Card, ...]] = {}


def cards_of(state: RRState) -> tuple[Card, ...]:
    """(id, colour, value) by card id for this game's preset, made once per preset: a view shows
    a pile by picking these out (`map(cards_of(state).__getitem__, ids)`), building no tuple."""
    found = _CARDS.get(state.preset.name)
    if found is None:
        found = _CARDS[state.preset.name] = tuple((c, col, val) for c, (col, val) in enumerate(deck_of(state)))
    return found


def colour(state: RRState, card: int) -> str:
    return deck_of(state)[card][0]


def value(state: RRState, card: int) -> int:
    return deck_of(state)[card][1]
