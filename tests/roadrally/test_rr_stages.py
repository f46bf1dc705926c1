"""Stage resolution (RULES C6.1-C6.4, C10.2, C10.6, C10.8)."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import NotAllowed
from bot.engine.roadrally.actions import Choose, Play, StageAnswer, Timeout
from bot.engine.roadrally.play import apply, to_act
from tests.roadrally.helpers import G1, G2, R3, R4, Y2, Y3, arrange, game, snap

#         0123456789
ROAD = "SS.D.D.D" + "." * 20 + "F"


def _round(preset: str = "rr-base", n: int = 3, stages: dict[int, list[int]] | None = None):
    """a ends on stage 1 (space 3), b on stage 2 (space 5) passing stage 1, c moves 1, d/e 1 too."""
    st = game(ROAD, n=n, preset=preset)
    hands = {i: [G1[0], G2[0], Y2[0], Y3[0], R3[0], R4[0]] for i in range(n)}
    decks = {i: [G1[1], G1[2], G1[3], G1[4], Y2[1]] for i in range(n)}
    arrange(st, order=tuple(range(n)), hands=hands, decks=decks, pos={i: 0 for i in range(n)},
            stages=stages if stages is not None else {0: [1], 1: [2], 2: [9]})
    st, _ = apply(st, "a", Play((Y3[0],)))
    st, _ = apply(st, "b", Play((Y2[0], Y3[0])))
    for seat in "cde"[:n - 2]:
        st, _ = apply(st, seat, Play((G1[0],)))
    return st


def test_a_reached_stage_is_asked_of_every_seat_at_once():
    """C6.1, C10.8: stages passed or stopped on are reached; every active seat answers the same window."""
    st = _round()
    assert st.phase == "stage" and st.pending == [1, 2]
    assert to_act(st) == {"a", "b", "c"}
    st, _ = apply(st, "b", StageAnswer(1, False))
    assert to_act(st) == {"a", "c"}


def test_a_played_stage_card_scores_by_position_doubled_for_its_holder_and_the_tile_goes_to_the_car_on_it():
    """C6.2, C6.3: scored by race position (base 5/4/3); the player of the card doubles; the car on the
    tile's space with no car ahead there takes the tile."""
    st = _round()
    for seat, play in (("a", True), ("b", False), ("c", False)):
        st, events = apply(st, seat, StageAnswer(1, play))
    a, b, c = st.seats
    assert (b.vp, a.vp, c.vp) == (5, 4 * 2, 3)
    assert a.stage_tiles == [1] and a.stage_cards == [] and a.scored_cards == 1
    assert st.revealed == [(1, 0)]
    assert st.pending == [2] and to_act(st) == {"a", "b", "c"}  # ascending: stage 2 next


def test_a_bypassed_stage_names_no_seat_and_its_tile_is_removed():
    """C6.2, C10.8: nobody plays the card: bypassed, the card stays secret, no seat named."""
    st = _round()
    for seat in "abc":
        st, events = apply(st, seat, StageAnswer(1, False))
    assert next(e for e in events if e.kind == "stage_bypassed").seat is None
    assert 3 not in st.stage_tiles and st.seats[0].stage_cards == [1]
    assert all(s.vp == 0 for s in st.seats)
    for seat in "abc":
        st, _ = apply(st, seat, StageAnswer(2, False))
    assert st.phase == "turn" and st.round == 2 and 5 not in st.stage_tiles  # C3.4: reached tiles removed
    assert 7 in st.stage_tiles  # not reached: stays


def test_a_player_scores_at_most_his_limit_and_the_rest_go_back_to_the_box():
    """C6.4 base: 2 stage cards in the game; C10.6: the others go back to the box unseen."""
    st = _round(stages={0: [1, 12, 15], 1: [2], 2: [9]})
    st.seats[0].scored_cards = 1
    for seat, play in (("a", True), ("b", False), ("c", False)):
        st, _ = apply(st, seat, StageAnswer(1, play))
    assert st.seats[0].stage_cards == [] and st.seats[0].scored_cards == 2


