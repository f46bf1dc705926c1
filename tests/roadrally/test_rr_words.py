"""Road Rally USA's actions as words (RULES C4-C6, C10, D3): the canonical English label of every
action reads back to that action from the seat's own view, along whole AI games; French and German
words read the same; every refusal is specific, names its card or stage, and changes nothing."""

from __future__ import annotations

import re

import pytest

from bot.engine.core.errors import CannotParse, NotAllowed, RallyError
from bot.engine.roadrally.actions import Choose, Order, Play, Reshuffle, Retire, StageAnswer, Timeout
from bot.engine.roadrally.play import apply, legal_actions, to_act
from bot.engine.roadrally.presets import preset
from bot.engine.roadrally.view import RRView, view
from bot.engine.roadrally.words import CARD_MARK, card_code, card_text, label, parse
from tests.roadrally.helpers import G1, G2, R3, R4, Y2, Y3, arrange, game, snap
from tests.roadrally.text_helpers import steps

DECK = preset("rr-standard").deck()
ROAD = "SS.D.D.D" + "." * 20 + "F"


def _kinds(cards: tuple[int, ...]) -> list[tuple[str, int]]:
    return [DECK[c] for c in cards]


def _same(parsed: object, action: object, v: RRView) -> bool:
    """Equal; or, for a Mechanic's order naming the looked-at cards in their present order, the
    deck kept as it is (C5: identical cards are interchangeable, so that label has one meaning)."""
    if parsed == action:
        return True
    if isinstance(action, Order) and isinstance(parsed, Order) and v.me is not None:
        top = tuple(c for c, _, _ in v.me.mechanic_top)
        return _kinds(action.cards) == _kinds(top) and parsed.cards == top
    return False


FR = {"play": "jouer", "store": "magasin", "shortcut": "raccourci", "draw": "piocher", "reshuffle": "mélanger",
      "skip": "garder", "order": "ordre", "reveal": "révéler", "pass": "passer", "points": "points",
      "cards": "cartes", "retire": "abandon", "g": "v", "y": "j", "r": "r"}
DE = {"play": "spielen", "store": "laden", "shortcut": "abkürzung", "draw": "ziehen", "reshuffle": "mischen",
      "skip": "behalten", "order": "reihenfolge", "reveal": "aufdecken", "pass": "passen", "points": "punkte",
      "cards": "karten", "retire": "aufgeben", "g": "gr", "y": "ge", "r": "ro"}
COLOUR_WORDS = {"fr": {"g": "vert", "y": "jaune", "r": "rouge"}, "de": {"g": "Grün", "y": "GELB", "r": "rot"}}


def _translated(text: str, words: dict[str, str], glued: bool, lang: str) -> str:
    """A label in other words: the verbs and flags translated, the card codes with the language's
    code letters (`v2`, `gr2`) or its colour words (`vert 2`, `Grün 2`)."""
    out = []
    for word in text.split():
        code = re.fullmatch(r"([gyr])(\d)", word)
        if code and glued:
            out.append(words[code.group(1)] + code.group(2))
        elif code:
            out.append(f"{COLOUR_WORDS[lang][code.group(1)]} {code.group(2)}")
        else:
            out.append(words.get(word, word))
    return " ,".join(out) if lang == "de" else "  ".join(out).upper()


def test_cards_read_as_codes_and_marks():
    """C1 (OPEN-R1 mix): ids 0-4 green 1 … 19-20 red 4, the same in every deck."""
    assert [card_code(c) for c in (0, 5, 9, 13, 16, 19)] == ["g1", "g2", "y2", "y3", "r3", "r4"]
    assert card_text(0) == f"{CARD_MARK['green']}1" == "🟩1" and card_text(20) == "🟥4"
    assert all(card_code(c) == f"{colour[0]}{value}" for c, (colour, value) in enumerate(DECK))


def test_labels_are_the_canonical_english_words():
    assert label(Play((14, 0, 1), store=True, shortcut=True, draw_first=True)) == "play g1 g1 y3 store shortcut draw"
    assert label(Play((19, 5, 9), store=True)) == "play g2 y2 r4 store"  # green → yellow → red, then value
    assert label(Reshuffle(True)) == "reshuffle" and label(Reshuffle(False)) == "skip"
    assert label(Order((13, 0, 19))) == "order y3 g1 r4"  # the action's order: top first
    assert label(StageAnswer(7, True)) == "reveal 7" and label(StageAnswer(7, False)) == "pass"
    assert label(Choose("vp")) == "points" and label(Choose("cards")) == "cards"
    assert label(Retire("a")) == "retire" and label(Timeout()) == "timeout"


