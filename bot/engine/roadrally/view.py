"""What a seat may see (RULES C10.8): a frozen structure built from the state, never the state.
Public: hand size, deck size, discard pile contents, tiles held, VP tiles, the number of unscored
stage cards, positions and the road. Private to the seat: its hand, its stage cards, its own answer
in a stage window, and the top of its deck while it reorders it at a Mechanic. A spectator (None)
sees only the public part. Nothing else of the state is copied, so nothing secret can leak.

The three records are NamedTuples, immutable like frozen dataclasses but several times as quick to
build (a frozen dataclass sets each field through `object.__setattr__`): a view is built for every
AI decision, and building it was most of one. Read them by field name; `_asdict()` gives
a record's fields as a dict. `view` builds the public seats and the view itself from tuples in
field order (`_record`); tests/roadrally/test_rr_speed_paths.py holds it to the plain reading,
record types and field counts included."""

from __future__ import annotations

from typing import NamedTuple

from bot.engine.roadrally.cards import Card, cards_of
from bot.engine.roadrally.play import to_act
from bot.engine.roadrally.road import Road
from bot.engine.roadrally.state import Phase, RRState

__all__ = ["Card", "Private", "PublicSeat", "RRView", "view"]


class PublicSeat(NamedTuple):
    id: str
    place: int | None        # race place, 1 = leader (None: retired)
    pos: int
    mark: int | None         # finish mark (C8)
    hand_size: int
    deck_size: int
    discard: tuple[Card, ...]
    vp: int                  # VP tiles
    stage_tiles: tuple[int, ...]
    checkpoints: int
    stage_cards: int         # unscored stage cards held (a count)
    scored_cards: int
    retired: bool


class Private(NamedTuple):
    hand: tuple[Card, ...]
    stage_cards: tuple[int, ...]
    mechanic_top: tuple[Card, ...] = ()   # only while this seat reorders at a Mechanic
    answered: bool | None = None          # its own answer in the open stage window


class RRView(NamedTuple):
    seat: str | None
    preset: str
    sprint: bool
    road: Road
    round: int
    phase: Phase
    order: tuple[str, ...]          # this round's turn order; the last holds "L" (C3)
    current: str | None             # whose turn (turn, reshuffle, mechanic phases)
    to_act: frozenset[str]          # who is asked (a stage window: every active seat, answered or not)
    seats: tuple[PublicSeat, ...]
    stage_tiles: tuple[tuple[int, int], ...]   # (space, stage) still on the road
    checkpoint_tiles: tuple[int, ...]
    window: int | None              # the stage being asked of every seat (C10.8)
    choice: tuple[str, int, bool] | None       # (seat, points, doubled) choosing "points or 2 cards"
    revealed: tuple[tuple[int, str], ...]      # (stage, seat) stage cards played (C6.2)
    me: Private | None


def _asked(state: RRState) -> frozenset[str]:
    """Who is asked, as anyone may see it: in a stage window every active seat, answered or not
    (C10.8: who is still thinking would tell who holds the card; a seat knows its own answer
    from `me.answered`); otherwise the seat to act."""
    if state.phase == "stage":
        return frozenset([s.id for s in state.seats if not s.retired])
    return to_act(state)


#: a record built from a tuple of its fields in field order, without the Python `__new__` that
#: NamedTuple writes (it only binds the arguments): five public seats in every view
_record = tuple.__new__


def view(state: RRState, seat: str | None) -> RRView:
    """What `seat` may see now (None, or a name that is not a seat: a spectator's view)."""
    card = cards_of(state).__getitem__  # a pile shown as (id, colour, value) by picking, not building
    seats, phase = state.seats, state.phase
    place = {i: n for n, i in enumerate(state.race_order(), 1)}.get
    public = tuple([_record(PublicSeat, (s.id, place(i), s.pos, s.mark, len(s.hand), len(s.deck),
                                         tuple(map(card, s.discard)), s.vp, tuple(s.stage_tiles), s.checkpoints,
                                         len(s.stage_cards), s.scored_cards, s.retired))
                    for i, s in enumerate(seats)])
    me = None
    i = state.index(seat) if seat is not None else None
    if i is not None:
        own = seats[i]
        mine = phase == "mechanic" and state.current() == i
        me = Private(tuple(map(card, sorted(own.hand))), tuple(own.stage_cards),
                     tuple(map(card, own.deck[:state.preset.mechanic_look])) if mine else (),
                     state.answers.get(i) if phase == "stage" else None)
    return _record(RRView, (
        seat if i is not None else None,                                       # seat
        state.preset.name, state.sprint, state.road, state.round, phase,      # preset .. phase
        tuple([seats[j].id for j in state.order]),                             # order
        seats[state.current()].id if phase in ("turn", "reshuffle", "mechanic") else None,  # current
        _asked(state),                                                         # to_act
        public,                                                                # seats
        tuple(sorted(state.stage_tiles.items())),                              # stage_tiles
        tuple(sorted(state.checkpoint_tiles)),                                 # checkpoint_tiles
        state.pending[0] if phase == "stage" else None,                        # window
        (seats[state.choices[0][0]].id, state.choices[0][1], state.choices[0][2])
        if phase == "choose" else None,                                        # choice
        tuple([(stage, seats[j].id) for stage, j in state.revealed]),         # revealed
        me))                                                                   # me
