"""Whole AI games and scrambled twins for the tests of Road Rally USA's words and texts (RULES
C3-C8, C10.8): states along games of every preset on the hand-made road and on a real course, and
the same state with only its secret data changed."""

from __future__ import annotations

from collections.abc import Iterator

from bot.engine.roadrally import ai
from bot.engine.roadrally.actions import Action
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import apply, new_game, to_act
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.view import view
from tests.roadrally.helpers import SEATS
from tests.roadrally.roads import LONG, road

NAMES = {"a": "Ann", "b": "Bör", "c": "Céline", "d": "Dara", "e": "Emil"}
#: (road, seats, preset, seed, sprint) of the games walked through
GAMES = (("long", 3, "rr-base", 3, False), ("long", 4, "rr-standard", 4, False),
         ("long", 5, "rr-demo-fr", 5, False), ("std-7", 4, "rr-standard", 7, False),
         ("sprint-3", 3, "rr-standard", 2, True), ("std-11", 5, "rr-base", 9, False),
         ("base", 3, "rr-demo-fr", 1, False), ("sprint-5", 4, "rr-base", 6, True))


def start(course: str, n: int, preset: str, seed: int, sprint: bool) -> RRState:
    laid = road(LONG) if course == "long" else load_course(course)
    st, _ = new_game(laid, SEATS[:n], preset, seed=seed, sprint=sprint)
    return st


def steps(games: tuple[tuple[str, int, str, int, bool], ...] = GAMES) -> Iterator[tuple[RRState, str, Action]]:
    """(state, seat, the AI's action) along whole games, the state before the action."""
    for spec in games:
        st = start(*spec)
        count = 0
        while st.phase != "over":
            seat = sorted(to_act(st))[0]
            action = ai.choose(view(st, seat))
            yield st, seat, action
            st, _ = apply(st, seat, action)
            count += 1
            assert count < 3000
        yield st, "", action


def scrambled(st: RRState) -> RRState:
    """The same state with only secret data changed (C10.8): each seat's hand swapped for other cards
    of its draw deck (sizes kept), the deck reordered, other unscored stage cards, the window's
    answers flipped."""
    out = st.clone()
    held = {c for s in out.seats for c in s.stage_cards} | {stage for stage, _ in out.revealed}
    free = [n for n in range(1, 22) if n not in held]
    for s in out.seats:
        k = min(len(s.hand), len(s.deck))
        s.hand[:k], s.deck[:k] = s.deck[:k], s.hand[:k]
        s.deck.reverse()
        if len(free) >= len(s.stage_cards) and s.stage_cards:
            s.stage_cards, free = sorted(free[:len(s.stage_cards)]), free[len(s.stage_cards):] + s.stage_cards
    out.answers = {i: not a for i, a in out.answers.items()}
    return out


def secret_twin(st: RRState, actor: str) -> RRState:
    """A twin in which the same action of `actor` is still legal and every secret it does not use is
    changed: the other seats' hands and deck orders, the actor's deck below the Mechanic's look,
    and (outside a stage window, where the answers name the holders) every seat's stage cards."""
    out = scrambled(st)
    i = st.index(actor)
    assert i is not None
    mine, theirs = out.seats[i], st.seats[i]
    look = st.preset.mechanic_look
    mine.hand = list(theirs.hand)
    rest = [c for c in theirs.deck[look:]]
    rest.reverse()
    mine.deck = list(theirs.deck[:look]) + rest
    if st.phase in ("stage", "choose"):
        for twin, real in zip(out.seats, st.seats, strict=True):
            twin.stage_cards = list(real.stage_cards)
        out.answers = dict(st.answers)
    return out
