"""What a spectator on a phone reads at a glance (items 3 and 4): a driver keeps one colour
for the whole rally, a spun car is marked, neutral is "N", the white die shows the letter the
reader types, a rally's board says which special it is ("SS2/3"), tires are shown with the weather
module, and the rally's last card says it is the rally classification, with its winner, each
special's winner marked and why a DNF is out."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw
from render_helpers import classic_board as render_board

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.board import board_view
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.game import apply, new_game
from bot.engine.rallyman.pictures import rally_card_subtitle
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.model import START
from bot.engine.rallyman.view import ResultRow, ResultsView
from bot.i18n import catalogue, render, t
from bot.render import palette as P
from bot.render.options import RenderOptions
from bot.render.rallyman.board import board_texts, board_window, map_frame
from bot.render.rallyman.cars import car_size
from bot.render.rallyman.dice import die_badge
from bot.render.rallyman.overlay import spin_mark_at
from bot.render.rallyman.placement import place_cars
from bot.render.rallyman.results import WINNER_MARK, results_texts
from bot.render.words import die_face, word
from bot.services.images import results_of
from tests.render.render_helpers import board, car, colour_count, decode, hill_stage

LANGS = ("en", "fr", "de")


def _rally_states(seed: int, modules: dict[str, bool] | None = None):
    """Boards of a 4-driver rally of two specials: (last state of SS1, first states of SS2)."""
    state = new_game("pinewood-sprint", ai_seats(4), seed=seed, modules=modules,
                     course=course_of(["pinewood-sprint", "black-moor"]))
    ss1 = state
    while state.course is not None and state.course.index == 0 and state.turn is not None:
        ss1 = state
        state, _ = apply(state, choose_action(state))
    return ss1, state


def test_a_driver_keeps_one_colour_in_every_special_though_the_start_order_changes():
    ss1, ss2 = _rally_states(4)
    order = lambda s: [c.id for c in sorted(s.cars, key=lambda c: c.seat)]  # noqa: E731
    assert ss2.course is not None and ss2.course.index == 1
    assert order(ss1) != order(ss2), "the seed must change the start order (A3) for this test to mean anything"
    first = {c.driver_id: c.colour for c in board_view(ss1).cars}
    second = {c.driver_id: c.colour for c in board_view(ss2).cars}
    assert first == second
    assert sorted(first.values()) == [0, 1, 2, 3]
    # the rally classification card gives the same colours as the boards
    final = results_of(ss2)
    assert {r.driver_id: r.colour for r in final.rows} == first


@pytest.mark.parametrize("lang", LANGS)
def test_a_rally_board_says_which_special_it_is(lang):
    _, ss2 = _rally_states(3)
    view = board_view(ss2)
    assert (view.special, view.specials) == (2, 2)
    head = [b.text for b in board_texts(ss2.stage, view, RenderOptions(lang=lang)) if b.what == "header round"]
    special = {"en": "SS2/2", "fr": "ES2/2", "de": "WP2/2"}[lang]  # the compact form of the texts ("SS2")
    assert head == [f"{special} · {word('round', lang, n=view.round)}"]


def test_a_single_special_board_shows_the_round_only():
    st = hill_stage()
    texts = board_texts(st, board(st, car("al", 0, 3), round=4), RenderOptions())
    assert [b.text for b in texts if b.what == "header round"] == ["Round 4"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_calls_a_round_as_the_texts_do(lang):
    status = render(t("status.header", lang, title="X", length=19, round=7), lang)
    assert word("round", lang, n=7).lower() in status.lower()


@pytest.mark.parametrize("lang", LANGS)
def test_the_white_die_shows_the_letter_the_reader_types(lang):
    letter = catalogue(lang)["word.white_face"]
    assert die_face("W", lang) == letter and die_face("4", lang) == "4"
    assert {"en": "W", "fr": "G", "de": "G"}[lang] == letter
    # drawn: the white die's badge differs from the English "W" exactly where the letter does
    def badge(face: str, in_lang: str) -> bytes:
        img = Image.new("RGB", (60, 60), (90, 90, 90))
        die_badge(img, ImageDraw.Draw(img), (30, 30), face, False, 40, in_lang)
        return img.tobytes()
    assert (badge("W", lang) == badge("W", "en")) == (letter == "W")


@pytest.mark.parametrize("lang", LANGS)
def test_neutral_is_n_in_the_gear_column(lang):
    st = hill_stage()
    texts = board_texts(st, board(st, car("al", 0, 6, gear=0, pose="spun"), car("bo", 1, 3, gear=3)),
                        RenderOptions(lang=lang))
    gears = {b.what: b.text for b in texts if b.what.startswith("row") and b.what.endswith(" gear")}
    assert gears == {"row 1 gear": "N", "row 2 gear": "3"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_car_on_the_start_line_in_its_turn_is_in_neutral_and_a_waiting_car_has_no_gear(lang):
    """As the status text: "al: start, neutral, 0:00" for the car to play, "bo: waiting to start"."""
    st = hill_stage()
    view = board(st, car("al", 0, START, gear=0, active=True), car("bo", 1, START, gear=0, status="waiting"))
    gears = {b.what: b.text for b in board_texts(st, view, RenderOptions(lang=lang))
             if b.what.startswith("row") and b.what.endswith(" gear")}
    assert gears == {"row 1 gear": word("neutral", lang), "row 2 gear": "—"}


def test_a_spun_car_carries_a_spin_mark():
    st = hill_stage()
    spun = board(st, car("al", 0, 6, gear=0, pose="spun"))
    normal = board(st, car("al", 0, 6, gear=0))
    options = RenderOptions()
    placed = place_cars(st, spun)
    layout, origin = board_window(st, spun, options, placed)
    frame = map_frame(layout, origin)
    mark = spin_mark_at(frame.px(placed[0].at), car_size(frame.ppu, options.scale)[0])
    centre = (round(mark[0]), round(mark[1]))
    with_mark = colour_count(decode(render_board(st, spun, options)), centre, 8, P.HAZARD_RED, tol=30)
    without = colour_count(decode(render_board(st, normal, options)), centre, 8, P.HAZARD_RED, tol=30)
    assert with_mark > 60 and without == 0


@pytest.mark.parametrize("lang", LANGS)
def test_tires_are_shown_with_the_weather_module_only(lang):
    st = hill_stage()
    options = RenderOptions(lang=lang)
    with_tires = board_texts(st, board(st, car("al", 0, 3, tires="snow"), car("bo", 1, 4, tires="asphalt")), options)
    shown = {b.what: b.text for b in with_tires if "tires" in b.what}
    assert shown == {"table head tires": word("tires", lang), "row 1 tires": word("tires_asphalt", lang),
                     "row 2 tires": word("tires_snow", lang)}
    without = board_texts(st, board(st, car("al", 0, 3), car("bo", 1, 4)), options)
    assert not [b for b in without if "tires" in b.what]
    ss1, _ = _rally_states(3, {"weather": True})
    assert {c.tires for c in board_view(ss1).cars} <= {"asphalt", "snow"}
    plain, _ = _rally_states(3)
    assert {c.tires for c in board_view(plain).cars} == {None}


def _final_rally_state():
    ss1, state = _rally_states(3)
    while state.turn is not None:
        state, _ = apply(state, choose_action(state))
    return state


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_card_of_a_rally_is_the_rally_classification_with_its_winner(lang):
    state = _final_rally_state()
    view = results_of(state, lang)
    winners = [r for r in view.rows if r.gap_s == 0]
    texts = results_texts(view, RenderOptions(lang=lang))
    assert texts[0].text == word("rally_classification", lang)
    subtitle = next(b.text for b in texts if b.what == "header status")
    assert all(w.name in subtitle for w in winners) and WINNER_MARK in subtitle
    assert word("winner.one" if len(winners) == 1 else "winner.other", lang, name="").strip(" :") in subtitle
    # each special's fastest time is marked, and only it
    marked = [b.text for b in texts if b.what.endswith("special_winner")]
    bests = [min(r.times[i] for r in view.rows if r.times[i] is not None) for i in range(2)]
    assert len(marked) >= 2 and all(b.startswith(WINNER_MARK) for b in marked)
    assert sum(1 for r in view.rows for i in range(2) if r.times[i] == bests[i]) == len(marked)


def test_a_card_after_a_special_that_is_not_the_last_says_results():
    ss1, ss2 = _rally_states(3)
    view = results_of(ss2, "en")
    assert view.title == "SS1 — Pinewood Sprint — Results"


@pytest.mark.parametrize("lang", LANGS)
def test_a_dnf_of_a_rally_says_why_without_being_cut(lang):
    reason = render(t("word.knocked_out", lang), lang)
    view = ResultsView(stage="pinewood-sprint", title=word("rally_classification", lang), columns=("SS1", "SS2"),
                       rows=(ResultRow(driver_id="a", name="alice", time_s=300, gap_s=0, times=(100, 200)),
                             ResultRow(driver_id="b", name="bob", status="dnf", times=(90, None), reason=reason)))
    dnf = [b for b in results_texts(view, RenderOptions(lang=lang)) if b.what.endswith("dnf")]
    assert [b.text for b in dnf] == [f"{word('dnf', lang)} · {reason}"]


def test_a_tie_for_the_rally_win_names_every_winner():
    """Two drivers on the same total share first place (RULES OPEN-5): the card names both."""
    view = results_of(_final_rally_state(), "en")
    best = min(r.time_s for r in view.rows if r.time_s is not None)
    tied = [r.model_copy(update={"time_s": best, "gap_s": 0}) if i < 2 else r for i, r in enumerate(view.rows)]
    assert render(rally_card_subtitle(tied), "en").startswith(f"Winners, tied: {tied[0].name} and {tied[1].name} · ")
    assert render(rally_card_subtitle(tied[1:]), "fr").startswith(f"Vainqueur : {tied[1].name} · ")
