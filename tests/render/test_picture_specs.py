"""Board and results images drawn from a spec built from the spectators' view are
the pictures the bot drew before from the whole state, pixel for pixel, in every language; and a
spec stored the old way (the whole snapshot: a post still owed at the upgrade) still delivers the
same picture, converted at delivery."""

from __future__ import annotations

import json
from typing import Any

import pytest
from render_helpers import classic_board as render_board
from render_helpers import classic_results as render_results

from bot.engine.core.text import Listed
from bot.engine.rallyman.actions import Retire
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.board import board_view, default_status
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.game import apply, new_game
from bot.engine.rallyman.out_reasons import out_reason_word
from bot.engine.rallyman.results import results_view
from bot.engine.rallyman.simulate import ai_seats, play_rally, play_stage
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.state import GameState
from bot.engine.rallyman.view import ResultsView
from bot.i18n import render, t
from bot.render.options import RenderOptions
from bot.services.images import PillowRenderer, board_spec, current, draw, results_spec

LANGS = ("en", "fr", "de")


def _played(state: GameState, actions: int) -> GameState:
    for _ in range(actions):
        if state.turn is None:
            break
        state, _ = apply(state, choose_action(state))
    return state


def _after_first_special(seed: int) -> GameState:
    state = new_game("pinewood-sprint", ai_seats(4), seed=seed, course=course_of(["pinewood-sprint", "black-moor"]))
    while state.course is not None and state.course.index == 0 and state.turn is not None:
        state, _ = apply(state, choose_action(state))
    return state


def _states() -> dict[str, GameState]:
    """Boards of every kind: a special starting, one over, Rules+ with the weather mid-special, a
    rally between its specials and at its end (a driver out of it, with their reason)."""
    plus = {"weather": True, "attack": True, "seconds": True, "splits": True}
    return {
        "start": new_game("pinewood-sprint", ai_seats(2), seed=1),
        "finished": play_stage("pinewood-sprint", drivers=3, seed=4)[0],
        "rules-plus": _played(new_game("greystone-col", ai_seats(3), seed=7, modules=plus), 40),
        "rally-ss1-over": _after_first_special(4),
        "rally-ss2": _played(_after_first_special(4), 25),
        "rally-over": play_rally(["pinewood-sprint", "quarry-switchbacks"], drivers=3, seed=3)[0],
        "rally-over-with-a-dnf": _played(_retired_at_start(), 5000),
    }


def _retired_at_start() -> GameState:
    state = new_game("pinewood-sprint", ai_seats(3), seed=2, course=course_of(["pinewood-sprint", "black-moor"]))
    return apply(state, Retire(target=state.cars[-1].id))[0]


STATES = _states()


def old_results_of(state: GameState, lang: str) -> ResultsView:
    """The results card the bot drew before (bot.services.images.results_of then): the
    oracle the view spec must match."""
    view = results_view(state)
    course = state.course
    if course is None or not course.results:
        return view
    done = len(course.results)
    rows = tuple(row.model_copy(update={"reason": render(out_reason_word(row.reason), lang)}) if row.reason else row
                 for row in view.rows)
    update: dict[str, Any] = {
        "rows": rows,
        "columns": tuple(render(t("render.special", lang, n=i + 1), lang) for i in range(len(view.columns)))}
    if done < len(course.specials):
        special = render(t("render.special", lang, n=done), lang)
        update["title"] = (f"{special} — {load_stage(course.specials[done - 1]).title} — "
                           f"{render(t('render.results', lang), lang)}")
        return view.model_copy(update=update)
    winners = [r.name for r in view.rows if r.status == "finished" and r.time_s is not None and r.gap_s == 0]
    legend = render(t("render.special_winner_legend", lang), lang)
    plural = "render.winner.other" if len(winners) > 1 else "render.winner.one"
    update["title"] = render(t("render.rally_classification", lang), lang)
    update["subtitle"] = f"{render(t(plural, lang, name=Listed(winners, 'and')), lang)} · {legend}" if winners \
        else legend
    return view.model_copy(update=update)


def test_the_states_cover_what_the_cards_say():
    """The cases mean something: a card between specials, a rally's last card, a DNF's reason."""
    assert STATES["rally-ss1-over"].course.results and not STATES["rally-ss1-over"].finished
    assert STATES["rally-over"].finished and len(STATES["rally-over"].course.results) == 2
    assert any(r.reason for s in STATES.values() for r in results_view(s).rows)
    assert STATES["rules-plus"].weather is not None and STATES["rules-plus"].turn is not None  # rolled (A20.1)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(STATES))
def test_a_board_from_its_view_spec_is_the_picture_of_the_state_pixel_for_pixel(name, lang):
    state = STATES[name]
    options = RenderOptions(lang=lang)
    before = render_board(state.stage, board_view(state, status=render(default_status(state), lang)), options)
    spec = board_spec(state)
    assert "state" not in spec and json.loads(json.dumps(spec)) == spec  # plain JSON, no snapshot
    assert draw(PillowRenderer(), spec, lang) == before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["finished", "rally-ss1-over", "rally-over", "rally-over-with-a-dnf"])
def test_a_results_card_from_its_view_spec_is_the_picture_of_the_state_pixel_for_pixel(name, lang):
    state = STATES[name]
    before = render_results(old_results_of(state, lang), RenderOptions(lang=lang))
    spec = results_spec(state)
    assert "state" not in spec and json.loads(json.dumps(spec)) == spec
    assert draw(PillowRenderer(), spec, lang) == before


@pytest.mark.parametrize("kind, make", [("board", board_spec), ("results", results_spec)])
def test_a_spec_stored_with_the_whole_state_still_delivers_the_same_picture(kind, make):
    """A post owed at the upgrade keeps the spec written then; it is converted when it is drawn."""
    state = STATES["rally-over"]
    old = {"kind": kind, "state": json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))}
    assert current(old) == make(state)
    assert draw(PillowRenderer(), old, "fr") == draw(PillowRenderer(), make(state), "fr")
