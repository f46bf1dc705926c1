"""RULES A2 (route notation of a special) and A24 (the data the classic engine needs), checked on
the shipped zones and stages."""

from __future__ import annotations

import pytest
from rules_helpers import zones

from bot.engine.core.errors import StageError
from bot.engine.rallyman.game import new_game
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.loader import load_stage, parse_stage, stage_names
from bot.engine.rallyman.stages.model import FINISH, SpaceKind


def test_A2_3_route_notation_over_zone_boards():
    """A2.3: a special is an ordered list of segments `<zone><entry>-<zone><exit>` separated by
    `/`; it runs from the start to a different finish point."""
    stage = parse_stage("title: Route\nroute: A1-A2 / C2-C3\n", "route.stage", zones())
    assert stage.zone_order == ("A", "C")
    assert stage.spaces[0].zone == "A" and stage.spaces[-1].zone == "C"
    assert any(FINISH in s.next for s in stage.spaces)
    assert stage.start_next and all(i >= 0 for i in stage.start_next)


def test_A2_3_a_segment_is_driven_from_its_entry_to_its_exit_point():
    """A2.3: `A2-A1` would drive zone A backwards: refused with the file and the reason."""
    with pytest.raises(StageError) as info:
        parse_stage("route: A2-A1\n", "back.stage", zones())
    assert "back.stage" in str(info.value) and "backwards" in str(info.value)


@pytest.mark.parametrize("name", stage_names())
def test_A24_every_shipped_stage_has_the_data_the_engine_needs(name):
    """A24: each space has a progress value, successors and a capacity; corner spaces hold one car
    (A13.1); every skid space but the last has a bail-out onto its corner's interior (A8.3);
    every road/shortcut border links a space of the same corner (A11.3, A11.4); the finish can be
    reached (A2.2)."""
    stage = load_stage(name)
    assert stage.spaces and stage.length > 0
    for s in stage.spaces:
        assert s.next, f"{name}: space {s.id} leads nowhere"
        assert s.capacity >= 1
        for n in s.next:
            if n != FINISH:
                assert stage.spaces[n].progress >= s.progress or stage.spaces[n].corner == s.corner, \
                    f"{name}: {s.id} → {n} goes backwards (A7.3)"
        if s.kind in (SpaceKind.INTERIOR, SpaceKind.SKID, SpaceKind.SHORTCUT):
            assert s.capacity == 1 and s.note is not None and s.corner is not None
        if s.kind is SpaceKind.BUMP:
            assert 1 <= s.note <= 5
        for border in (s.left, s.right):
            if border.kind in ("road", "shortcut"):
                assert stage.spaces[border.link].corner == s.corner
            else:
                assert border.terrain is not None
                assert stage.zones[s.zone].damage(border.terrain, False) >= 0
    for c in stage.corners:
        for j, skid in enumerate(c.skid):
            bail = stage.spaces[skid].bailout
            if j < len(c.skid) - 1:
                assert bail in c.interior
            else:
                assert bail is None


def test_A24_driver_state_holds_what_the_rules_need():
    """A24 "Driver state": chrono pile, gear, position and pose, arrival stamp, lost black dice,
    flats, tires, spare, SISU, second markers, status, and the turn's dice and ⚠ counts."""
    state = new_game("pinewood-sprint", ai_seats(2), seed=1)
    car = state.to_dict()["cars"][0]
    for key in ("pile", "position", "pose", "arrived", "lost_black", "flats", "tires", "spare", "sisu",
                "seconds", "status", "splits"):
        assert key in car
    turn = state.to_dict()["turn"]
    for key in ("used", "hazards", "snow_hazards", "gear", "whites"):
        assert key in turn
