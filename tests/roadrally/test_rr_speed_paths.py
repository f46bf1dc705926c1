"""The quick paths change nothing: `RRState.clone`, written out slot by slot, copies
every field and shares no mutable container; the AI's play, which sums its colours as it groups
them, chooses what the plain reading of its rule chooses (ai.py: the colour that goes furthest,
fewer cards on a tie, greens with a short hand); the view, whose records are built from tuples in
field order, is the view their constructors build from the plain reading of C10.8, record types
and field counts included; `to_act` is its plain reading."""

from __future__ import annotations

from dataclasses import fields

from bot.engine.roadrally import ai
from bot.engine.roadrally import simulate as sim
from bot.engine.roadrally.actions import Play
from bot.engine.roadrally.cards import deck_of
from bot.engine.roadrally.play import apply, to_act
from bot.engine.roadrally.presets import preset
from bot.engine.roadrally.road import SpaceKind
from bot.engine.roadrally.state import RRState, SeatState
from bot.engine.roadrally.view import Private, PublicSeat, RRView, view


def _states():
    """States along whole AI games of 3, 4 and 5 seats on the three presets, a sprint included."""
    for players, name, sprint in ((3, "rr-base", False), (4, "rr-demo-fr", False), (5, "rr-standard", True)):
        st = sim.start(players, name, players, sprint=sprint)
        while st.phase != "over":
            yield st
            seat = min(to_act(st))
            st, _ = apply(st, seat, ai.choose(view(st, seat)))


def _containers(state: RRState) -> list[object]:
    out: list[object] = [getattr(state, f.name) for f in fields(RRState) if isinstance(getattr(state, f.name),
                                                                                    (list, dict, set))]
    for s in state.seats:
        out += [s] + [getattr(s, f.name) for f in fields(SeatState) if isinstance(getattr(s, f.name), list)]
    return out + [state.dice]


def test_clone_copies_every_field_and_shares_nothing_mutable():
    for k, st in enumerate(_states()):
        if k % 7:
            continue
        c = st.clone()
        assert c.to_dict() == st.to_dict()
        assert c.preset is st.preset and c.road is st.road
        ours, theirs = _containers(c), _containers(st)
        assert len(ours) == len(theirs) and all(a is not b for a, b in zip(ours, theirs, strict=True))


def test_a_clone_changed_leaves_the_original_unchanged():
    st = next(s for k, s in enumerate(_states()) if k == 40)
    before = st.to_dict()
    c = st.clone()
    for s in c.seats:
        s.hand.append(99)
        s.deck.clear()
        s.discard.append(98)
        s.stage_cards.append(97)
        s.stage_tiles.append(96)
        s.pos += 1
    c.order.reverse()
    c.stage_tiles[-1] = 1
    c.checkpoint_tiles.add(-1)
    c.reached.add(-1)
    c.pending.append(-1)
    c.answers[-1] = True
    c.choices.append((0, 0, False))
    c.revealed.append((0, 0))
    c.dice.shuffle(["a", "b"])
    assert st.to_dict() == before


def _plain_play(v: RRView) -> Play:
    """ai.py's play rule read plainly (its code before's speed work), with the General
    Store's turn that draws more (C10.5)."""
    me = v.me
    assert me is not None
    by_colour: dict[str, list[tuple[int, str, int]]] = {}
    for card in me.hand:
        by_colour.setdefault(card[1], []).append(card)
    if len(me.hand) <= 3 and "green" in by_colour:
        chosen = by_colour["green"]
    else:
        chosen = max(by_colour.values(), key=lambda cs: (sum(c[2] for c in cs), -len(cs)))
    pos = next(s.pos for s in v.seats if s.id == v.seat)
    space = v.road.spaces[min(pos + sum(c[2] for c in chosen), v.road.final)]
    shortcut = space.kind is SpaceKind.SHORTCUT and space.shortcut_to is not None
    rules = preset(v.preset)
    store = (v.road.spaces[pos].kind is SpaceKind.STORE and len(chosen) <= rules.store_max
             and rules.store_draw > rules.draws[chosen[0][1]])
    return Play(tuple(c[0] for c in chosen), store=store, shortcut=shortcut)


