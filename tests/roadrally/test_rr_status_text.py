"""Road Rally USA as text (RULES C3-C8, C10.8): `/rally status`, the channel's prompt, `/hand` and
the classification. The public texts are built from what a spectator may see: the same when every
secret of the state is different, the same from a seat's view, and a stage window's prompt is the
same whoever holds the card."""

from __future__ import annotations

import pytest

from bot.engine.roadrally.actions import Action, Play
from bot.engine.roadrally.play import apply, final_vp, ranking
from bot.engine.roadrally.presets import preset
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.status_text import hand_lines, prompt_lines, results_lines, status_lines
from bot.engine.roadrally.view import view
from bot.engine.roadrally.words import parse
from bot.i18n import render
from tests.roadrally.helpers import G1, G2, R3, R4, Y2, Y3, arrange, game
from tests.roadrally.text_helpers import NAMES, scrambled, steps

PUBLIC = (status_lines, prompt_lines, results_lines)
ROAD = "SS.D.D.D" + "." * 20 + "F"


def _every(lines: list[str]) -> list[str]:
    return [*lines, *(render(line, lang) for line in lines for lang in ("fr", "de"))]


def test_public_texts_show_nothing_secret_along_whole_games():
    """C10.8: scrambling every hand, deck order, stage card and stage answer leaves the status, the
    prompt and the classification identical (in every language), and a seat's view reads the same."""
    phases = set()
    compared = differ = 0
    for n, (st, seat, _) in enumerate(steps()):
        if n % 3:
            continue
        secret = scrambled(st)
        differ += [(s.hand, s.deck, s.stage_cards) for s in secret.seats] != \
            [(s.hand, s.deck, s.stage_cards) for s in st.seats]
        phases.add(st.phase)
        for text in PUBLIC:
            shown = _every(text(view(st, None), NAMES))
            assert shown == _every(text(view(secret, None), NAMES))
            for s in st.seats:
                assert text(view(st, s.id), NAMES) == shown[:len(shown) // 3]
            assert all("roadrally." not in line for line in shown)
            compared += 1
    assert phases == {"turn", "reshuffle", "mechanic", "stage", "choose", "over"} and compared > 300 and differ > 100


def _window_with_holder(holder: int | None) -> RRState:
    """Stage 1 being asked (C6.2) with its card held by seat `holder` (None: by nobody)."""
    st = game(ROAD, n=3)
    hands = {i: [G1[0], G2[0], Y2[0], Y3[0], R3[0], R4[0]] for i in range(3)}
    stages = {i: ([1] if i == holder else [12 + i]) + [5 + i] for i in range(3)}  # 2 each: the counts are public
    arrange(st, order=(0, 1, 2), hands=hands, pos={i: 0 for i in range(3)}, stages=stages)
    st, _ = apply(st, "a", Play((Y3[0],)))
    st, _ = apply(st, "b", Play((G1[0],)))
    st, _ = apply(st, "c", Play((G1[0],)))
    assert st.phase == "stage" and st.pending == [1]
    return st


def test_a_stage_windows_prompt_names_no_seat_and_is_the_same_whoever_holds_the_card():
    """C10.8: every seat is asked at once with the same words; nobody learns who holds the card."""
    prompts = {holder: prompt_lines(view(_window_with_holder(holder), seat), NAMES)
               for holder in (0, 1, 2, None) for seat in ("a", "b", "c", None)}
    assert len({tuple(_every(p)) for p in prompts.values()}) == 1
    prompt = next(iter(prompts.values()))
    assert prompt == ["Stage 1 is being scored: every driver answers privately with `/hand` "
                      "(the holder of its card may reveal it; everyone else passes)."]
    assert not any(name in line for line in _every(prompt) for name in NAMES.values())
    statuses = {tuple(status_lines(view(_window_with_holder(h), None), NAMES)) for h in (0, 1, 2, None)}
    assert len(statuses) == 1


def test_hand_lines_are_the_seats_own_and_say_what_it_is_asked():
    """C6.2, C10.8: the holder may reveal or keep its card secret; the others pass; an answer given
    is the seat's own; a spectator has no hand."""
    st = _window_with_holder(0)
    holder, other = hand_lines(view(st, "a"), NAMES), hand_lines(view(st, "b"), NAMES)
    assert holder[0].startswith("Your hand: ") and "🟥4" in holder[0] and "🟥4" not in other[-1]
    assert holder[1] == "Your unscored stage cards (secret): 1, 5"
    assert holder[-1].startswith("You hold the card of stage 1: reveal it") and "`reveal 1`" in holder[-1]
    assert other[1] == "Your unscored stage cards (secret): 6, 13"
    assert other[-1] == "You don't hold the card of stage 1: answer `pass`."
    st, _ = apply(st, "b", _answer(st, "b", "pass"))
    assert hand_lines(view(st, "b"), NAMES)[-1] == "Stage 1: you answered `pass`. Waiting for the other drivers."
    st, _ = apply(st, "a", _answer(st, "a", "reveal 1"))
    assert hand_lines(view(st, "a"), NAMES)[-1].startswith("Stage 1: you answered that you reveal its card.")
    assert hand_lines(view(st, None), NAMES) == ["You are not a player of this game."]
    for lang in ("fr", "de"):
        assert all("roadrally." not in render(line, lang) for line in holder + other)


def _answer(st: RRState, seat: str, text: str) -> Action:
    return parse(text, view(st, seat))


def test_hand_lines_in_a_turn_show_the_cards_and_whose_turn_it_is():
    """C4: the seat to play is told to play from its own hand; the others whom they wait for."""
    st = arrange(game(ROAD, preset="rr-standard"), order=(1, 0, 2), hands={1: [Y3[0], G2[0], G1[1]]},
                 pos={0: 0, 1: 0, 2: 0})
    mine = hand_lines(view(st, "b"), NAMES)
    assert mine[0] == "Your hand: 🟩1 🟩2 🟨3"
    assert mine[-1].startswith("Your turn: play cards of one colour, e.g. `play g1`")
    assert hand_lines(view(st, "a"), NAMES)[-1] == "Not your turn: waiting for Bör."
    assert prompt_lines(view(st, None), NAMES) == [
        "Bör's turn: play movement cards of one colour. See your cards with `/hand`."]


def test_a_turn_starting_on_a_general_store_says_what_the_store_allows():
    """C5 General Store: up to 5 cards of any colours, then exactly 1 drawn (the preset's numbers)."""
    st = arrange(game("SS.T" + "." * 20 + "F", preset="rr-standard"), order=(0, 1, 2), pos={0: 3, 1: 0, 2: 0})
    assert prompt_lines(view(st, None), NAMES)[1] == \
        "The car starts on a General Store: it may play up to 5 cards of any colours and then draw 1."
    assert render(prompt_lines(view(st, None), NAMES)[1], "fr").startswith("La voiture part d'un Magasin Général")


def test_a_mechanics_cards_are_shown_only_to_its_seat():
    """C5 Mechanic, C10.8: the looked-at cards in /hand, an example order; the prompt counts them."""
    st = arrange(game("SS..M" + "." * 20 + "F", preset="rr-standard"), order=(0, 1, 2),
                 hands={0: [Y3[0], G1[0]]}, decks={0: [G1[2], R4[0], G1[1]]}, pos={0: 1, 1: 0, 2: 0})
    st, _ = apply(st, "a", Play((Y3[0],)))
    lines = hand_lines(view(st, "a"), NAMES)
    assert "Top of your draw deck, top first: 🟩1 🟥4 🟩1 — give their new order, e.g. `order g1 r4 g1`." in lines
    assert not any(line.startswith("Top of your draw deck") for line in hand_lines(view(st, "b"), NAMES))
    assert prompt_lines(view(st, None), NAMES) == [
        "Ann is at the Mechanic: put the top 3 cards of the draw deck back in any order. See them with `/hand`."]


@pytest.mark.parametrize("spec", [("long", 4, "rr-standard", 4, False), ("std-11", 5, "rr-base", 9, False),
                                  ("sprint-3", 3, "rr-standard", 2, True)])
def test_the_classification_follows_the_engines_ranking_and_final_vp(spec):
    """C8: final VP = VP tiles + 2 per stage tile + 2 per checkpoint; ties to the car further ahead."""
    final = None
    for st, seat, _ in steps((spec,)):
        if not seat:
            final = st
    assert final is not None and final.phase == "over"
    lines = results_lines(view(final, None), NAMES)
    assert lines[0] == "**Final classification** (C8)"
    vp = final_vp(final)
    p = preset(final.preset.name)
    for rank, (line, sid) in enumerate(zip(lines[1:], ranking(final), strict=True), 1):
        s = final.seats[final.index(sid) or 0]
        assert line.startswith(f"{rank}. **{NAMES[sid]}** — {vp[sid]} VP (VP tiles {s.vp} + stage tiles "
                               f"{len(s.stage_tiles)} × {p.tile_vp} + checkpoints {s.checkpoints} × {p.checkpoint_vp})")
        assert ("finished, mark" in line) == (s.mark is not None)


def test_a_retired_seat_is_classified_last_and_status_says_so():
    st = game(ROAD, n=3)
    st.seats[0].vp = 30
    st.seats[0].retired = True
    lines = results_lines(view(st, None), NAMES)
    assert lines[0] == "**Standings so far** (C8: the game is not over)"
    assert lines[-1].startswith("3. **Ann** — 30 VP") and lines[-1].endswith("· retired")
    assert status_lines(view(st, None), NAMES)[-1] == "— **Ann** — retired"
