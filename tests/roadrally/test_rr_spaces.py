"""Special spaces of Road Rally USA (RULES C5, C10.1, C10.3-C10.5, OPEN-R2, AMB-R1)."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import NotAllowed
from bot.engine.roadrally import ai, words
from bot.engine.roadrally.actions import Order, Play
from bot.engine.roadrally.play import apply, legal_actions, to_act
from bot.engine.roadrally.presets import PRESETS, preset
from bot.engine.roadrally.view import view
from tests.roadrally.helpers import G1, G2, R3, R4, Y2, Y3, arrange, game, snap

#              0123456789...
CHECKS = "SS..C...C" + "." * 20 + "F"


def _st(text: str, preset: str = "rr-base", n: int = 3):
    st = game(text, n=n, preset=preset)
    return arrange(st, order=tuple(range(n)), hands={0: [G1[0], G2[0], Y2[0], Y3[0], R3[0]]},
                   decks={0: [G1[1], G1[2], Y2[1]], 1: [G1[3], G1[4], G2[1]], 2: [R4[0], R4[1], Y2[2]]},
                   pos={i: 0 for i in range(n)})


def test_a_checkpoint_is_taken_by_ending_there_and_the_last_car_draws_two():
    """C5, C10.1: ending the move on a checkpoint takes its tile; the car now last draws 2."""
    st = _st(CHECKS)
    hand_c = len(st.seats[2].hand)
    new, _ = apply(st, "a", Play((G2[0],)))
    assert new.seats[0].pos == 2 and new.seats[0].checkpoints == 0  # not on the flag: nothing
    st2 = arrange(_st(CHECKS), pos={0: 2})
    new, _ = apply(st2, "a", Play((G2[0],)))
    assert new.seats[0].pos == 4 and new.seats[0].checkpoints == 1 and 4 not in new.checkpoint_tiles
    last = new.race_order()[-1]
    assert len(new.seats[last].hand) == hand_c + 2


def test_base_passing_a_checkpoint_takes_nothing():
    """C5 (RR-EN): only a car ending its move there takes the tile."""
    st = _st(CHECKS)
    new, _ = apply(st, "a", Play((R3[0],)))  # 0 -> 3
    new2, _ = apply(arrange(_st(CHECKS)), "a", Play((Y3[0], Y2[0])))  # 0 -> 5, over the flag on 4
    assert new.seats[0].checkpoints == 0 and new2.seats[0].checkpoints == 0 and 4 in new2.checkpoint_tiles


def test_rr_fr_the_first_car_to_pass_takes_the_checkpoint():
    """C5 RR-FR demo, AMB-R3: the first car to pass the tile takes it."""
    st = _st(CHECKS, preset="rr-demo-fr")
    new, _ = apply(st, "a", Play((Y3[0], Y2[0])))  # 0 -> 5
    assert new.seats[0].checkpoints == 1 and 4 not in new.checkpoint_tiles and 8 in new.checkpoint_tiles


def test_the_car_that_takes_a_checkpoint_when_last_draws_the_two_itself():
    """C10.1: if the car that takes it is itself last, it draws them."""
    st = _st(CHECKS)
    arrange(st, pos={1: 10, 2: 10, 0: 2}, decks={0: [G1[1], G1[2], Y2[1], Y2[2], R4[0]]})
    new, _ = apply(st, "a", Play((G2[0],)))
    a = new.seats[0]
    assert a.checkpoints == 1 and new.race_order()[-1] == 0
    assert len(a.hand) == 5 - 1 + 2 + 2


GAS = "SS.G" + "." * 20 + "F"


def test_gas_shuffles_deck_and_discards_including_the_played_cards_then_draws():
    """C5 base, AMB-R1, C10.3: played cards are discarded first, then all is shuffled, then the draw."""
    st = _st(GAS)
    new, _ = apply(st, "a", Play((Y3[0],)))  # 0 -> 3 (gas)
    a = new.seats[0]
    assert a.discard == [] and Y3[0] not in a.hand
    assert len(a.hand) == 5 and len(a.deck) == 16 and sorted(a.hand + a.deck) == list(range(21))


def test_standard_gas_may_draw_before_the_shuffle():
    """C5 standard, AMB-R1: the player may draw his cards before shuffling."""
    st = _st(GAS, preset="rr-standard")
    new, _ = apply(st, "a", Play((Y3[0],), draw_first=True))
    a = new.seats[0]
    assert a.hand[-1] == G1[1]  # the old top card
    assert a.discard == [] and len(a.deck) == 16
    assert any(p.draw_first for p in legal_actions(st, "a") if isinstance(p, Play))


STORE = "SST" + "." * 30 + "F"


def test_a_general_store_turn_plays_up_to_five_cards_of_any_colours_and_draws_one():
    """C5: starting on a General Store: up to 5 cards of any colours; draws exactly 1."""
    st = arrange(_st(STORE), pos={0: 2})
    cards = (G1[0], G2[0], Y2[0], Y3[0], R3[0])
    new, _ = apply(st, "a", Play(cards, store=True))
    assert new.seats[0].pos == 2 + 11 and new.seats[0].hand == [G1[1]]


def test_a_store_turn_with_greens_still_draws_one_and_a_normal_turn_draws_two():
    """C5, C10.5: a single-colour play at the Store: store turn (draw 1) or normal turn (normal draw)."""
    st = arrange(_st(STORE), pos={0: 2})
    store, _ = apply(st, "a", Play((G1[0],), store=True))
    normal, _ = apply(st, "a", Play((G1[0],)))
    assert len(store.seats[0].hand) == 5 and len(normal.seats[0].hand) == 6


def test_store_refusals_leave_the_state_unchanged():
    """C5: more than 5 cards at the Store; a store turn not started on a Store; mixed colours otherwise."""
    st = arrange(_st(STORE), pos={0: 2}, hands={0: [G1[0], G2[0], Y2[0], Y3[0], R3[0], R4[0]]})
    before = snap(st)
    for action, key in [(Play((G1[0], G2[0], Y2[0], Y3[0], R3[0], R4[0]), store=True), "roadrally.too_many_cards"),
                        (Play((G1[0], Y2[0])), "roadrally.mixed_colours")]:
        with pytest.raises(NotAllowed) as err:
            apply(st, "a", action)
        assert err.value.message.key == key and snap(st) == before


MECH = "SS..M" + "." * 20 + "F"


def test_the_mechanic_reorders_the_top_five_then_draws():
    """C5: before drawing, look at the top 5 (all if fewer), reorder them, then draw by colour."""
    st = _st(MECH)
    arrange(st, decks={0: [G1[1], G1[2], Y2[1], Y2[2], R4[0], R4[1]]})
    new, _ = apply(st, "a", Play((Y2[0],)))
    assert new.seats[0].pos == 2  # yellow 2: not yet on the Mechanic
    st = arrange(_st(MECH), decks={0: [G1[1], G1[2], Y2[1], Y2[2], R4[0], R4[1]]}, pos={0: 2})
    new, _ = apply(st, "a", Play((G2[0],)))  # 2 -> 4, green: draw 2 after the reorder
    assert new.phase == "mechanic" and to_act(new) == {"a"}
    assert len(new.seats[0].hand) == 4
    done, _ = apply(new, "a", Order((R4[0], Y2[2], Y2[1], G1[2], G1[1])))
    assert done.seats[0].hand[-2:] == [R4[0], Y2[2]] and done.seats[0].deck == [Y2[1], G1[2], G1[1], R4[1]]
    before = snap(new)
    for bad in [(R4[0], Y2[2]), (R4[1], Y2[2], Y2[1], G1[2], G1[1]), (R4[0], R4[0], Y2[1], G1[2], G1[1])]:
        with pytest.raises(NotAllowed) as err:
            apply(new, "a", Order(bad))
        assert err.value.message.key == "roadrally.bad_order" and snap(new) == before
    with pytest.raises(NotAllowed) as err:
        apply(new, "a", Play((G1[0],)))
    assert err.value.message.key == "roadrally.expected_order" and snap(new) == before


#          0123456789
SHORT = "SS.D>.D.<.." + "." * 10 + "F"


def test_a_shortcut_jumps_to_its_end_bypassing_the_stages_on_the_road():
    """C5, OPEN-R2, C10.4: ending exactly on its start, the car may move to its end space; stage
    tiles on the bypassed road are not reached; the end space is where it stopped."""
    st = _st(SHORT)
    assert st.stage_tiles == {3: 1, 6: 2}
    new, _ = apply(st, "a", Play((Y3[0],)))  # 0 -> 3, stopped on stage 1
    assert new.seats[0].pos == 3 and new.reached == {1}
    st = arrange(_st(SHORT), hands={0: [G2[0], G2[1], Y2[0]]})
    new, _ = apply(st, "a", Play((G2[0], G2[1]), shortcut=True))  # 0 -> 4 (shortcut) -> 8
    assert new.seats[0].pos == 8 and new.reached == {1}
    road, _ = apply(st, "a", Play((G2[0], G2[1])))
    assert road.seats[0].pos == 4 and road.reached == {1}


def test_the_shortcuts_end_space_applies_its_effect_and_is_where_the_car_stopped():
    """OPEN-R2, C10.4: effects of the end space apply (a checkpoint there is taken; a stage there is
    reached as the space the car stopped on)."""
    from dataclasses import replace

    from bot.engine.roadrally.road import SpaceKind

    st = _st(SHORT)
    spaces = list(st.road.spaces)
    spaces[8] = replace(spaces[8], kind=SpaceKind.CHECKPOINT)
    st.road = replace(st.road, spaces=tuple(spaces))
    st.checkpoint_tiles = {8}
    arrange(st, hands={0: [G2[0], G2[1], Y2[0]]})
    new, _ = apply(st, "a", Play((G2[0], G2[1]), shortcut=True))
    assert new.seats[0].pos == 8 and new.seats[0].checkpoints == 1
    st.stage_tiles[8] = 5
    new, _ = apply(st, "a", Play((G2[0], G2[1]), shortcut=True))
    assert new.reached == {1, 5}


def test_C10_5_the_ai_takes_a_store_turn_when_it_draws_more():
    """C5, C10.5: from a General Store the AI plays the turn that draws more: reds draw 0 in a
    normal turn, 1 in a store turn."""
    st = arrange(_st(STORE), pos={0: 2}, hands={0: [R3[0], R4[0]]})
    action = ai.choose(view(st, "a"))
    assert isinstance(action, Play) and action.store and set(action.cards) == {R3[0], R4[0]}
    new, _ = apply(st, "a", action)
    assert len(new.seats[0].hand) == 1  # drew the store's one card


def test_C10_5_the_store_default_is_a_preset_field_with_the_rulebook_value():
    assert all(preset(name).store_default == "more_draws" for name in PRESETS)


def test_C10_5_a_play_from_the_store_that_says_nothing_is_the_turn_that_draws_more():
    """C5, C10.5: reds typed without `store` on a General Store are a store turn (draw 1, not 0);
    `normal` says the normal turn; greens typed so stay a normal turn (draw 2, not 1)."""
    st = arrange(_st(STORE), pos={0: 2}, hands={0: [R3[0], R4[0], G1[0]]})
    v = view(st, "a")
    assert words.parse("play r3 r4", v) == Play((R3[0], R4[0]), store=True)
    assert words.parse("play r3 r4 normal", v) == Play((R3[0], R4[0]), normal=True)
    assert words.parse("play g1", v) == Play((G1[0],))
    new, _ = apply(st, "a", words.parse("play r3 r4", v))
    assert len(new.seats[0].hand) == 2  # the green left and the store's one card
    before = snap(st)
    with pytest.raises(NotAllowed) as err:
        apply(st, "a", Play((R3[0],), store=True, normal=True))
    assert err.value.message.key == "roadrally.store_or_normal" and snap(st) == before
    away = _st(STORE)  # not on the Store: `normal` means nothing there
    with pytest.raises(NotAllowed) as err:
        apply(away, "a", Play((G1[0],), normal=True))
    assert err.value.message.key == "roadrally.no_store_here"