def test_standard_scores_at_most_two_stages_per_round():
    """C6.4 standard: once the 2nd is scored, the other reached stages of the round are discarded unscored."""
    st = game(ROAD, n=3, preset="rr-standard")
    arrange(st, order=(0, 1, 2), hands={i: [R4[0], R4[1], G1[0], Y2[0]] for i in range(3)},
            decks={i: [G1[1], G1[2]] for i in range(3)}, pos={i: 0 for i in range(3)},
            stages={0: [1, 3], 1: [2], 2: [9]})
    st, _ = apply(st, "a", Play((R4[0], R4[1])))   # 0 -> 8: passes stages 1, 2 and 3
    st, _ = apply(st, "b", Play((G1[0],)))
    st, _ = apply(st, "c", Play((G1[0],)))
    assert st.pending == [1, 2, 3]
    for stage, holder in ((1, "a"), (2, "b")):
        for seat in "abc":
            st, _ = apply(st, seat, StageAnswer(stage, seat == holder))
            if st.phase == "choose":  # 3rd place: 1 VP or 2 cards
                st, _ = apply(st, st.seats[st.choices[0][0]].id, Choose("vp"))
    assert st.phase == "turn" and st.round == 2
    assert st.seats[0].stage_cards == [3] and len(st.revealed) == 2  # stage 3 discarded, card kept secret
    assert 7 not in st.stage_tiles


def test_points_or_two_cards_is_the_placed_seats_choice():
    """C6.3: 4th place in a 4-player base game: 2 VP or 2 cards (cards never doubled)."""
    st = _round(n=4, stages={0: [1], 1: [2], 2: [9], 3: [10]})
    for seat in "abcd":
        st, _ = apply(st, seat, StageAnswer(1, seat == "a"))
    assert st.phase == "choose"
    fourth = st.seats[st.race_order()[3]]
    assert to_act(st) == {fourth.id} and st.choices == [(st.race_order()[3], 2, False)]
    hand = len(fourth.hand)
    cards, _ = apply(st, fourth.id, Choose("cards"))
    i = st.race_order()[3]
    assert len(cards.seats[i].hand) == hand + 2 and cards.seats[i].vp == 0
    vp, _ = apply(st, fourth.id, Choose("vp"))
    assert vp.seats[i].vp == 2 and vp.phase == "stage" and vp.pending == [2]


def test_stage_refusals_leave_the_state_unchanged():
    """C6.2: a stage card for a stage not being resolved; a card not held; answering twice; a choice
    asked of nobody."""
    st = _round()
    st, _ = apply(st, "c", StageAnswer(1, False))
    before = snap(st)
    for seat, action, key in [("a", StageAnswer(2, True), "roadrally.stage_not_reached"),
                              ("b", StageAnswer(1, True), "roadrally.no_stage_card"),
                              ("c", StageAnswer(1, False), "roadrally.not_your_turn"),
                              ("a", Choose("vp"), "roadrally.expected_stage_answer"),
                              ("a", Play((G1[1],)), "roadrally.expected_stage_answer"),
                              ("a", Timeout(), "roadrally.not_for_players")]:
        with pytest.raises(NotAllowed) as err:
            apply(st, seat, action)
        assert err.value.message.key == key
        assert snap(st) == before


def test_a_timeout_keeps_the_card_secret_and_takes_the_points():
    """C10.2, C10.8: the timeout keeps stage cards secret; a seat not choosing takes the VP."""
    st = _round(n=4, stages={0: [1], 1: [2], 2: [9], 3: [10]})
    timed, _ = apply(st, None, Timeout())
    assert timed.pending == [2] and timed.seats[0].stage_cards == [1] and all(s.vp == 0 for s in timed.seats)
    for seat in "abcd":
        st, _ = apply(st, seat, StageAnswer(1, seat == "a"))
    chooser = st.choices[0][0]
    st, _ = apply(st, None, Timeout())
    assert st.seats[chooser].vp == 2
