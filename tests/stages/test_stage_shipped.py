"""The shipped zones and stages load and make graphs the engine can drive (RULES A8, A13, A24)."""

from __future__ import annotations

from collections import deque

import pytest

from bot.engine.rallyman.stages.format import BumpNote, CornerNote, StraightNote
from bot.engine.rallyman.stages.loader import parse_stage, stage_names
from bot.engine.rallyman.stages.model import FINISH, START, SpaceKind, Terrain
from bot.paths import data_dir

NAMES = stage_names()


def _forward(stage) -> set[int]:
    """Spaces a car can reach from the start by `next` links."""
    seen, queue = set(stage.start_next), deque(stage.start_next)
    while queue:
        for nxt in stage.spaces[queue.popleft()].next:
            if nxt != FINISH and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _backward(stage) -> set[int]:
    """Spaces from which the finish can be reached by `next` links."""
    before: dict[int, list[int]] = {}
    for s in stage.spaces:
        for nxt in s.next:
            before.setdefault(nxt, []).append(s.id)
    seen, queue = set(before.get(FINISH, [])), deque(before.get(FINISH, []))
    while queue:
        for prev in before.get(queue.popleft(), []):
            if prev not in seen:
                seen.add(prev)
                queue.append(prev)
    return seen


def test_there_are_enough_zones_and_stages(zones, shipped):
    """At least 20 shipped stages that drive over at least 12 zones."""
    assert len(zones) >= 12
    assert len(shipped) >= 20
    assert len({letter for stage in shipped.values() for letter in stage.zone_order}) >= 12


@pytest.mark.parametrize("letter", sorted(p.stem for p in (data_dir() / "rallyman" / "zones").glob("*.zone")))
def test_A12_1_every_zone_has_a_dry_and_a_snow_legend_for_all_terrains(zones, letter):
    zone = zones[letter].zone
    assert set(zone.legend_dry) == set(Terrain)
    assert set(zone.legend_snow) == set(Terrain)
    assert zone.name and zone.name != letter


@pytest.mark.parametrize("name", NAMES)
def test_A24_every_space_is_reachable_from_the_start_and_reaches_the_finish(shipped, name):
    stage = shipped[name]
    every = {s.id for s in stage.spaces}
    assert _forward(stage) == every
    assert _backward(stage) == every
    assert stage.successors(START) == stage.start_next


@pytest.mark.parametrize("name", NAMES)
def test_A13_1_corner_spaces_hold_one_car(shipped, name):
    stage = shipped[name]
    corner_spaces = [s for s in stage.spaces if s.kind in (SpaceKind.INTERIOR, SpaceKind.SKID, SpaceKind.SHORTCUT)]
    assert corner_spaces
    assert {s.capacity for s in corner_spaces} == {1}
    assert all(s.capacity >= 1 for s in stage.spaces)


@pytest.mark.parametrize("name", NAMES)
def test_A5_4_progress_never_decreases_along_the_road(shipped, name):
    stage = shipped[name]
    for s in stage.spaces:
        for nxt in s.next:
            if nxt != FINISH:
                assert stage.spaces[nxt].progress >= s.progress, (name, s.id, nxt)


@pytest.mark.parametrize("name", NAMES)
def test_A8_3_every_skid_space_but_the_last_bails_out_into_its_interior(shipped, name):
    stage = shipped[name]
    for corner in stage.corners:
        assert corner.skid, f"{name}: corner on line {corner.line} offers no skid"
        for space_id in corner.skid[:-1]:
            assert stage.spaces[space_id].bailout in corner.interior
        assert stage.spaces[corner.skid[-1]].bailout is None


@pytest.mark.parametrize("name", NAMES)
def test_A8_every_corner_offers_a_choice_and_notes_are_gears(shipped, name):
    stage = shipped[name]
    for corner in stage.corners:
        assert len(corner.skid) + len(corner.shortcut) > 0
        notes = (corner.interior_note, *corner.skid_notes) + ((corner.shortcut_note,) if corner.shortcut else ())
        assert all(1 <= n <= 5 for n in notes)
        assert len(corner.shortcut) < len(corner.interior)


@pytest.mark.parametrize("name", NAMES)
def test_A21_every_stage_has_a_split_point(shipped, name):
    assert shipped[name].counts()["splits"] >= 1


