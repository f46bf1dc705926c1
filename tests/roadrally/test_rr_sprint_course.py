"""The sprint variant plays its own short course (RULES C9: 5 standard tiles + start + finish),
whichever preset asks for it and however the game is started (a rally, `simulate`)."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import NotAllowed
from bot.engine.roadrally.protocol import GAME as RR

SEATS = (("a", "A"), ("b", "B"), ("c", "C"))


@pytest.mark.parametrize("preset", ["rr-base", "rr-standard"])
def test_C9_a_sprint_module_plays_the_sprint_course_not_the_presets_own(preset):
    options = {"ruleset": preset, "stage": RR.library.default_stage(preset), "modules": {"sprint": True}}
    table, _ = RR.rules.setup(7, SEATS, options)
    assert table.state.sprint and table.state.road.name == "sprint-7"
    full, _ = RR.rules.setup(7, SEATS, {"ruleset": preset, "stage": RR.library.default_stage(preset)})
    assert len(table.state.road.spaces) < len(full.state.road.spaces)


def test_C9_simulate_with_the_sprint_module_plays_a_sprint_course():
    report = RR.coach.simulate([RR.library.default_stage("rr-standard")], 3, 4, [], "sprint", "rr-standard")
    assert report["sprint"] and report["course"] == "sprint-4" and report["spaces"] < 60


def test_C9_a_sprint_on_a_full_course_the_host_named_is_refused():
    with pytest.raises(NotAllowed) as caught:
        RR.rules.setup(7, SEATS, {"ruleset": "rr-standard", "stage": "std-5", "modules": {"sprint": True}})
    assert caught.value.message.key == "roadrally.sprint_course"
