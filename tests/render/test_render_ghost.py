"""The ghost car on a board (bot/render/ghost.py): translucent (alpha-composited over
the road), outlined, labelled in the reader's language, and never hiding the real car — on
classic's board and on DIRT's."""

from __future__ import annotations

import pytest
from render_helpers import board, car, colour_count

from bot.engine.dirt.stages.catalogue import load_stage as dirt_stage
from bot.engine.dirt.stages.catalogue import stage_names as dirt_names
from bot.engine.dirt.stages.model import SpaceKind as DirtKind
from bot.engine.dirt.view import BoardView as DirtBoard
from bot.engine.dirt.view import CarView as DirtCar
from bot.engine.dirt.view import GhostView as DirtGhost
from bot.engine.rallyman.stages.model import SpaceKind
from bot.engine.rallyman.view import GhostView
from bot.i18n import catalogue
from bot.render.dirt.board import board_image as dirt_image
from bot.render.dirt.board import space_pixel as dirt_pixel
from bot.render.ghost import FILL
from bot.render.options import RenderOptions
from bot.render.palette import car_colour
from bot.render.rallyman.board import board_image, space_pixel
from bot.services.league.ghost_board import LABELS

LANGS = ("en", "fr", "de")


def blend(under: tuple[int, ...], alpha: int = FILL[3]) -> tuple[int, ...]:
    """What the ghost's fill composited over a pixel gives."""
    return tuple(round(u * (255 - alpha) / 255 + f * alpha / 255) for u, f in zip(under[:3], FILL[:3]))


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b[:3]))


def straights(stage) -> list[int]:
    return [s.id for s in stage.spaces if s.kind is SpaceKind.STRAIGHT]


def test_the_classic_ghost_is_the_fill_composited_over_the_road(hill):
    mine, ghost = straights(hill)[1], straights(hill)[-2]
    plain = board_image(hill, board(hill, car("d1", 0, mine)))
    with_ghost = board_image(hill, board(hill, car("d1", 0, mine), ghost=GhostView(place=ghost, label="ghost")))
    at = space_pixel(hill, ghost)
    under = plain.getpixel(at)
    assert with_ghost.getpixel(at) != under                      # drawn there
    assert close(with_ghost.getpixel(at), blend(under))          # translucent: the road shows through
    assert not close(with_ghost.getpixel(at), FILL)              # not an opaque body
    # the real car is untouched
    assert colour_count(with_ghost, space_pixel(hill, mine), 22, car_colour(0)) == \
        colour_count(plain, space_pixel(hill, mine), 22, car_colour(0)) > 150


def test_a_classic_ghost_on_the_real_cars_space_never_hides_it(hill):
    space = straights(hill)[1]
    plain = board_image(hill, board(hill, car("d1", 0, space)))
    shared = board_image(hill, board(hill, car("d1", 0, space), ghost=GhostView(place=space, label="ghost")))
    at = space_pixel(hill, space)
    assert colour_count(shared, at, 22, car_colour(0)) == colour_count(plain, at, 22, car_colour(0)) > 150
    assert plain.tobytes() != shared.tobytes()  # and the ghost is drawn beside it


@pytest.mark.parametrize("kind", sorted(LABELS))
def test_the_ghosts_label_is_in_the_readers_language(hill, kind):
    words = {lang: catalogue(lang)[LABELS[kind]] for lang in LANGS}
    assert len(set(words.values())) == 3  # a real translation in each
    space, ghost = straights(hill)[1], straights(hill)[-2]
    images = {lang: board_image(hill, board(hill, car("d1", 0, space), ghost=GhostView(place=ghost, label=w)))
              .tobytes() for lang, w in words.items()}
    assert len(set(images.values())) == 3


def dirt_view(stage, mine: int, ghost: int | None) -> DirtBoard:
    return DirtBoard(stage=stage.name, round=3, stage_no=1, stages=1,
                     cars=[DirtCar(seat="1", name="Alice Martin", colour=0, space=mine, gear=3, seconds=40)],
                     ghost=DirtGhost(place=ghost, label="Geist (Bestzeit)") if ghost is not None else None)


def test_the_dirt_ghost_is_translucent_and_never_hides_the_real_car():
    stage = dirt_stage(dirt_names()[0])
    normal = [s.id for s in stage.spaces if s.kind is DirtKind.NORMAL]
    mine, ahead = normal[2], normal[10]
    options = RenderOptions(lang="de")
    plain = dirt_image(stage, dirt_view(stage, mine, None), options)
    ghosted = dirt_image(stage, dirt_view(stage, mine, ahead), options)
    at = dirt_pixel(stage, ahead, options, dirt_view(stage, mine, ahead))
    under = plain.getpixel(at)
    assert close(ghosted.getpixel(at), blend(under))
    car_at = dirt_pixel(stage, mine, options, dirt_view(stage, mine, None))
    assert colour_count(ghosted, car_at, 14, car_colour(0)) == colour_count(plain, car_at, 14, car_colour(0)) > 50
    shared = dirt_image(stage, dirt_view(stage, mine, mine), options)
    assert colour_count(shared, car_at, 14, car_colour(0)) == colour_count(plain, car_at, 14, car_colour(0))
    assert shared.tobytes() != plain.tobytes()


@pytest.mark.parametrize("centre", [(1070, 120), (5, 400), (540, 3), (1075, 790), (540, 400)])
def test_the_ghosts_label_is_whole_on_the_picture_wherever_the_ghost_stands(centre):
    """A ghost at the picture's edge (at the start line of a stage drawn to its edge) keeps its
    whole label on the picture, the nearest place to where it would go; in the middle it is where
    it always was (above the ghost)."""
    from PIL import Image

    from bot.render.ghost import label_ghost

    canvas = Image.new("RGB", (1080, 800), "white")
    box = label_ghost(canvas, centre, 60, "ghost (leader)", [], RenderOptions())
    assert box is not None
    x0, y0, x1, y1 = box
    assert 0 <= x0 and x1 <= canvas.width and 0 <= y0 and y1 <= canvas.height, box
    if centre == (540, 400):
        assert (x0 + x1) / 2 == pytest.approx(540) and y1 < 400  # above the ghost, unmoved
