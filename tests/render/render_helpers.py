"""Helpers of the render tests: a small stage written inline (stable whatever data/ holds), board
builders, and a colour search in a patch of an image."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image

from bot import games
from bot.engine.rallyman.stages.loader import parse_stage, parse_zone
from bot.engine.rallyman.stages.model import SpaceKind, Stage
from bot.engine.rallyman.view import BoardView, CarView
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.painter import png

ZONE = """zone: Z
name: Snapshot Hill
legend: grass 0, dirt 0, snow 0, forest 1, rocks 2, village 1, water 2
@1
straight 1
@2
"""
STAGE = """title: Snapshot Hill
start
zone Z
straight 3 [grass|forest]
left 3 skid 4x3 K4 [dirt|rocks]
bump 3 [forest|forest]
straight 2 [forest|forest]
right 2 skid 3x2 [grass|water]
split
straight 2 [village|grass]
finish
"""


def hill_stage() -> Stage:
    """A short stage that always fits the image (no camera): corners, skids, shortcut, bump, split."""
    return parse_stage(STAGE, "tests/render/snapshot-hill.stage", {"Z": parse_zone(ZONE, "tests/render/Z.zone")},
                       name="snapshot-hill")


def first(stage: Stage, kind: SpaceKind) -> int:
    return next(s.id for s in stage.spaces if s.kind is kind)


def car(driver: str, colour: int, space: int, **kw) -> CarView:
    return CarView(driver_id=driver, name=kw.pop("name", f"Driver {driver}"),
                   initials=kw.pop("initials", driver[:2].upper()), colour=colour, space=space, **kw)


def board(stage: Stage, *cars: CarView, **kw) -> BoardView:
    return BoardView(stage=stage.name, title=stage.title, round=kw.pop("round", 3), cars=cars, **kw)


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def colour_count(img: Image.Image, centre: tuple[int, int], radius: int, colour: tuple[int, int, int],
                 tol: int = 12) -> int:
    """How many pixels within `radius` of `centre` are within `tol` of `colour` on every channel."""
    cx, cy = centre
    box = (max(cx - radius, 0), max(cy - radius, 0), min(cx + radius, img.width), min(cy + radius, img.height))
    patch = img.crop(box).convert("RGB")
    data = patch.tobytes()
    return sum(1 for p in zip(data[0::3], data[1::3], data[2::3])
               if all(abs(a - b) <= tol for a, b in zip(p, colour)))


# -- each game's pictures as PNG bytes, through its painter (bot.render.painter) ----------------------

def _painted(game: str, kind: str, data: object, options: RenderOptions | None) -> bytes:
    options = options or DEFAULT_OPTIONS
    painter = games.painter(game)
    return png(getattr(painter, kind)(data, options), options)


def _board(game: str) -> Callable[..., bytes]:
    """`board(stage, view, options=None)`: a classic or DIRT board's PNG."""
    return lambda stage, view, options=None: _painted(game, "board", (stage, view), options)


def _single(game: str, kind: str) -> Callable[..., bytes]:
    """`draw(data, options=None)`: the PNG of a results card or a preview."""
    return lambda data, options=None: _painted(game, kind, data, options)


classic_board, dirt_board = _board("rallyman"), _board("dirt")
classic_results, dirt_results, rr_results = (_single(game, "results") for game in ("rallyman", "dirt", "roadrally"))
classic_preview, dirt_preview, rr_preview = (_single(game, "preview") for game in ("rallyman", "dirt", "roadrally"))


def rr_board(road: object, view: object, names: object = None, options: RenderOptions | None = None) -> bytes:
    return _painted("roadrally", "board", (road, view, names or {}), options)

