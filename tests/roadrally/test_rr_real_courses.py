"""The rules engine on the real courses (RULES C2, C7, C9): whole AI games of 3, 4 and 5 seats on
the base course and on seeded standard and sprint courses end with final VP, the AI deciding from
its own seat's view; the 21 stage tiles (sprint: 11–21) lie on the Diner sites in road order."""

from __future__ import annotations

import pytest

from bot.engine.roadrally import ai
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import apply as play_apply
from bot.engine.roadrally.play import final_vp, new_game, to_act
from bot.engine.roadrally.view import view
from tests.roadrally.helpers import SEATS


def drive(course: str, n: int, preset: str, sprint: bool, seed: int):
    st, _ = new_game(load_course(course), SEATS[:n], preset, seed=seed, sprint=sprint)
    for _ in range(5000):
        if st.phase == "over":
            return st
        seat = sorted(to_act(st))[0]
        st, _ = play_apply(st, seat, ai.choose(view(st, seat)))  # the AI sees its own seat's view only
    raise AssertionError(f"{course} {preset} {n} seats: no end")


@pytest.mark.parametrize("course,sprint", [("base", False), ("std-1", False), ("std-42", False),
                                           ("sprint-3", True), ("sprint-99", True)])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_whole_ai_games_on_real_courses_end_with_final_vp(course, sprint, n):
    preset = "rr-base" if course == "base" else "rr-standard"
    st = drive(course, n, preset, sprint, seed=7 * n)
    vp = final_vp(st)
    assert set(vp) == set(SEATS[:n]) and max(vp.values()) > 0


@pytest.mark.parametrize("course,sprint,first", [("base", False, 1), ("std-5", False, 1), ("sprint-5", True, 11)])
def test_stage_tiles_lie_on_the_diner_sites_in_road_order(course, sprint, first):
    road = load_course(course)
    st, _ = new_game(road, SEATS[:3], "rr-standard", seed=1, sprint=sprint)
    placed = sorted(st.stage_tiles.items())  # (space, stage number), in road order
    numbers = [number for _, number in placed]
    assert numbers == sorted(numbers) and numbers[0] == first  # C2, C10.7: 1 (sprint 11) nearest the start
    assert numbers[-1] == 21 and len(numbers) == 22 - first
    assert all(road.spaces[space].kind.value == "diner" for space, _ in placed)