def test_every_legal_action_reads_back_from_its_label_along_whole_games():
    """C4-C6, C10.8: parse(label(a), the seat's view) == a for every legal action of every seat to
    act, along whole AI games of every preset; the same in French and German words."""
    checked: set[str] = set()
    count = 0
    for st, _, _ in steps():
        for seat in sorted(to_act(st)):
            v = view(st, seat)
            for action in legal_actions(st, seat):
                text = label(action)
                assert _same(parse(text, v), action, v), (text, action)
                if count % 7 == 0:  # every 7th also in French and German words, codes and colour words
                    for lang, words in (("fr", FR), ("de", DE)):
                        for glued in (True, False):
                            other = _translated(text, words, glued, lang)
                            assert _same(parse(other, v), action, v), (other, action)
                count += 1
                checked.add(type(action).__name__)
    assert checked == {"Play", "Reshuffle", "Order", "StageAnswer", "Choose"} and count > 2000


def test_a_play_takes_the_lowest_ids_of_each_card_named_and_the_same_code_twice_means_two_cards():
    """C4: identical cards are interchangeable; the ids are the ones `legal_actions` offers."""
    st = arrange(game(ROAD, preset="rr-standard"), order=(0, 1, 2),
                 hands={0: [G1[3], G1[1], G2[2], Y3[0], R4[1]]}, pos={0: 0, 1: 0, 2: 0})
    v = view(st, "a")
    assert parse("play g1 g1", v) == Play((G1[1], G1[3]))
    assert parse("/Play G1, g2", v) == Play((G1[1], G2[2]))
    assert parse("g1 g2 shortcut draw", v) == Play((G1[1], G2[2]), shortcut=True, draw_first=True)  # a bare list
    assert parse("jouer vert 1 v2 raccourci piocher", v) == Play((G1[1], G2[2]), shortcut=True, draw_first=True)
    assert parse("spielen grün 1 gruen 2 ABKUERZUNG ziehen", v) == Play((G1[1], G2[2]), shortcut=True, draw_first=True)
    assert parse("play r4 y3 magasin", v) == Play((Y3[0], R4[1]), store=True)
    assert parse("play ro4 ge3 laden", v) == parse("jouer rouge 4 jaune 3 store", v) == Play((Y3[0], R4[1]), True)
    assert parse("gelb 3", v) == parse("j3", v) == parse("yellow 3", v) == Play((Y3[0],))


def test_the_other_answers_in_every_language():
    """C4 reshuffle, C6.2 stage answer, C6.3 choice, retiring: EN, FR and DE words."""
    st = game(ROAD, preset="rr-standard")
    v = view(st, "b")
    for words, action in ((("reshuffle", "mélanger", "melanger", "mischen"), Reshuffle(True)),
                          (("skip", "garder", "behalten"), Reshuffle(False)),
                          (("points", "vp", "punkte", "Points"), Choose("vp")),
                          (("cards", "cartes", "karten"), Choose("cards")),
                          (("retire", "abandon", "aufgeben"), Retire("b")), (("timeout",), Timeout())):
        for word in words:
            assert parse(word, v) == action, word


def _window() -> tuple:
    """Stage 1 being asked (C6.2): a holds its card."""
    st = game(ROAD, n=3)
    hands = {i: [G1[0], G2[0], Y2[0], Y3[0], R3[0], R4[0]] for i in range(3)}
    arrange(st, order=(0, 1, 2), hands=hands, pos={i: 0 for i in range(3)}, stages={0: [1], 1: [2], 2: [9]})
    st, _ = apply(st, "a", Play((Y3[0],)))
    st, _ = apply(st, "b", Play((G1[0],)))
    st, _ = apply(st, "c", Play((G1[0],)))
    assert st.phase == "stage" and st.pending == [1]
    return st


def test_stage_answers_name_the_stage_being_asked():
    """C6.2, C10.8: `reveal 1`, `reveal` (the one asked), `pass`, `stage 1 pass`, in every language."""
    st = _window()
    v = view(st, "a")
    for text in ("reveal 1", "reveal", "révéler 1", "REVELER", "aufdecken 1", "stage 1 reveal", "stage 1 play"):
        assert parse(text, v) == StageAnswer(1, True), text
    for text in ("pass", "pass 1", "passer", "passen 1", "stage 1 pass", "étape 1 passer", "etappe 1 passen"):
        assert parse(text, v) == StageAnswer(1, False), text
    st2, _ = apply(st, "b", parse("passen", view(st, "b")))  # a seat without the card passes too
    assert "b" not in to_act(st2)


