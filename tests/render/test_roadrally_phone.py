"""Road Rally USA boards read on a phone (issue: boards that read at phone size): at most
MAX_RATIO (1.6) widths tall whatever the course's shape (a course taller than wide is turned
across the picture, then shrunk to the room left by the panel); shown PHONE_WIDTH px wide, every
text is at least PHONE_TEXT_PX tall; cars on one space, or on spaces too close for their chips,
never hide each other (their chips never meet); an AI's car carries its robot mark on the course
and in the panel. Measured on shipped courses of every shape, at the start (five cars on the
start space) and mid-game (three on one space)."""

from __future__ import annotations

import math

import pytest
from phone_helpers import drawn, marks_near, too_small

from bot.engine.roadrally import ai
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import apply, new_game, to_act
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.view import view
from bot.render.options import RenderOptions
from bot.render.roadrally.board import MAX_RATIO, board_image, chips, map_layout
from bot.render.roadrally.layout import tile_blocks

#: a course of each shape: tall (turned), wide, square, a sprint, the base course
COURSES = ("std-7", "std-12", "std-1", "std-10", "sprint-3", "base")
SEATS = ("-1", "2", "3", "-4", "5")  # two AI seats (negative ids: bot.services.play.ai_drivers)
NAMES = {"-1": "🤖 Ada", "2": "Sébastien_Morel", "3": "Jürgen_Kraus", "-4": "🤖 Björn", "5": "Zoë_Brand"}
LANGS = ("en", "fr", "de")


def played(course: str, actions: int, seats: tuple[str, ...] = SEATS) -> RRState:
    st, _ = new_game(load_course(course), seats, seed=3)
    for _ in range(actions):
        seat = sorted(to_act(st))[0]
        st, _ = apply(st, seat, ai.choose(view(st, seat)))
    return st


def test_the_courses_come_in_every_shape():
    shapes = set()
    for course in COURSES:
        blocks = tile_blocks(load_course(course))
        w = max(b[0][2] for b in blocks) - min(b[0][0] for b in blocks)
        h = max(b[0][3] for b in blocks) - min(b[0][1] for b in blocks)
        shapes.add("tall" if h > w else "wide" if w > h else "square")
    assert shapes == {"tall", "wide", "square"}


@pytest.mark.parametrize("actions", (0, 24))
@pytest.mark.parametrize("course", COURSES)
def test_the_board_is_short_and_every_text_readable_on_a_phone(course, actions, tmp_path):
    st = played(course, actions)
    for lang in LANGS:
        options = RenderOptions(lang=lang)
        image, texts = drawn(tmp_path / lang, lambda o=options: board_image(st.road, view(st, None), o, NAMES))
        assert image.height <= MAX_RATIO * image.width + 1
        assert {"AD", "SM", "JK", "BJ", "ZB"} <= {t.text for t in texts}  # the chips' initials, measured too
        assert not too_small(image, texts), lang


@pytest.mark.parametrize("actions", (0, 3, 24))
@pytest.mark.parametrize("course", COURSES)
def test_cars_sharing_a_space_or_crowded_never_hide_each_other(course, actions):
    st = played(course, actions)
    spectators = view(st, None)
    if actions == 0:  # all five on the start space
        assert len({s.pos for s in spectators.seats}) == 1
    spots, radius = chips(st.road, spectators, RenderOptions())
    assert sorted(s.seat for s in spots) == sorted(SEATS)
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            assert math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]) >= 1.9 * radius, (a, b)
    lay = map_layout(st.road, spectators, RenderOptions())
    for spot in spots:  # on the map, whole
        assert radius <= spot.at[0] <= RenderOptions().width - radius and spot.at[1] <= lay.height


def test_an_ai_car_is_marked_on_the_course_and_in_the_panel():
    options = RenderOptions()
    st = played("std-7", 24)
    human = played("std-7", 24, tuple(s.lstrip("-") for s in SEATS))
    names = {s.lstrip("-"): n for s, n in NAMES.items()}
    ai_board = board_image(st.road, view(st, None), options, NAMES)
    person = board_image(human.road, view(human, None), options, names)
    spots, radius = chips(st.road, view(st, None), options)
    for spot in spots:
        more = marks_near(ai_board, spot.at, 1.6 * radius) > marks_near(person, spot.at, 1.6 * radius)
        assert more == spot.seat.startswith("-"), spot  # the AI cars only
    lay = map_layout(st.road, view(st, None), options)
    panel = (0, lay.height, options.width, ai_board.height)
    centre = ((panel[0] + panel[2]) / 2, (panel[1] + panel[3]) / 2)
    reach = max(panel[2] - panel[0], panel[3] - panel[1])
    assert marks_near(ai_board, centre, reach) > marks_near(person, centre, reach)
