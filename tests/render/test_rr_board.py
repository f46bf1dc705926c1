"""Road Rally USA's pictures: the board drawn from the spectators' view only
(RULES C10.8), the course preview, and their words in EN/FR/DE."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image
from render_helpers import rr_board as render_board
from render_helpers import rr_preview as render_stage_preview

from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.view import view
from bot.render.options import RenderOptions
from bot.render.roadrally.board import board_image
from bot.render.roadrally.course import LEGEND
from bot.render.roadrally.sample import NAMES, ai_game

TEXT = Path(__file__).resolve().parents[2] / "bot" / "engine" / "roadrally" / "text"  # Road Rally's own words
LANGS = ("en", "fr", "de")


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize("width", [1080, 720])
def test_a_board_decodes_at_the_asked_width_and_its_drawn_height(width):
    st = ai_game("base", actions=30)
    options = RenderOptions(width=width)
    img = decode(render_board(st.road, view(st, None), NAMES, options))
    assert img.format == "PNG"
    assert img.size == board_image(st.road, view(st, None), options, NAMES).size
    assert img.width == width and img.height > width  # the course and the panel below it


@pytest.mark.parametrize("course", ["base", "std-7", "sprint-3"])
def test_a_course_preview_decodes(course):
    img = decode(render_stage_preview(load_course(course), RenderOptions(lang="fr")))
    assert img.width == 1080 and img.height > 600


def test_the_board_differs_when_a_car_moves():
    """C4: a car's move is seen on the board."""
    st = ai_game("std-7", actions=20)
    moved = st.clone()
    moved.seats[0].pos += 1
    assert render_board(st.road, view(st, None)) != render_board(moved.road, view(moved, None))


def test_a_board_from_a_seats_view_is_refused():
    """C10.8: a picture is posted where every seat reads it, so it never draws a hand."""
    st = ai_game("base", actions=10)
    with pytest.raises(ValueError, match="spectators"):
        render_board(st.road, view(st, "s1"))


def _scrambled(st):
    """The same state with only secret data changed (C10.8): each seat's hand swapped for other cards
    of its draw deck (sizes kept), the deck reordered, its stage cards replaced, the window's answers
    flipped."""
    out = st.clone()
    for s in out.seats:
        k = min(len(s.hand), len(s.deck))
        s.hand[:k], s.deck[:k] = s.deck[:k], s.hand[:k]
        s.deck.reverse()
        s.stage_cards = [(c + 5) % 22 for c in s.stage_cards]
    out.answers = {i: not a for i, a in out.answers.items()}
    return out


@pytest.mark.parametrize("actions", [0, 25, 70])
def test_the_spectators_board_shows_nothing_secret(actions):
    """C10.8: scrambling every hand, deck order, stage card and stage answer leaves the PNG identical."""
    st = ai_game("std-7", actions=actions)
    secret = _scrambled(st)
    assert any(a.hand != b.hand or a.stage_cards != b.stage_cards for a, b in zip(st.seats, secret.seats))
    for lang in LANGS:
        options = RenderOptions(lang=lang)
        assert render_board(st.road, view(st, None), NAMES, options) == \
            render_board(secret.road, view(secret, None), NAMES, options)


def test_a_five_seat_ai_game_on_a_standard_course_draws_at_every_moment():
    """C3-C8: boards from the start to the game's end draw in every language."""
    st = ai_game("std-7", actions=0)
    drawn, phases = 0, set()
    for step in range(0, 2000, 45):
        st = ai_game("std-7", actions=step)
        options = RenderOptions(lang=LANGS[drawn % 3])
        assert decode(render_board(st.road, view(st, None), NAMES, options)).width == 1080
        drawn += 1
        phases.add(st.phase)
        if st.phase == "over":
            break
    assert st.phase == "over" and drawn > 3 and len(phases) >= 2


def test_several_cars_on_one_space_are_drawn_in_arrival_order():
    """C4: cars sharing a space are all drawn; changing which arrived first changes the picture."""
    st = ai_game("base", actions=0)
    for s in st.seats:
        s.pos = 10
    for n, s in enumerate(st.seats):
        s.arrived = n
    other = st.clone()
    other.seats[0].arrived, other.seats[1].arrived = 1, 0
    assert render_board(st.road, view(st, None)) != render_board(other.road, view(other, None))


def test_every_word_key_exists_in_every_language_with_the_same_placeholders():
    catalogues = {lang: json.loads((TEXT / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGS}
    keys = {k for k in catalogues["en"] if k.startswith("render.rr_")}
    assert {f"render.{key}" for _, key in LEGEND} <= keys
    for lang in LANGS:
        assert {k for k in catalogues[lang] if k.startswith("render.rr_")} == keys
        for k in keys:
            assert set(re.findall(r"{(\w+)}", catalogues[lang][k])) == set(re.findall(r"{(\w+)}", catalogues["en"][k]))