def _refused(kind: type[RallyError], text: str, v: RRView, key: str) -> RallyError:
    before = repr(v)
    with pytest.raises(kind) as caught:
        parse(text, v)
    assert caught.value.message.key == key  # type: ignore[attr-defined]
    assert repr(v) == before
    return caught.value


def test_each_refusal_is_specific_and_changes_nothing():
    """C4, C6.2, C10.8: an unknown word, a card not in the hand (named), a stage not asked, a
    spectator, an order away from a Mechanic: each its own key; the state and the view unchanged."""
    st = arrange(game(ROAD, preset="rr-standard"), order=(0, 1, 2), hands={0: [G1[0], G2[0], Y3[0]]},
                 pos={0: 0, 1: 0, 2: 0})
    before = snap(st)
    v = view(st, "a")
    for text in ("fly g1", "play", "play store", "g9x", "play g1 banana", "points now", "reveal seven", "", "  "):
        _refused(CannotParse, text, v, "roadrally.cannot_parse")
    err = _refused(NotAllowed, "play r4", v, "roadrally.card_not_in_hand")
    assert err.message.params["card"] == "🟥4"  # type: ignore[attr-defined]
    err = _refused(NotAllowed, "play g1 g1", v, "roadrally.card_not_in_hand")  # only one green 1 in the hand
    assert err.message.params["card"] == "🟩1"  # type: ignore[attr-defined]
    _refused(NotAllowed, "reveal 7", v, "roadrally.stage_not_reached")  # no window open
    _refused(NotAllowed, "pass", v, "roadrally.no_stage_window")
    _refused(NotAllowed, "order g1 g2", v, "roadrally.no_mechanic_now")
    _refused(NotAllowed, "play g1", view(st, None), "roadrally.not_a_player")
    _refused(NotAllowed, "play g1", view(st, "zz"), "roadrally.not_a_player")
    assert snap(st) == before
    window = _window()
    before = snap(window)
    err = _refused(NotAllowed, "reveal 9", view(window, "a"), "roadrally.stage_not_reached")
    assert err.message.params["stage"] == 9  # type: ignore[attr-defined]
    _refused(NotAllowed, "stage 2 pass", view(window, "b"), "roadrally.stage_not_reached")
    assert snap(window) == before


def test_a_mechanic_order_names_the_looked_at_cards():
    """C5 Mechanic: the order is read from the seat's own look at its deck; a card not there is named."""
    st = arrange(game("SS..M" + "." * 20 + "F", preset="rr-standard"), order=(0, 1, 2),
                 hands={0: [Y3[0], G1[0]]}, decks={0: [G1[2], R4[0], G1[1], Y2[0], G2[0], G2[1]]},
                 pos={0: 1, 1: 0, 2: 0})
    st, _ = apply(st, "a", Play((Y3[0],)))
    assert st.phase == "mechanic"
    v = view(st, "a")
    assert parse("order r4 g1 g1 y2 g2", v) == Order((R4[0], G1[1], G1[2], Y2[0], G2[0]))
    assert parse("ordre g1 r4 g1 j2 v2", v) == Order((G1[2], R4[0], G1[1], Y2[0], G2[0]))  # as it is: kept
    assert parse("reihenfolge ro4 gr2 ge2 gr1 gr1", v) == Order((R4[0], G2[0], Y2[0], G1[1], G1[2]))
    before = snap(st)
    err = _refused(NotAllowed, "order r3 g1 g1 y2 g2", v, "roadrally.card_not_looked_at")
    assert err.message.params["card"] == "🟥3"  # type: ignore[attr-defined]
    _refused(NotAllowed, "order r4 r4 g1 y2 g2", v, "roadrally.card_not_looked_at")
    _refused(NotAllowed, "order g1", view(st, "b"), "roadrally.no_mechanic_now")  # not b's look
    assert snap(st) == before


def test_the_engine_refuses_the_rest_after_parsing():
    """C4: mixing colours outside a General Store is the engine's refusal, not the parser's."""
    st = arrange(game(ROAD, preset="rr-standard"), order=(0, 1, 2), hands={0: [G1[0], Y3[0]]},
                 pos={0: 0, 1: 0, 2: 0})
    action = parse("play g1 y3", view(st, "a"))
    assert action == Play((G1[0], Y3[0]))
    before = snap(st)
    with pytest.raises(NotAllowed) as caught:
        apply(st, "a", action)
    assert caught.value.message.key == "roadrally.mixed_colours"  # type: ignore[attr-defined]
    assert snap(st) == before
