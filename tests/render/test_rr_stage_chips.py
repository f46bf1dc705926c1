"""Road Rally USA's stage tiles on a course laid small (issue: boards that read at phone size):
the 40-unit courses (std-1, std-8 and std-12) are drawn about 26 px a space at 1080 px wide,
smaller than a stage tile's chip (its number at least PHONE_TEXT_PX tall on a phone). No chip
overlaps another (a chip whose space is covered goes beside the road, tied to it by a leader),
every chip stays in the picture, and the board stays at most 1.6 widths tall; the finish's
numbered marks, wider than a space too, never overlap either; and a finished car's chip, wider
than a mark, lies on no mark nor its number, nor on another chip, its leader to its mark crossing
no other mark."""

from __future__ import annotations

import math

import pytest

from bot.engine.roadrally.view import view
from bot.render.fonts import BOARD_FONT_PX
from bot.render.options import RenderOptions
from bot.render.roadrally.board import board_image, chips, finish_marks, map_layout
from bot.render.roadrally.cars import segment_distance
from bot.render.roadrally.course import MARK_STEP, mark_radius, stage_chips
from bot.render.roadrally.sample import ai_game

COURSES = ("std-1", "std-8", "std-12")


@pytest.mark.parametrize("course", COURSES)
def test_no_stage_chip_overlaps_another_on_a_long_course(course):
    game = ai_game(course, 5, 60)
    shown = view(game, None)
    options = RenderOptions()
    lay = map_layout(game.road, shown, options)
    chips = stage_chips(game.road, lay, options, dict(shown.stage_tiles))
    assert len(chips) == len(shown.stage_tiles) >= 10
    assert 2 * max(c.radius for c in chips) > lay.ppu  # the case in question: chips wider than a space
    assert min(2 * c.radius for c in chips) >= BOARD_FONT_PX  # never shrunk below its number
    crowded = [(a.number, b.number) for i, a in enumerate(chips) for b in chips[i + 1:]
               if math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]) < a.radius + b.radius]
    assert not crowded
    image = board_image(game.road, shown, options)
    assert image.height <= 1.6 * image.width
    assert all(c.radius <= c.at[0] <= image.width - c.radius and c.radius <= c.at[1] <= lay.height - c.radius
               for c in chips)


@pytest.mark.parametrize("course", COURSES)
def test_the_finish_marks_never_overlap_and_stay_on_the_map(course):
    """The final space's numbered marks ("1 2 3 4 5", C8) at ~26 px a space: each mark is wider
    than a space, so they spread across the road, apart, and slide along it to stay on the course."""
    game = ai_game(course, 5, 60)
    shown = view(game, None)
    options = RenderOptions()
    lay = map_layout(game.road, shown, options)
    radius, size = mark_radius(lay, options)
    assert size >= options.px(BOARD_FONT_PX) and 2 * radius > MARK_STEP * lay.ppu  # the case in question
    marks = [lay.point(x, y) for x, y in finish_marks(game.road, lay, options, len(shown.seats))]
    assert len(marks) == len(shown.seats) == 5
    gap = min(math.hypot(a[0] - b[0], a[1] - b[1]) for i, a in enumerate(marks) for b in marks[i + 1:])
    assert gap >= 2 * radius, f"marks {gap:.1f} px apart, {2 * radius:.1f} px wide"
    image = board_image(game.road, shown, options)
    assert image.height <= 1.6 * image.width
    assert all(radius <= x <= image.width - radius and lay.top - 0.5 <= y - radius and y + radius <= lay.height + 0.5
               for x, y in marks)


def finished(game, everyone: bool):
    """The spectators' view of `game` played to its end; with `everyone`, every car finished, on
    marks 1..5 in seat order (the crowded case: five chips beside five marks)."""
    shown = view(game, None)
    if not everyone:
        return shown
    seats = tuple(s._replace(pos=game.road.final, mark=i) for i, s in enumerate(shown.seats, 1))
    return shown._replace(seats=seats)


@pytest.mark.parametrize("everyone", (False, True), ids=("played-out", "all-finished"))
@pytest.mark.parametrize("course", COURSES)
def test_a_finished_cars_chip_lies_on_no_finish_mark_nor_another_chip(course, everyone):
    game = ai_game(course, 5, 5000)
    assert game.phase == "over"
    shown = finished(game, everyone)
    options = RenderOptions()
    lay = map_layout(game.road, shown, options)
    mark_r, _ = mark_radius(lay, options)
    marks = [lay.point(x, y) for x, y in finish_marks(game.road, lay, options, len(shown.seats))]
    spots, radius = chips(game.road, shown, options)
    done = {s.id: s.mark for s in shown.seats if s.mark is not None}
    assert len(done) == (5 if everyone else len(done)) >= 1
    assert radius > mark_r  # the case in question: a chip wider than a mark
    ends = [spot for spot in spots if spot.seat in done]
    assert len(ends) == len(done)
    on_marks = [(spot.seat, n) for spot in ends for n, m in enumerate(marks, 1)
                if math.hypot(spot.at[0] - m[0], spot.at[1] - m[1]) < radius + mark_r]
    assert not on_marks, f"chips over marks: {on_marks}"
    crowded = [(a.seat, b.seat) for a in ends for b in spots
               if a is not b and math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1]) < 2 * radius]
    assert not crowded
    for spot in ends:
        assert spot.tie == marks[done[spot.seat] - 1]  # tied to its own mark
        assert all(segment_distance(m, spot.tie, spot.at) >= mark_r for m in marks if m != spot.tie)
    image = board_image(game.road, shown, options)
    assert all(radius <= x <= image.width - radius and radius <= y <= lay.height - radius for x, y in
               (spot.at for spot in ends))
