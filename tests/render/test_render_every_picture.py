"""Every shipped stage's pictures, pixel for pixel: the board (a mid-stage sample), the preview of
every classic and DIRT stage and of every Road Rally course, and each game's results card in three
languages, hashed and compared with the hashes recorded in snapshots/pictures.json. A change to how
pictures are wired (the painters, the shared board frame) must leave every one of them unchanged;
a change meant to alter a picture records the new hashes on purpose (`record()` below)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot import games
from bot.engine.dirt.stages.catalogue import load_stage as dirt_stage
from bot.engine.dirt.stages.catalogue import stage_names as dirt_names
from bot.engine.dirt.view import ResultRow as DirtRow
from bot.engine.dirt.view import ResultsView as DirtResults
from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.engine.rallyman.view import ResultRow, ResultsView
from bot.engine.roadrally.library import ROADRALLY_COURSES
from bot.engine.roadrally.pictures import PICTURES, results_data
from bot.engine.roadrally.view import view
from bot.render.dirt.sample import sample_view as dirt_sample
from bot.render.options import RenderOptions
from bot.render.painter import png
from bot.render.rallyman.sample import sample_view
from bot.render.roadrally.sample import NAMES
from bot.render.roadrally.sample import ai_game as play
from bot.services.images import localized

SNAPSHOT = Path(__file__).parent / "snapshots" / "pictures.json"
LANGS = ("en", "fr", "de")

CLASSIC_RESULTS = ResultsView(stage="hill", title="Snapshot Hill", rows=(
    ResultRow(driver_id="x", name="Kari Ødegaard", colour=2, status="dnf"),
    ResultRow(driver_id="a", name="Sébastien Morel", colour=0, time_s=250),
    ResultRow(driver_id="b", name="Jürgen Kraus", colour=1, time_s=230),
))
DIRT_RESULTS = DirtResults(title="Rally", columns=["SS1", "SS2"], rows=[
    DirtRow(name="Bea", status="finished", times=[610, 600], total=1210, gap=20, rank=2),
    DirtRow(name="Cem", status="out", times=[650, None], reason="4th damage token"),
    DirtRow(name="Ada", status="finished", times=[600, 590], total=1190, gap=0, rank=1),
])
RR_GAMES = (("std-7", 5, 60), ("sprint-3", 3, 40), ("std-7", 4, 400))  # the last one played to its end
ai_game = functools.cache(play)  # a game played once for its board and its three results cards


def _draw(game: str, kind: str, args: tuple[object, ...], options: RenderOptions) -> bytes:
    """The PNG of one picture of `game`, through its painter as the render workers draw it."""
    painter = games.painter(game)
    if kind == "board":
        return png(painter.board(args, options), options)
    (data,) = args
    return png(painter.preview(data, options) if kind == "preview" else painter.results(data, options), options)


def pictures() -> Iterator[tuple[str, Callable[[], bytes]]]:
    """Each picture's name and how to draw it."""
    en = RenderOptions()
    for name in stage_names():
        yield f"rallyman/board/{name}", lambda name=name: _draw(
            "rallyman", "board", (load_stage(name), sample_view(load_stage(name))), en)
        yield f"rallyman/preview/{name}", lambda name=name: _draw("rallyman", "preview", (load_stage(name),), en)
    for name in dirt_names():
        yield f"dirt/board/{name}", lambda name=name: _draw(
            "dirt", "board", (dirt_stage(name), dirt_sample(dirt_stage(name))), en)
        yield f"dirt/preview/{name}", lambda name=name: _draw("dirt", "preview", (dirt_stage(name),), en)
    for name in ROADRALLY_COURSES.names():
        yield f"roadrally/preview/{name}", lambda name=name: _draw(
            "roadrally", "preview", (ROADRALLY_COURSES.road(name),), en)
    for course, seats, actions in RR_GAMES:
        key = f"{course}-{seats}-{actions}"
        yield f"roadrally/board/{key}", lambda c=course, s=seats, a=actions: _draw(
            "roadrally", "board", (ai_game(c, s, a).road, view(ai_game(c, s, a), None), NAMES), en)
    for lang in LANGS:
        options = RenderOptions(lang=lang)
        yield f"rallyman/results/{lang}", lambda o=options: _draw("rallyman", "results", (CLASSIC_RESULTS,), o)
        yield f"dirt/results/{lang}", lambda o=options: _draw("dirt", "results", (DIRT_RESULTS,), o)
        yield f"roadrally/results/{lang}", lambda o=options, lang=lang: _draw(
            "roadrally", "results",
            (PICTURES.results_picture(localized(results_data(view(ai_game("std-7", 4, 400), None), NAMES), lang)),), o)


def _hash(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest()


def record() -> None:
    """Writes the hashes of the pictures as the code draws them now (run by hand, on purpose)."""
    SNAPSHOT.write_text(json.dumps({name: _hash(draw()) for name, draw in pictures()}, indent=1, sort_keys=True)
                        + "\n", encoding="utf-8")


EXPECTED: dict[str, str] = json.loads(SNAPSHOT.read_text(encoding="utf-8")) if SNAPSHOT.exists() else {}
CASES = list(pictures())


def test_every_picture_has_a_recorded_hash():
    assert EXPECTED and sorted(name for name, _ in CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name,draw", CASES, ids=[name for name, _ in CASES])
def test_the_picture_is_unchanged(name, draw):
    assert _hash(draw()) == EXPECTED[name]
