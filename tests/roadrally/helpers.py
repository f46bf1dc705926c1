"""Arranging Road Rally USA states for rules tests: a game on a hand-made road, then hands, decks,
cars and turn order set as a test needs them (card ids of the preset deck: 0-4 green 1, 5-8 green 2,
9-12 yellow 2, 13-15 yellow 3, 16-18 red 3, 19-20 red 4; RULES C1, OPEN-R1)."""

from __future__ import annotations

from typing import Any

from bot.engine.roadrally.play import new_game
from bot.engine.roadrally.state import RRState
from tests.roadrally.roads import road

G1, G2, Y2, Y3, R3, R4 = (0, 1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15), (16, 17, 18), (19, 20)
SEATS = ("a", "b", "c", "d", "e")


def game(text: str = "SS" + "." * 40 + "F", n: int = 3, preset: str = "rr-base", seed: int = 1,
         sprint: bool = False) -> RRState:
    state, _ = new_game(road(text), SEATS[:n], preset, seed=seed, sprint=sprint)
    return state


def arrange(state: RRState, *, order: tuple[int, ...] | None = None, hands: dict[int, list[int]] | None = None,
            decks: dict[int, list[int]] | None = None, pos: dict[int, int] | None = None,
            stages: dict[int, list[int]] | None = None) -> RRState:
    """Set hands, decks (top first), positions (arrival in the order given) and the turn order;
    every card not placed goes to the seat's discard pile so each seat keeps its 21 cards."""
    for i, hand in (hands or {}).items():
        state.seats[i].hand = list(hand)
    for i, deck in (decks or {}).items():
        state.seats[i].deck = list(deck)
    for i in set(hands or {}) | set(decks or {}):
        s = state.seats[i]
        s.discard = [c for c in range(21) if c not in s.hand and c not in s.deck]
    for i, p in (pos or {}).items():
        state.stamp += 1
        state.seats[i].pos = p
        state.seats[i].arrived = state.stamp
    for i, cards in (stages or {}).items():
        state.seats[i].stage_cards = list(cards)
    if order is not None:
        state.order = list(order)
        state.turn = 0
    return state


def snap(state: RRState) -> Any:
    """Everything of a state, for `unchanged` checks (the dice by their saved form)."""
    return (state.preset.name, state.sprint, state.road.name, state.dice.to_dict(),
            [(s.id, s.hand, s.deck, s.discard, s.stage_cards, s.pos, s.arrived, s.mark, s.scored_cards, s.vp,
              s.stage_tiles, s.checkpoints, s.retired) for s in state.seats],
            state.order, state.turn, state.round, state.phase, state.stamp, sorted(state.stage_tiles.items()),
            sorted(state.checkpoint_tiles), sorted(state.reached), state.pending, sorted(state.answers.items()),
            state.scored_this_round, state.choices, state.mechanic_draw, state.revealed, state.final_scored)
