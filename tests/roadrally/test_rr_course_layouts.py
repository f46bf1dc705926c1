"""The base, standard and sprint courses are one road from the start to the final space, tiles
joined edge to edge without overlap, deterministic per seed (RULES C2, C5, C7, C8, C9)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.core.errors import DataError, NotAllowed
from bot.engine.roadrally.course import base_course, load_course, sprint_course, standard_course
from bot.engine.roadrally.course.courses import base_order
from bot.engine.roadrally.course.layout import Overlap, place
from bot.engine.roadrally.course.tiles import TileFile, load_tiles, parse_tiles
from bot.engine.roadrally.road import Road, SpaceKind
from bot.paths import data_dir
from tests.roadrally.rr_course_ascii import ascii_course

SEEDS = range(200)
SOURCE = "data/roadrally/tiles/race_tiles.json"
STANDARD = {t.id for t in load_tiles().tiles if t.role == "standard"}


def assert_one_road(road: Road) -> None:
    """C2, C7, C8: a road from the start to the final space, no two spaces on one cell, each space
    next to the one before (tiles joined edge to edge), every shortcut forward on its own tile."""
    spaces = road.spaces
    assert [s.index for s in spaces] == list(range(len(spaces)))
    assert spaces[0].kind is SpaceKind.START and spaces[0].tile == 0
    assert road.final == len(spaces) - 1 and spaces[-1].kind is SpaceKind.FINAL
    assert [s.kind for s in spaces].count(SpaceKind.FINAL) == 1
    assert road.tiles[0] == "start" and road.tiles[-1] == "finish"
    assert spaces[-1].tile == len(road.tiles) - 1
    cells = [(s.x, s.y) for s in spaces]
    assert len(set(cells)) == len(cells)
    assert min(s.x for s in spaces) == 0 and min(s.y for s in spaces) == 0
    for before, after in zip(spaces, spaces[1:]):
        assert abs(after.x - before.x) + abs(after.y - before.y) == 1, (road.name, before, after)
        assert after.tile in (before.tile, before.tile + 1)
    for space in spaces:
        if space.kind is SpaceKind.SHORTCUT:
            assert space.shortcut_to is not None and space.shortcut_to > space.index + 1
            assert spaces[space.shortcut_to].tile == space.tile
        else:
            assert space.shortcut_to is None


def test_C2_the_base_course_chains_every_tile_by_its_letters():
    road = base_course()
    assert_one_road(road)
    assert road.name == "base"
    assert road.tiles == ("start", "long-flat", "mesa-turn", "canyon-hook", "cactus-wiggle", "bridge-loop",
                          "river-bend", "ghost-town", "motel-row", "switchback", "silo-corner", "finish")
    assert len(road.diners()) == 21  # C2: stage tiles 1-21 on the Diner sites
    assert len(road.checkpoints()) == 6


@pytest.mark.parametrize("seed", SEEDS)
def test_C7_a_standard_course_lays_all_twelve_tiles_without_overlap(seed):
    road = standard_course(seed)
    assert_one_road(road)
    assert road.name == f"std-{seed}"
    assert len(road.tiles) == 12 and set(road.tiles[1:-1]) == STANDARD
    assert len(road.diners()) == 21 and len(road.checkpoints()) == 6
    assert standard_course(seed) == road  # deterministic for a seed


@pytest.mark.parametrize("seed", SEEDS)
def test_C9_a_sprint_course_lays_start_five_standard_tiles_and_finish(seed):
    road = sprint_course(seed)
    assert_one_road(road)
    assert road.name == f"sprint-{seed}"
    assert len(road.tiles) == 7 and len(set(road.tiles[1:-1])) == 5 and set(road.tiles[1:-1]) <= STANDARD
    assert len(road.diners()) >= 11  # C9, C10.7: stage tiles 11-21 in road order
    assert sprint_course(seed) == road


def test_C7_C9_the_seed_chooses_the_order():
    assert len({standard_course(seed).tiles for seed in SEEDS}) > 100
    assert len({sprint_course(seed).tiles for seed in SEEDS}) > 100
    assert len({tuple((s.x, s.y) for s in standard_course(seed).spaces) for seed in SEEDS}) > 100


def test_a_stored_name_loads_its_course_once():
    assert load_course("base") == base_course()
    assert load_course("std-42") == standard_course(42)
    assert load_course("sprint-42") == sprint_course(42)
    assert load_course("std-42") is load_course("std-42")


@pytest.mark.parametrize("name", ["", "basic", "std", "std-", "std-x", "sprint-1-2", "../base", "STD-1",
                                  "std-1234567890", "gen-3"])
def test_an_unknown_course_name_is_refused_with_its_message(name):
    with pytest.raises(NotAllowed) as caught:
        load_course(name)
    assert caught.value.message.key == "roadrally.unknown_course"
    assert caught.value.message.params == {"name": name}


def test_the_ascii_picture_draws_every_space_once():
    road = base_course()
    picture = ascii_course(road)
    assert sum(ch != " " and ch != "\n" for ch in picture) == len(road.spaces)
    assert picture.count("F") == 1 and picture.count("D") == 21 and picture.count("C") == 6


def _relettered(order: list[str]) -> TileFile:
    """The shipped tiles with their letters changed so that the base course lays them in `order`."""
    data = json.loads((data_dir() / "roadrally" / "tiles" / "race_tiles.json").read_text(encoding="utf-8"))
    by_id = {t["id"]: t for t in data["tiles"]}
    for n, (before, after) in enumerate(zip(order, order[1:])):
        by_id[before]["exit"]["letter"] = by_id[after]["entry"]["letter"] = "ABCDEFGHIJK"[n]
    return parse_tiles(json.dumps(data), SOURCE)


def test_C2_C7_tiles_laid_on_an_earlier_tile_are_refused():
    # three left bends after the start turn the road back onto the start tile's block
    order = ["start", "mesa-turn", "switchback", "silo-corner", "long-flat", "canyon-hook", "cactus-wiggle",
             "bridge-loop", "river-bend", "ghost-town", "motel-row", "finish"]
    tiles = _relettered(order)
    with pytest.raises(Overlap) as overlap:
        place(base_order(tiles))
    assert (overlap.value.tile, overlap.value.block) == ("long-flat", (0, 0))
    with pytest.raises(DataError) as caught:
        base_course(tiles)
    assert caught.value.field == "base course" and "tile long-flat would lie on the block (0, 0)" in caught.value.reason


def test_a_seed_gives_the_same_course_in_another_process():
    """The same course on every server: the layout does not depend on the process's hash seed."""
    here = [standard_course(7).tiles, sprint_course(7).tiles]
    code = ("from bot.engine.roadrally.course import standard_course, sprint_course;"
            "print(repr([standard_course(7).tiles, sprint_course(7).tiles]))")
    root = Path(__file__).resolve().parents[2]
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True,
                             check=True).stdout
        assert out.strip() == repr(here)
