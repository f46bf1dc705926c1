"""A Road Rally USA turn (RULES C3, C4, C10.2) and its refusals, each leaving the state unchanged."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import NotAllowed
from bot.engine.roadrally.actions import Play, Reshuffle, StageAnswer
from bot.engine.roadrally.play import apply, to_act
from tests.roadrally.helpers import G1, G2, R3, R4, Y2, Y3, arrange, game, snap


def _three(preset: str = "rr-base"):
    st = game(n=3, preset=preset)
    return arrange(st, order=(0, 1, 2), hands={0: [G1[0], G2[0], Y3[0], R4[0], R3[0]]},
                   decks={0: [G1[1], G1[2], Y2[0], Y2[1]]}, pos={0: 0, 1: 0, 2: 0})


@pytest.mark.parametrize(("cards", "moved", "drawn"), [
    ((G1[0], G2[0]), 3, 2),   # green: draw 2
    ((Y3[0],), 3, 1),         # yellow: draw 1
    ((R4[0], R3[0]), 7, 0),   # red: draw 0
])
def test_a_play_moves_the_sum_discards_and_draws_by_colour(cards, moved, drawn):
    """C4: move forward the sum of values; discard the played cards; draw green 2, yellow 1, red 0."""
    st = _three()
    new, _ = apply(st, "a", Play(cards))
    a = new.seats[0]
    assert a.pos == moved
    assert all(c in a.discard for c in cards) and not set(cards) & set(a.hand)
    assert len(a.hand) == 5 - len(cards) + drawn
    assert a.hand[5 - len(cards):] == [G1[1], G1[2], Y2[0]][:drawn]  # from the top of the deck
    assert to_act(new) == {"b"}


def test_an_arriving_car_goes_behind_those_already_there():
    """C4: arrival order within a space: cars ahead in a space are ahead for turn order."""
    st = _three()
    arrange(st, hands={1: [Y3[0], G1[0]]}, decks={1: []}, pos={2: 3})
    new, _ = apply(st, "a", Play((Y3[0],)))       # a arrives on 3 after c
    new, _ = apply(new, "b", Play((Y3[0],)))      # b arrives on 3 last
    assert [new.seats[i].id for i in new.race_order()] == ["c", "a", "b"]


def test_next_round_order_follows_the_race_position():
    """C3.1: the 1st car takes tile 1 ... the last "L"; C4: earlier arrivals ahead."""
    st = _three()
    arrange(st, hands={1: [R4[0], G1[0]], 2: [G1[0], Y2[0]]}, decks={1: [], 2: []})
    st, _ = apply(st, "a", Play((G1[0],)))        # a: 1
    st, _ = apply(st, "b", Play((R4[0],)))        # b: 4
    st, _ = apply(st, "c", Play((G1[0],)))        # c: 1, behind a
    assert st.round == 2 and [st.seats[i].id for i in st.order] == ["b", "a", "c"]
    assert to_act(st) == {"b"}


def test_out_of_gas_draws_what_remains_then_nothing():
    """C4: drawing more cards than remain draws what remains; an empty deck draws nothing."""
    st = _three()
    arrange(st, decks={0: [Y2[0]]})
    new, _ = apply(st, "a", Play((G1[0],)))
    assert len(new.seats[0].hand) == 5 and new.seats[0].deck == []
    arrange(new, order=(0, 1, 2))
    again, _ = apply(new, "a", Play((G2[0],)))
    assert len(again.seats[0].hand) == 4


def test_an_empty_hand_base_turn_reshuffles_and_draws_two_without_moving():
    """C4 (base, compulsory): empty hand: no move; deck + discards shuffled into a new deck; draw 2."""
    st = _three()
    arrange(st, hands={1: []}, decks={1: [Y2[0]]})
    new, _ = apply(st, "a", Play((G1[0],)))
    b = new.seats[1]
    assert b.pos == 0 and len(b.hand) == 2 and b.discard == [] and len(b.deck) == 19
    assert to_act(new) == {"c"}


def test_standard_asks_the_empty_hand_reshuffle_and_no_keeps_the_deck():
    """C4 (standard, optional): the player may not reshuffle: draws 2 from the deck as it is."""
    st = _three("rr-standard")
    arrange(st, hands={1: []}, decks={1: [Y2[0], Y2[1], Y2[2]]})
    new, _ = apply(st, "a", Play((G1[0],)))
    assert new.phase == "reshuffle" and to_act(new) == {"b"}
    kept, _ = apply(new, "b", Reshuffle(False))
    assert kept.seats[1].hand == [Y2[0], Y2[1]] and kept.seats[1].deck == [Y2[2]]
    shuffled, _ = apply(new, "b", Reshuffle(True))
    assert len(shuffled.seats[1].hand) == 2 and len(shuffled.seats[1].deck) == 19 - 0 and \
        shuffled.seats[1].discard == []


def _refused(st, seat, action, key):
    before = snap(st)
    with pytest.raises(NotAllowed) as err:
        apply(st, seat, action)
    assert err.value.message.key == key
    assert snap(st) == before


def test_refusals_leave_the_state_unchanged():
    """C4: cards not in the hand, mixed colours, no card, acting out of turn, a stage answer when no
    stage is being resolved (C6), and a play on an empty hand (standard)."""
    st = _three()
    _refused(st, "a", Play((G1[3],)), "roadrally.card_not_in_hand")
    _refused(st, "a", Play((G1[0], G1[0])), "roadrally.card_not_in_hand")
    _refused(st, "a", Play((G1[0], Y3[0])), "roadrally.mixed_colours")
    _refused(st, "a", Play(()), "roadrally.no_cards")
    _refused(st, "b", Play((G1[0],)), "roadrally.not_your_turn")
    _refused(st, "zed", Play((G1[0],)), "roadrally.not_a_player")
    _refused(st, "a", StageAnswer(3, True), "roadrally.stage_not_reached")
    _refused(st, "a", Play((G1[0],), store=True), "roadrally.no_store_here")
    _refused(st, "a", Play((G1[0],), shortcut=True), "roadrally.no_shortcut_here")
    _refused(st, "a", Play((G1[0],), draw_first=True), "roadrally.no_gas_choice")
    std = _three("rr-standard")
    arrange(std, hands={1: []})
    std, _ = apply(std, "a", Play((G1[0],)))
    _refused(std, "b", Play((G1[0],)), "roadrally.hand_empty")
    _refused(std, None, Play((G1[0],)), "roadrally.not_a_player")


def test_six_single_colour_cards_are_a_normal_turn():
    """C10.5: more than 5 cards of one colour is a normal turn (the 5-card limit is the Store's)."""
    st = _three()
    arrange(st, hands={0: [*G1, G2[0]]}, decks={0: [Y2[0], Y2[1], Y2[2]]})
    new, _ = apply(st, "a", Play((*G1, G2[0])))
    assert new.seats[0].pos == 7 and len(new.seats[0].hand) == 2