def test_the_stages_mix_lengths_weather_corners_and_formats(shipped):
    """Short, medium and long stages; dry, snowy and mixed; hairpins, sweepers, bumps; routes and inline."""
    lengths = [s.length for s in shipped.values()]
    assert any(15 <= n <= 20 for n in lengths)
    assert any(25 <= n <= 35 for n in lengths)
    assert any(40 <= n <= 60 for n in lengths)
    weather = {"dry" if not s.snow_zones else "snow" if s.snow_zones == set(s.zone_order) else "mixed"
               for s in shipped.values()}
    assert weather == {"dry", "snow", "mixed"}
    notes = {c.interior_note for s in shipped.values() for c in s.corners}
    assert notes & {1, 2} and notes & {4, 5}
    assert {s.route is None for s in shipped.values()} == {True, False}
    assert all(s.counts()["bumps"] >= 1 and s.counts()["shortcuts"] >= 1 for s in shipped.values())


def test_A2_3_a_route_drives_the_zones_in_order(zones):
    stage = parse_stage("title: Two boards\nroute: A1-A2 / B1-B2\n", "two.stage", zones)
    assert stage.zone_order == ("A", "B")
    alone = [parse_stage(f"route: {r}\n", "one.stage", zones) for r in ("A1-A2", "B1-B2")]
    assert len(stage.spaces) == sum(len(s.spaces) for s in alone)
    assert [s.text for s in stage.sections] == [s.text for part in alone for s in part.sections]


def test_A20_5_clear_spaces_stay_asphalt_on_the_snow_side(zones):
    stage = parse_stage("snow: D\nstart\nzone D\nstraight 2 clear\nstraight 2\nfinish\n", "clear.stage", zones)
    surfaces = [s.surface(snowy=True).value for s in stage.spaces]
    assert surfaces == ["asphalt", "asphalt", "snow", "snow"]
    assert {s.surface(snowy=False).value for s in stage.spaces} == {"asphalt"}


def test_A5_4_long_skids_in_a_row_never_step_back(zones):
    """Regression: a corner's skid entered from a longer skid used to start behind it."""
    text = "start\nzone A\nstraight 3\nleft 5x1 skid 5x6 turn 30\nright 5x1 skid 5x6 turn 30\nstraight 3\nfinish\n"
    stage = parse_stage(text, "skids.stage", zones)
    steps = [(s.progress, stage.spaces[n].progress) for s in stage.spaces for n in s.next if n != FINISH]
    assert steps and all(b >= a for a, b in steps)


def test_A11_3_corner_terrain_lies_inside_and_outside(zones):
    """`left … [rocks|forest]`: rocks inside (beside the shortcut), forest outside the skid."""
    stage = parse_stage("start\nzone A\nstraight 2\nleft 3 skid 4x3 K4 [rocks|forest]\nstraight 2\nfinish\n",
                        "t.stage", zones)
    corner = stage.corners[0]
    assert stage.spaces[corner.shortcut[0]].left.terrain is Terrain.ROCKS
    assert {stage.spaces[i].right.terrain for i in corner.skid} == {Terrain.FOREST}
    assert {stage.spaces[i].left.kind for i in corner.interior} == {"shortcut"}
    assert {stage.spaces[i].right.kind for i in corner.interior} == {"road"}


@pytest.mark.parametrize("name", NAMES)
def test_AMB_21_no_shipped_stage_lets_a_jump_fly_over_a_corner(shipped, name, jump_skips):
    """AMB-21 / A10.3: no corner space (interior, skid or shortcut) among the two spaces after a
    bump, on any line: a jump can never skip a corner's entry and its note."""
    assert jump_skips(shipped[name]) == [], name


def test_AMB_21_no_zone_file_puts_a_corner_right_after_a_bump(zones):
    """AMB-21: the zone boards too, so any route over them obeys it inside each board."""
    for letter, zone_file in zones.items():
        since_bump = None
        for note in zone_file.notes:
            if isinstance(note, BumpNote):
                since_bump = 0
            elif isinstance(note, StraightNote) and since_bump is not None:
                since_bump += note.count
            elif isinstance(note, CornerNote):
                assert since_bump is None or since_bump >= 2, f"{zone_file.source}:{note.line}"
                since_bump = None
