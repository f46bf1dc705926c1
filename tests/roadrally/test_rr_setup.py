"""Setting up a Road Rally USA game (RULES C2, C3, C7, C9, C10.7, OPEN-R3)."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.roadrally.play import new_game, to_act
from bot.engine.roadrally.presets import DECK_A, DECK_B
from tests.roadrally.helpers import SEATS, game
from tests.roadrally.roads import LONG, road


def test_each_player_has_a_shuffled_deck_and_five_cards_in_hand():
    """C2: own deck shuffled, 5 cards in hand."""
    st = game(LONG, n=4)
    for s in st.seats:
        assert len(s.hand) == 5 and len(s.deck) == 16 and s.discard == []
        assert sorted(s.hand + s.deck) == list(range(21))
    assert len({tuple(s.hand + s.deck) for s in st.seats}) > 1  # each deck shuffled on its own


@pytest.mark.parametrize("n", [3, 4, 5])
def test_base_deals_four_stage_cards_from_a_and_b_shuffled_together(n):
    """C2: 4 stage cards each from decks A+B together; no card dealt twice."""
    st = game(LONG, n=n, preset="rr-base")
    cards = [c for s in st.seats for c in s.stage_cards]
    assert all(len(s.stage_cards) == 4 for s in st.seats)
    assert len(set(cards)) == len(cards) and set(cards) <= set(DECK_A + DECK_B)


@pytest.mark.parametrize(("n", "count"), [(3, 6), (4, 5), (5, 4)])
def test_standard_deals_by_player_count_half_from_each_deck(n, count):
    """C7: 3 -> 6, 4 -> 5, 5 -> 4; half from deck A, half from deck B (4 players: 2 + 2 and a 5th)."""
    for seed in range(5):
        st = game(LONG, n=n, preset="rr-standard", seed=seed)
        cards = [c for s in st.seats for c in s.stage_cards]
        assert len(set(cards)) == len(cards)
        for s in st.seats:
            assert len(s.stage_cards) == count
            a = sum(1 for c in s.stage_cards if c in DECK_A)
            assert a >= count // 2 and count - a >= count // 2


def test_sprint_deals_two_cards_from_deck_b_and_places_tiles_11_on():
    """C9, C10.7: 2 stage cards from deck B; stage tiles 11-21 in road order, 11 nearest the start."""
    st = game(LONG, n=5, preset="rr-standard", sprint=True)
    assert all(len(s.stage_cards) == 2 and set(s.stage_cards) <= set(DECK_B) for s in st.seats)
    diners = st.road.diners()
    assert [st.stage_tiles[d] for d in diners] == list(range(11, 11 + len(diners)))
    assert st.card_limit() == 1


def test_stage_tiles_go_on_the_diners_in_road_order_from_1():
    """C2: stage tile 1 on the Diner nearest the start, then 2, 3 ..."""
    st = game(LONG)
    diners = st.road.diners()
    assert [st.stage_tiles[d] for d in diners] == list(range(1, len(diners) + 1))
    assert st.checkpoint_tiles == set(st.road.checkpoints())


def test_round_one_order_is_the_random_line_up_on_the_start_space():
    """OPEN-R3, C3: cars lined up at random on the start tile; that line is round 1's order and the
    in-space order; the first of the line acts first."""
    orders = set()
    for seed in range(8):
        st = game(LONG, n=4, seed=seed)
        assert all(s.pos == 0 for s in st.seats)
        assert st.race_order() == st.order
        assert to_act(st) == {st.seats[st.order[0]].id}
        orders.add(tuple(st.order))
    assert len(orders) > 1


@pytest.mark.parametrize("seats", [SEATS[:2], SEATS[:5] + ("f",), ("a", "a", "b")])
def test_three_to_five_different_seats(seats):
    """C1: 3-5 players."""
    with pytest.raises(RallyError) as err:
        new_game(road(LONG), seats)
    assert err.value.message.key == "roadrally.seats"