def test_the_ai_plays_what_its_rule_says():
    seen = 0
    for st in _states():
        if st.phase == "turn":
            v = view(st, st.seats[st.current()].id)
            assert ai.choose(v) == _plain_play(v)
            seen += 1
    assert seen > 100


def _plain_view(state: RRState, seat: str | None) -> RRView:
    """view.py read plainly (its code before's speed work), records built by keyword."""
    deck = deck_of(state)

    def cards(ids: list[int]) -> tuple[tuple[int, str, int], ...]:
        return tuple((c, deck[c][0], deck[c][1]) for c in ids)

    race = {i: place for place, i in enumerate(state.race_order(), 1)}
    public = tuple(PublicSeat(id=s.id, place=race.get(i), pos=s.pos, mark=s.mark, hand_size=len(s.hand),
                              deck_size=len(s.deck), discard=cards(s.discard), vp=s.vp,
                              stage_tiles=tuple(s.stage_tiles), checkpoints=s.checkpoints,
                              stage_cards=len(s.stage_cards), scored_cards=s.scored_cards, retired=s.retired)
                   for i, s in enumerate(state.seats))
    i = state.index(seat) if seat is not None else None
    me = None
    if i is not None:
        own = state.seats[i]
        mine = state.phase == "mechanic" and state.current() == i
        me = Private(hand=cards(sorted(own.hand)), stage_cards=tuple(own.stage_cards),
                     mechanic_top=cards(own.deck[:state.preset.mechanic_look]) if mine else (),
                     answered=state.answers.get(i) if state.phase == "stage" else None)
    asked = (frozenset(state.seats[j].id for j in state.active()) if state.phase == "stage"
             else to_act(state))
    return RRView(
        seat=seat if i is not None else None, preset=state.preset.name, sprint=state.sprint, road=state.road,
        round=state.round, phase=state.phase, order=tuple(state.seats[j].id for j in state.order),
        current=state.seats[state.current()].id if state.phase in ("turn", "reshuffle", "mechanic") else None,
        to_act=asked, seats=public, stage_tiles=tuple(sorted(state.stage_tiles.items())),
        checkpoint_tiles=tuple(sorted(state.checkpoint_tiles)),
        window=state.pending[0] if state.phase == "stage" else None,
        choice=((state.seats[state.choices[0][0]].id, state.choices[0][1], state.choices[0][2])
                if state.phase == "choose" else None),
        revealed=tuple((stage, state.seats[j].id) for stage, j in state.revealed), me=me)


def test_the_view_is_its_plain_reading_field_by_field():
    phases = set()
    for k, st in enumerate(_states()):
        if k % 3 and st.phase not in ("mechanic", "reshuffle"):  # a third of the states, and every rare phase
            continue
        phases.add(st.phase)
        for seat in [None, "nobody", *(s.id for s in st.seats)]:
            v, plain = view(st, seat), _plain_view(st, seat)
            assert type(v) is RRView and len(v) == len(RRView._fields)
            assert all(type(p) is PublicSeat and len(p) == len(PublicSeat._fields) for p in v.seats)
            assert v._asdict() == plain._asdict() and [p._asdict() for p in v.seats] == [
                p._asdict() for p in plain.seats]
            assert (v.me is None) == (plain.me is None)
            if v.me is not None and plain.me is not None:
                assert type(v.me) is Private and v.me._asdict() == plain.me._asdict()
    assert {"turn", "stage", "choose", "mechanic"} <= phases


def test_to_act_is_its_plain_reading():
    for st in _states():
        if st.phase == "stage":
            expected = frozenset(st.seats[i].id for i in st.active() if i not in st.answers)
        elif st.phase == "choose":
            expected = frozenset({st.seats[st.choices[0][0]].id})
        else:
            expected = frozenset({st.seats[st.current()].id})
        assert to_act(st) == expected
