"""Road Rally USA's play module where the other rules tests left it unchecked (RULES C2, C4, C5,
C7, C8, C9, C10.2, C10.8): the deal's shapes, every deadline default, a retirement in every phase,
and exactly which plays are offered."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import NotAllowed, RallyError
from bot.engine.roadrally.actions import Choose, Order, Play, Reshuffle, Retire, StageAnswer, Timeout
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.play import apply, legal_actions, new_game, ranking, to_act
from bot.engine.roadrally.presets import DECK_A, DECK_B
from bot.i18n import render
from tests.roadrally.helpers import G1, G2, R3, R4, Y2, Y3, arrange, game, snap
from tests.roadrally.roads import LONG, road

#         0123456789
ROAD = "SS.D.D.D" + "." * 20 + "F"


def refused(st, seat, action, key: str) -> None:
    before = snap(st)
    with pytest.raises(NotAllowed) as err:
        apply(st, seat, action)
    assert err.value.message.key == key
    assert snap(st) == before


# -- the deal (C2, C7, C9) ---------------------------------------------------------------------------


def test_C2_a_game_is_not_a_sprint_unless_asked_and_opens_round_1():
    st, events = new_game(road(LONG), ("a", "b", "c"), "rr-standard")
    assert not st.sprint and all(len(s.stage_cards) == 6 for s in st.seats)
    assert events[0] == RoadEvent("round", None, (1,))
    assert [s.arrived for s in sorted(st.seats, key=lambda s: s.arrived)] == [1, 2, 3] and st.stamp == 3


def test_a_game_set_up_without_a_preset_or_seed_is_standard_dealt_as_seed_0():
    st, _ = new_game(road(LONG), ("a", "b", "c"))
    again, _ = new_game(road(LONG), ("a", "b", "c"), "rr-standard", seed=0)
    assert st.preset.name == "rr-standard"
    assert [(s.hand, s.deck, s.stage_cards) for s in st.seats] == [(s.hand, s.deck, s.stage_cards) for s in again.seats]


def test_C2_base_mixes_decks_A_and_B_so_a_hand_of_stage_cards_need_not_be_half_and_half():
    splits = set()
    for seed in range(12):
        st = game(LONG, n=3, preset="rr-base", seed=seed)
        splits |= {sum(c in DECK_A for c in s.stage_cards) for s in st.seats}
    assert splits - {2}  # A+B shuffled together: some seat holds other than 2 + 2


def test_C7_standard_with_4_players_deals_2_plus_2_then_a_fifth_from_what_is_left_of_A_and_B():
    fifths = set()
    for seed in range(12):
        st = game(LONG, n=4, preset="rr-standard", seed=seed)
        for s in st.seats:
            from_a = sum(c in DECK_A for c in s.stage_cards)
            assert len(s.stage_cards) == 5 and from_a in (2, 3)
            fifths.add(from_a)
    assert fifths == {2, 3}  # the fifth card comes from either deck


def test_C9_sprint_stage_cards_come_from_deck_B_only():
    for seed in range(6):
        st = game(LONG, n=3, preset="rr-base", seed=seed, sprint=True)
        assert all(len(s.stage_cards) == 2 and set(s.stage_cards) <= set(DECK_B) for s in st.seats)


def test_C1_there_are_21_stage_tiles_whatever_the_number_of_diners():
    st = game("SS" + "D" * 25 + "F", n=3)
    assert sorted(st.stage_tiles.values()) == list(range(1, 22)) and len(st.road.diners()) == 25


def test_C1_the_seat_count_refusal_names_three_to_five():
    with pytest.raises(RallyError) as err:
        new_game(road(LONG), ("a", "b"))
    assert "3" in render(err.value.message, "en") and "5" in render(err.value.message, "en")


# -- deadlines (C10.2) --------------------------------------------------------------------------------


def _three(preset: str):
    st = game(ROAD, n=3, preset=preset)
    return arrange(st, order=(0, 1, 2), hands={0: [G1[0], G2[0], Y3[0], R4[0], R3[0]]},
                   decks={0: [G1[1], G1[2], Y2[0], Y2[1]]}, pos={0: 0, 1: 0, 2: 0})


def test_C10_2_a_deadline_on_the_optional_reshuffle_reshuffles_draws_two_and_ends_the_turn():
    st = _three("rr-standard")
    arrange(st, hands={1: []}, decks={1: [Y2[2], Y2[3], G1[3]]})
    st, _ = apply(st, "a", Play((G1[0],)))
    assert st.phase == "reshuffle" and to_act(st) == {"b"}
    timed, events = apply(st, None, Timeout())
    b = timed.seats[1]
    assert len(b.hand) == 2 and b.discard == [] and len(b.deck) == 19  # reshuffled, then drew 2
    assert to_act(timed) == {"c"} and timed.phase == "turn" and any(e.kind == "reshuffled" for e in events)
    assert legal_actions(st, "b") == [Reshuffle(True), Reshuffle(False)]


def test_C10_2_a_deadline_at_a_mechanic_keeps_the_order_and_ends_the_turn():
    st = game("SS.M" + "." * 20 + "F", n=3, preset="rr-base")
    arrange(st, order=(0, 1, 2), hands={0: [G1[0], G2[0], Y3[0]]},
            decks={0: [R4[0], Y2[1], G1[2], Y2[2], R3[0], G1[3]]}, pos={0: 0, 1: 0, 2: 0})
    st, _ = apply(st, "a", Play((Y3[0],)))  # 0 -> 3, the Mechanic; yellow: draw 1
    assert st.phase == "mechanic"
    timed, _ = apply(st, None, Timeout())
    assert timed.seats[0].hand[-1] == R4[0] and timed.seats[0].deck == [Y2[1], G1[2], Y2[2], R3[0], G1[3]]
    assert to_act(timed) == {"b"} and timed.phase == "turn"
    assert legal_actions(st, "a")[0] == Order((R4[0], Y2[1], G1[2], Y2[2], R3[0]))


def _window():
    """Round 1 played: a (its last card played: an empty hand, no deck) leads on stage 1, whose
    window is open (a holds its card); b and c one space behind the start."""
    st = _three("rr-base")
    arrange(st, hands={0: [Y3[0]], 1: [G1[1]], 2: [G1[2]]}, decks={0: []}, stages={0: [1], 1: [9], 2: [10]})
    for seat, card in (("a", Y3[0]), ("b", G1[1]), ("c", G1[2])):
        st, _ = apply(st, seat, Play((card,)))
    assert st.phase == "stage" and st.pending == [1] and not st.seats[0].hand
    return st


def round_2_began(events) -> bool:
    """Round 2 opened and its leader, a, with an empty hand, reshuffled and drew at once (C4 base)."""
    return RoadEvent("round", None, (2,)) in events and any(e.kind == "reshuffled" and e.seat == "a" for e in events)


def test_C10_2_a_deadline_closing_the_last_window_of_a_round_starts_the_next_round():
    st = _window()
    timed, events = apply(st, None, Timeout())
    assert RoadEvent("stage_bypassed", None, (1,)) in events and round_2_began(events)
    assert timed.phase == "turn" and timed.round == 2 and timed.seats[0].stage_cards == [1] and to_act(timed) == {"b"}


def _last_to_play(preset: str, text: str = "SS" + "." * 20 + "F"):
    """a and b have played round 1 on a road without stages: c, the last in the order, is to act."""
    st = game(text, n=3, preset=preset)
    arrange(st, order=(0, 1, 2), hands={i: [G1[i], G2[i], Y3[i]] for i in range(3)}, pos={i: 0 for i in range(3)})
    for seat in "ab":
        st, _ = apply(st, seat, Play((Y3["ab".index(seat)],)))
    return st


def test_C10_2_a_deadline_on_the_last_turn_of_a_round_plays_the_lowest_card_and_opens_the_next_round():
    st = _last_to_play("rr-base")
    timed, events = apply(st, None, Timeout())
    assert G1[2] in timed.seats[2].discard and timed.seats[2].pos == 1
    assert RoadEvent("round", None, (2,)) in events and timed.round == 2


def test_C10_2_a_deadline_on_the_last_seat_s_optional_reshuffle_opens_the_next_round():
    st = _last_to_play("rr-standard")
    st.seats[2].discard += st.seats[2].hand
    st.seats[2].hand = []
    st.turn, st.phase = 2, "reshuffle"
    timed, events = apply(st, None, Timeout())
    assert RoadEvent("round", None, (2,)) in events and len(timed.seats[2].hand) == 2


def test_C10_2_a_deadline_at_the_last_seat_s_mechanic_opens_the_next_round():
    st = _last_to_play("rr-base", "SS..M" + "." * 20 + "F")
    arrange(st, pos={2: 1})
    st, _ = apply(st, "c", Play((Y3[2],)))  # 1 -> 4, the Mechanic
    assert st.phase == "mechanic"
    timed, events = apply(st, None, Timeout())
    assert RoadEvent("round", None, (2,)) in events


def test_the_last_seat_retiring_on_its_turn_opens_the_next_round():
    st = _last_to_play("rr-base")
    new, events = apply(st, "c", Retire("c"))
    assert RoadEvent("round", None, (2,)) in events and new.round == 2


def test_a_retired_seat_last_in_the_order_is_passed_over_to_the_next_round():
    st = _three("rr-base")
    arrange(st, hands={1: [G1[1], G2[1]]})
    st, _ = apply(st, None, Retire("c"))
    st, _ = apply(st, "a", Play((G1[0],)))
    st, events = apply(st, "b", Play((G1[1],)))
    assert RoadEvent("round", None, (2,)) in events and st.round == 2 and to_act(st) == {"a"}


def test_an_answer_out_of_its_phase_is_refused_naming_what_is_expected():
    st = _three("rr-base")
    refused(st, "a", Reshuffle(True), "roadrally.expected_play")
    with pytest.raises(NotAllowed) as err:
        apply(st, "a", StageAnswer(7, True))
    assert render(err.value.message, "en") == "Stage 7 is not the stage being resolved now."
    st = _three("rr-standard")
    arrange(st, hands={0: []})
    st.phase = "reshuffle"
    refused(st, "a", Order((G1[1],)), "roadrally.expected_reshuffle")


def test_C8_once_the_game_is_over_every_action_is_refused():
    st = _three("rr-base")
    st.phase = "over"
    for seat, action in (("a", Play((G1[0],))), (None, Timeout()), ("a", Retire("a"))):
        refused(st, seat, action, "roadrally.game_over")
    assert legal_actions(st, "a") == [] and legal_actions(st, None) == [] and to_act(st) == frozenset()


# -- retiring ------------------------------------------------------------------------------------------


def test_a_seat_retires_only_itself_once_and_its_retirement_is_told():
    st = _three("rr-base")
    refused(st, "b", Retire("a"), "roadrally.retire_others")
    refused(st, "a", Retire("x"), "roadrally.not_a_player")
    new, events = apply(st, "b", Retire("b"))
    assert events[0] == RoadEvent("retired", "b") and new.seats[1].retired
    refused(new, None, Retire("b"), "roadrally.already_retired")
    refused(new, "b", Play((G1[0],)), "roadrally.not_a_player")


def test_a_retired_seat_s_turn_is_passed_over():
    st = _three("rr-base")
    st, _ = apply(st, None, Retire("b"))
    st, _ = apply(st, "a", Play((G1[0],)))
    assert to_act(st) == {"c"}


def test_the_seat_to_play_retiring_ends_its_turn():
    st = _three("rr-base")
    st.mechanic_draw = 2
    new, _ = apply(st, None, Retire("a"))
    assert to_act(new) == {"b"} and new.mechanic_draw == 0


def test_C10_8_a_seat_retiring_in_a_window_that_every_other_seat_answered_closes_it():
    st = _window()
    st, _ = apply(st, "a", StageAnswer(1, True))
    st, _ = apply(st, "c", StageAnswer(1, False))
    waiting, _ = apply(st, None, Retire("c"))  # c had answered: b is still asked
    assert waiting.phase == "stage" and to_act(waiting) == {"b"} and 2 not in waiting.answers
    closed, events = apply(st, None, Retire("b"))
    assert RoadEvent("stage_scored", "a", (1,)) in events and closed.phase == "turn" and round_2_began(events)


def test_C6_3_a_seat_retiring_while_it_chooses_points_or_cards_leaves_the_choice():
    st = game(ROAD, n=4, preset="rr-base")
    hands = {i: [G1[0], G2[0], Y2[0], Y3[0], R3[0], R4[0]] for i in range(1, 4)}
    arrange(st, order=(0, 1, 2, 3), hands={0: [Y3[0]], **hands}, decks={0: []}, pos={i: 0 for i in range(4)},
            stages={0: [1], 1: [9], 2: [10], 3: [11]})
    st, _ = apply(st, "a", Play((Y3[0],)))
    for seat in "bcd":
        st, _ = apply(st, seat, Play((G1[0],)))
    for seat in "abcd":
        st, _ = apply(st, seat, StageAnswer(1, seat == "a"))
    assert st.phase == "choose"
    chooser = st.seats[st.choices[0][0]].id
    other = next(s.id for s in st.seats if s.id != chooser and not s.retired)
    kept, _ = apply(st, None, Retire(other))
    assert kept.phase == "choose" and to_act(kept) == {chooser}
    gone, events = apply(st, None, Retire(chooser))
    assert gone.phase == "turn" and gone.choices == [] and round_2_began(events)
    timed, events = apply(st, None, Timeout())  # C10.2: the chooser's deadline takes the points
    assert timed.seats[timed.index(chooser)].vp == st.choices[0][1] and round_2_began(events)


def test_C8_when_every_seat_has_retired_the_game_ends():
    st = _three("rr-base")
    for seat in "ab":
        st, _ = apply(st, None, Retire(seat))
    over, events = apply(st, None, Retire("c"))
    assert over.phase == "over" and events[-1] == RoadEvent("over")


def test_C8_equal_vp_rank_the_car_further_ahead_first():
    st = _three("rr-base")
    arrange(st, pos={2: 9, 0: 5, 1: 5})
    assert ranking(st) == ["c", "a", "b"]
    st.seats[1].vp = 1
    assert ranking(st) == ["b", "c", "a"]


# -- the plays offered (C4, C5) -------------------------------------------------------------------


def offered(st, seat: str = "a") -> set[tuple]:
    return {(p.cards, p.store, p.shortcut, p.draw_first) for p in legal_actions(st, seat) if isinstance(p, Play)}


def test_C4_every_single_colour_play_is_offered_once_per_choice_of_kinds():
    st = _three("rr-base")
    arrange(st, hands={0: [G1[0], G1[1], Y2[0], R3[0]]})
    assert offered(st) == {((G1[0],), False, False, False), ((G1[0], G1[1]), False, False, False),
                           ((Y2[0],), False, False, False), ((R3[0],), False, False, False)}
    assert legal_actions(st, "b") == [] and legal_actions(st, None) == [Timeout()]
    assert len(legal_actions(st, "a")) == len(set(legal_actions(st, "a")))  # each once
    arrange(st, hands={0: [G1[0], G2[0]]})
    assert offered(st) == {((G1[0],), False, False, False), ((G2[0],), False, False, False),
                           ((G1[0], G2[0]), False, False, False)}  # the whole hand, when one colour


def test_C5_at_a_store_any_colours_up_to_five_besides_single_colour_turns():
    st = game("SST" + "." * 30 + "F", n=3, preset="rr-base")
    arrange(st, order=(0, 1, 2), hands={0: [G1[0], Y2[0], R3[0]]}, pos={0: 2, 1: 0, 2: 0})
    plays = offered(st)
    singles = {((c,), False, False, False) for c in (G1[0], Y2[0], R3[0])}
    store = {(tuple(sorted(cards)), True, False, False) for cards in
             [(G1[0],), (Y2[0],), (R3[0],), (G1[0], Y2[0]), (G1[0], R3[0]), (Y2[0], R3[0]), (G1[0], Y2[0], R3[0])]}
    assert plays == singles | store
    normal = {p.cards: p.normal for p in legal_actions(st, "a") if isinstance(p, Play) and not p.store}
    # C10.5: the default is the turn that draws more; a normal turn is marked where it is not the default
    # (red: a normal turn draws 0, a store turn 1)
    assert normal == {(G1[0],): False, (Y2[0],): False, (R3[0],): True}
    assert not any(p.normal for p in legal_actions(st, "a") if isinstance(p, Play) and p.store)
    arrange(st, hands={0: [G1[0], G1[1], G2[0], Y2[0], Y3[0], R3[0], R4[0]]})
    store_plays = [p.cards for p in legal_actions(st, "a") if isinstance(p, Play) and p.store]
    assert max(map(len, store_plays)) == 5 and len(store_plays) == len(set(store_plays))  # up to 5, each once


def test_C5_ending_on_a_shortcut_offers_the_road_and_the_shortcut():
    st = game("SS.D>.D.<" + "." * 12 + "F", n=3, preset="rr-base")
    arrange(st, order=(0, 1, 2), hands={0: [G2[0], G2[1], Y3[0]]}, pos={0: 0, 1: 0, 2: 0})
    assert offered(st) == {((G2[0],), False, False, False), ((G2[0], G2[1]), False, False, False),
                           ((G2[0], G2[1]), False, True, False), ((Y3[0],), False, False, False)}


def test_C10_4_a_shortcut_ending_on_gas_offers_drawing_first_only_when_taken():
    from dataclasses import replace

    from bot.engine.roadrally.road import SpaceKind

    st = game("SS.D>.D.<" + "." * 12 + "F", n=3, preset="rr-standard")
    spaces = list(st.road.spaces)
    spaces[8] = replace(spaces[8], kind=SpaceKind.GAS)
    st.road = replace(st.road, spaces=tuple(spaces))
    arrange(st, order=(0, 1, 2), hands={0: [G2[0], G2[1]]}, pos={0: 0, 1: 0, 2: 0})
    assert offered(st) == {((G2[0],), False, False, False), ((G2[0], G2[1]), False, False, False),
                           ((G2[0], G2[1]), False, True, False), ((G2[0], G2[1]), False, True, True)}


def test_AMB_R1_landing_on_gas_offers_drawing_first_only_where_the_preset_lets_the_player_choose():
    text = "SS.G" + "." * 20 + "F"
    for preset, choice in (("rr-standard", True), ("rr-base", False)):
        st = game(text, n=3, preset=preset)
        arrange(st, order=(0, 1, 2), hands={0: [G1[0], Y3[0]]}, pos={0: 0, 1: 0, 2: 0})
        expected = {((G1[0],), False, False, False), ((Y3[0],), False, False, False)}
        if choice:
            expected.add(((Y3[0],), False, False, True))
        assert offered(st) == expected


def test_C10_8_a_seat_is_offered_to_play_a_stage_card_only_when_it_holds_it():
    st = _three("rr-base")
    arrange(st, hands={1: [G1[1]], 2: [G1[2]]}, stages={0: [1], 1: [9], 2: [10]})
    for seat, card in (("a", Y3[0]), ("b", G1[1]), ("c", G1[2])):
        st, _ = apply(st, seat, Play((card,)))
    assert legal_actions(st, "a") == [StageAnswer(1, False), StageAnswer(1, True)]
    assert legal_actions(st, "b") == [StageAnswer(1, False)]
    assert legal_actions(st, "x") == []


def test_C6_3_a_choice_is_points_or_cards():
    st = game(ROAD, n=3, preset="rr-base")
    st.phase, st.choices, st.pending = "choose", [(0, 2, False)], [1]
    assert legal_actions(st, "a") == [Choose("vp"), Choose("cards")]
