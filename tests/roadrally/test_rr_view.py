"""Hidden hands (RULES C10.8): a seat's view holds its own hand and stage cards and only public
counts of the others; a spectator sees only public data; the AI decides from its own view only."""

from __future__ import annotations

import random

import pytest

from bot.engine.roadrally import ai
from bot.engine.roadrally.play import apply, to_act
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.view import view
from tests.roadrally.helpers import game
from tests.roadrally.roads import LONG


def _scramble(state: RRState, keep: int | None, rng: random.Random) -> RRState:
    """A copy where every seat but `keep` has other hidden cards: hand and deck mixed (same sizes),
    other unscored stage cards, other stage answers. Public data is untouched."""
    st = state.clone()
    held = {c for s in st.seats for c in s.stage_cards} | {stage for stage, _ in st.revealed}
    free = [n for n in range(1, 22) if n not in held]
    for j, s in enumerate(st.seats):
        if j == keep:
            continue
        pool = s.hand + s.deck
        rng.shuffle(pool)
        s.hand, s.deck = pool[:len(s.hand)], pool[len(s.hand):]
        rng.shuffle(free)
        mixed = free[:len(s.stage_cards)] if len(free) >= len(s.stage_cards) else list(s.stage_cards)
        s.stage_cards = sorted(mixed)
        if j in st.answers:
            st.answers[j] = not st.answers[j]
    return st


def _games():
    """States along whole 3-, 4- and 5-seat AI games, every phase included."""
    for n, preset in ((3, "rr-base"), (4, "rr-standard"), (5, "rr-demo-fr")):
        st = game(LONG, n=n, preset=preset, seed=n)
        while st.phase != "over":
            yield st
            seat = sorted(to_act(st))[0]
            st, _ = apply(st, seat, ai.choose(view(st, seat)))


def test_a_seats_view_shows_its_own_hand_and_stage_cards_and_nothing_hidden_of_the_others():
    """C10.8: own hand and stage cards in the view; others' unchanged by scrambling their secrets."""
    rng = random.Random(5)
    phases = set()
    for k, st in enumerate(_games()):
        phases.add(st.phase)
        if k % 3:
            continue
        for i, s in enumerate(st.seats):
            v = view(st, s.id)
            assert v.me is not None
            assert [c for c, _, _ in v.me.hand] == sorted(s.hand) and list(v.me.stage_cards) == s.stage_cards
            assert view(_scramble(st, i, rng), s.id) == v
            other = [p._asdict() for p in v.seats]
            assert all("hand" not in p and "deck" not in p for p in other)
            assert [p["stage_cards"] for p in other] == [len(x.stage_cards) for x in st.seats]
    assert {"turn", "stage", "choose"} <= phases


def test_a_spectator_sees_only_public_data():
    """C10.8: hand contents, stage cards and deck order are private; a spectator sees none of them."""
    rng = random.Random(9)
    for k, st in enumerate(_games()):
        if k % 4:
            continue
        v = view(st, None)
        assert v.me is None and v.seat is None
        assert view(_scramble(st, None, rng), None) == v
        assert [(p.hand_size, p.deck_size) for p in v.seats] == [(len(s.hand), len(s.deck)) for s in st.seats]
    assert view(st, "nobody").me is None


def test_the_mechanic_shows_the_top_cards_to_that_seat_only():
    """C5 Mechanic, C10.8: the looked-at cards are the seat's own private view."""
    for st in _games():
        if st.phase == "mechanic":
            me = st.seats[st.current()]
            assert [c for c, _, _ in view(st, me.id).me.mechanic_top] == me.deck[:5]
            assert all(view(st, s.id).me.mechanic_top == () for s in st.seats if s is not me)
            return
    pytest.fail("no Mechanic stop in these games")


def test_the_ai_decides_the_same_when_other_seats_hands_are_scrambled():
    """The AI decides from its own seat's view only."""
    rng = random.Random(3)
    for k, st in enumerate(_games()):
        if k % 2:
            continue
        for seat in to_act(st):
            i = st.index(seat)
            assert ai.choose(view(_scramble(st, i, rng), seat)) == ai.choose(view(st, seat))


def test_a_stage_window_does_not_tell_who_holds_the_card():
    """C10.8: every seat is asked the same window; the public view is the same whoever holds it."""
    for st in _games():
        if st.phase == "stage" and not st.answers:
            v = view(st, None)
            assert v.to_act == frozenset(s.id for s in st.seats if not s.retired) and v.window == st.pending[0]
            return
    pytest.fail("no stage window in these games")

