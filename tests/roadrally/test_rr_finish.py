"""Finish, final stage and final VP (RULES C8, AMB-R2, C10.6)."""

from __future__ import annotations

from bot.engine.roadrally.actions import Choose, Play, Retire, StageAnswer
from bot.engine.roadrally.play import apply, final_vp, legal_actions, ranking, to_act
from bot.engine.roadrally.protocol import GAME as RR
from bot.engine.roadrally.rules import Table
from tests.roadrally.helpers import G1, R3, R4, Y2, Y3, arrange, game

ROAD = "SS" + "." * 8 + "F"  # final space 10


def _end(preset: str = "rr-base", n: int = 3):
    st = game(ROAD, n=n, preset=preset)
    hands = {i: [R4[0], R4[1], R3[0], Y3[0], G1[0]] for i in range(n)}
    arrange(st, order=tuple(range(n)), hands=hands, decks={i: [Y2[0]] for i in range(n)},
            pos={0: 6, 1: 5, 2: 1, 3: 1, 4: 1} if n == 5 else {i: (6, 5, 1, 1)[i] for i in range(n)})
    return st


def test_cars_reaching_the_final_space_take_marks_in_arrival_order_and_extra_movement_is_lost():
    """C8: final space marks 1, 2, 3 ... in arrival order; extra movement lost."""
    st = _end()
    st, _ = apply(st, "a", Play((R4[0], R4[1])))   # 6 + 8: finishes, mark 1
    st, _ = apply(st, "b", Play((R4[0], R4[1])))   # 5 + 8: mark 2
    assert (st.seats[0].pos, st.seats[0].mark, st.seats[1].mark) == (10, 1, 2)
    assert to_act(st) == {"c"}  # the round goes on to its end


def test_the_game_ends_with_the_round_and_the_final_stage_scores_finishing_order_only():
    """C8, AMB-R2: after the round, the final stage by finishing order with the player count's table,
    points only, never doubled; cars not finished score 0 for it; then the game ends."""
    st = _end("rr-standard")
    st, _ = apply(st, "a", Play((R4[0], R4[1])))
    st, _ = apply(st, "b", Play((R4[0], R4[1])))
    st, _ = apply(st, "c", Play((G1[0],)))
    assert st.phase == "over" and to_act(st) == frozenset() and legal_actions(st, "a") == []
    assert [s.vp for s in st.seats] == [5, 3, 0]   # standard 3 players: 5 / 3 / (1 or 2 cards)


def test_final_vp_counts_tiles_and_a_tie_goes_to_the_car_further_ahead():
    """C8: VP tiles + 2 per stage tile + 2 per checkpoint tile; a tie: the car further ahead wins."""
    st = _end()
    a, b, c = st.seats
    a.vp, a.stage_tiles, a.checkpoints = 3, [4], 1
    b.vp, b.stage_tiles = 5, [1, 2]
    c.vp = 9
    assert final_vp(st) == {"a": 7, "b": 9, "c": 9}
    assert ranking(st) == ["b", "c", "a"]  # b (space 5) is ahead of c (space 1)


def test_C8_tied_vp_do_not_share_a_rank_the_car_further_ahead_wins():
    """C8: equal final VP are ranked by position on the road, so the game's outcome (league
    points, achievements) gives each tied player a rank of its own, never a shared one."""
    st = _end()
    a, b, c = st.seats
    a.vp, a.stage_tiles, a.checkpoints = 3, [4], 1
    b.vp, b.stage_tiles = 5, [1, 2]
    c.vp = 9
    st.phase = "over"
    outcome = RR.rules.outcome(Table(st, (("a", "A"), ("b", "B"), ("c", "C"))))
    assert outcome is not None
    assert [(r.seat, r.rank) for r in outcome.seats] == [("b", 1), ("c", 2), ("a", 3)]


def test_a_retired_seat_leaves_the_race_and_ranks_last():
    """A retired car no longer acts, answers or scores a place."""
    st = _end()
    st, _ = apply(st, None, Retire("a"))
    assert to_act(st) == {"b"} and st.seats[0].retired
    assert st.race_order() == [1, 2] and ranking(st)[-1] == "a"


def test_the_final_stage_is_scored_even_after_two_stages_that_round():
    """C10.6: the final stage is always scored and does not count toward the per-round limit."""
    st = _end("rr-standard")
    st.scored_this_round = 2
    st.stage_tiles[8] = 4
    arrange(st, stages={2: [4]})
    st, _ = apply(st, "a", Play((R4[0], R4[1])))   # passes stage 4 on space 8 and finishes
    st, _ = apply(st, "b", Play((G1[0],)))
    st, _ = apply(st, "c", Play((G1[0],)))
    for seat in "abc":
        st, _ = apply(st, seat, StageAnswer(4, seat == "c"))
    assert st.revealed == [(4, 2)]
    while st.phase == "choose":
        st, _ = apply(st, st.seats[st.choices[0][0]].id, Choose("vp"))
    assert st.phase == "over" and st.seats[0].vp == 5 + 5  # stage 4 (1st: 5) + final stage (1st: 5)
    assert st.seats[2].vp == 1 * 2  # 3rd place, doubled for the card's player


def test_a_holder_in_a_points_or_cards_place_gets_double_points_or_two_cards():
    """C6.3: the player of the card doubles his points; cards are not doubled."""
    st = _end("rr-standard")
    st.stage_tiles[4] = 6
    arrange(st, stages={2: [6]}, decks={2: [Y2[0], Y2[1], Y2[2], Y2[3]]})
    st, _ = apply(st, "a", Play((G1[0],)))
    st, _ = apply(st, "b", Play((G1[0],)))
    st, _ = apply(st, "c", Play((Y3[0],)))         # c: 1 -> 4, stops on stage 6, still last
    for seat in "abc":
        st, _ = apply(st, seat, StageAnswer(6, seat == "c"))
    assert st.choices == [(2, 1, True)]
    hand = len(st.seats[2].hand)
    vp, _ = apply(st, "c", Choose("vp"))
    cards, _ = apply(st, "c", Choose("cards"))
    assert vp.seats[2].vp == 2 and cards.seats[2].vp == 0 and len(cards.seats[2].hand) == hand + 2
    assert vp.seats[2].stage_tiles == [6]
