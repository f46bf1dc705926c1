"""The Road Rally USA race tiles are data, and a bad tile file is refused naming the file, the
tile and the reason (RULES C1, C2, C5, C8, C9)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

import pytest

from bot.engine.core.errors import DataError
from bot.engine.roadrally.course.tiles import load_tiles, parse_tiles
from bot.engine.roadrally.road import SpaceKind
from bot.paths import data_dir

SOURCE = "data/roadrally/tiles/race_tiles.json"


def raw() -> dict:
    return json.loads((data_dir() / "roadrally" / "tiles" / "race_tiles.json").read_text(encoding="utf-8"))


def tile(data: dict, tile_id: str) -> dict:
    return next(t for t in data["tiles"] if t["id"] == tile_id)


def refused(data: dict) -> DataError:
    with pytest.raises(DataError) as caught:
        parse_tiles(json.dumps(data), SOURCE)
    return caught.value


def test_C1_the_shipped_tile_file_validates_with_its_totals():
    tiles = load_tiles()
    roles = [t.role for t in tiles.tiles]
    assert (roles.count("start"), roles.count("finish"), roles.count("standard")) == (1, 1, 10)
    assert sum(t.count(SpaceKind.DINER) for t in tiles.tiles) == 21  # C1: 21 stage tiles
    assert sum(t.count(SpaceKind.CHECKPOINT) for t in tiles.tiles) == 6  # C1: 6 checkpoint tiles
    assert len({t.id for t in tiles.tiles}) == 12


def test_C5_every_special_kind_is_somewhere_on_the_tiles():
    kinds = {t.kind(i) for t in load_tiles().tiles for i in range(len(t.road))}
    assert {SpaceKind.DINER, SpaceKind.CHECKPOINT, SpaceKind.GAS, SpaceKind.SHORTCUT, SpaceKind.STORE,
            SpaceKind.MECHANIC, SpaceKind.START, SpaceKind.FINAL, SpaceKind.ROAD} <= kinds


def test_C8_the_finish_tile_has_four_road_spaces_then_its_final_space():
    finish = next(t for t in load_tiles().tiles if t.role == "finish")
    kinds = [finish.kind(i) for i in range(len(finish.road))]
    assert len(kinds) == 5 and kinds[-1] is SpaceKind.FINAL and SpaceKind.FINAL not in kinds[:-1]


def test_C9_any_five_standard_tiles_with_start_and_finish_hold_eleven_diners():
    tiles = load_tiles().tiles
    ends = sum(t.count(SpaceKind.DINER) for t in tiles if t.role != "standard")
    fewest = sorted(t.count(SpaceKind.DINER) for t in tiles if t.role == "standard")[:5]
    assert ends + sum(fewest) >= 11


def _set(tile_id: str, field: str, value: object) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        tile(data, tile_id)[field] = value
    return change


def _gap(data: dict) -> None:
    del tile(data, "cactus-wiggle")["road"][3]


def _same_cell(data: dict) -> None:
    road = tile(data, "switchback")["road"]
    road[4] = list(road[2])


def _diners(data: dict) -> None:
    tile(data, "long-flat")["specials"]["1"] = "gas"


def _flags(data: dict) -> None:
    tile(data, "long-flat")["specials"]["2"] = "checkpoint"


def _standard_count(data: dict) -> None:
    extra = copy.deepcopy(tile(data, "long-flat"))
    extra["id"] = "spare"
    extra["specials"] = {}
    data["tiles"].append(extra)


def _letters(data: dict) -> None:
    tile(data, "ghost-town")["exit"]["letter"] = "Z"


def _both_entries(data: dict) -> None:
    tile(data, "ghost-town")["entry"]["letter"] = "F"


BAD = [
    ("gap", _gap, "cactus-wiggle", "does not join its edges"),
    ("not from its entry", _set("long-flat", "road", [[1, 2], [2, 2], [3, 2], [4, 2]]), "long-flat",
     "must start at the W edge"),
    ("not to its exit", _set("mesa-turn", "road", [[0, 2], [1, 2], [2, 2], [2, 1]]), "mesa-turn",
     "must end at the N edge"),
    ("two spaces on one cell", _same_cell, "switchback", "on the cell (1, 3) of an earlier space"),
    ("off the tile", _set("long-flat", "road", [[0, 2], [1, 2], [2, 2], [3, 2], [4, 2], [5, 2]]), "long-flat",
     "off the 5x5 tile"),
    ("shortcut backwards", _set("bridge-loop", "shortcuts", [{"from": 7, "to": 1}]), "bridge-loop",
     "does not go forward"),
    ("shortcut to the next space", _set("bridge-loop", "shortcuts", [{"from": 3, "to": 4}]), "bridge-loop",
     "does not go forward"),
    ("shortcut off its tile", _set("river-bend", "shortcuts", [{"from": 1, "to": 9}]), "river-bend",
     "goes off its tile"),
    ("shortcut on a special", _set("river-bend", "shortcuts", [{"from": 2, "to": 6}]), "river-bend",
     "already special"),
    ("unknown kind", _set("ghost-town", "specials", {"1": "diner", "3": "motel", "5": "diner"}), "ghost-town",
     "unknown kind 'motel'"),
    ("special off the road", _set("ghost-town", "specials", {"1": "diner", "9": "gas", "5": "diner"}),
     "ghost-town", "off its road"),
    ("start with an entry", _set("start", "entry", {"side": "W", "letter": "L"}), "start", "a start tile has no entry"),
    ("finish too long", _set("finish", "road", [[0, 2], [1, 2], [2, 2], [3, 2], [4, 2], [4, 3]]), "finish",
     "4 road spaces"),
    ("entry and exit on one side", _set("long-flat", "exit", {"side": "W", "letter": "B"}), "long-flat",
     "same side"),
    ("diner total", _diners, "tiles", "20 Diner sites"),
    ("checkpoint total", _flags, "tiles", "7 checkpoint sites"),
    ("tile total", _standard_count, "tiles", "11 standard tile(s)"),
    ("letters do not chain", _letters, "ghost-town", "exit letter Z"),
    ("one letter two entries", _both_entries, "ghost-town", "entry letter F is also"),
]


@pytest.mark.parametrize(("change", "where", "reason"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_C1_C2_C5_a_bad_tile_is_refused_naming_file_tile_and_reason(change, where, reason):
    data = raw()
    change(data)
    error = refused(data)
    assert error.source == SOURCE
    assert where in error.field
    assert reason in error.reason
    assert SOURCE in str(error) and reason in str(error)


def test_a_tile_of_the_wrong_shape_is_refused_naming_the_field():
    data = raw()
    tile(data, "long-flat")["road"] = "straight"
    error = refused(data)
    assert error.source == SOURCE and error.field.startswith("tiles.1.road")


def test_a_file_that_is_not_json_is_refused_naming_the_line():
    with pytest.raises(DataError) as caught:
        parse_tiles('{"size": 5,\n "tiles": [', SOURCE)
    assert caught.value.source == SOURCE and caught.value.field.startswith("line ")
