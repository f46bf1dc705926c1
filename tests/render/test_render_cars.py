"""Cars are where the engine says, in their colour, and their poses look different (RULES A8, A11)."""

from __future__ import annotations

from PIL import ImageChops, ImageStat
from render_helpers import board, car, colour_count, decode, first
from render_helpers import classic_board as render_board

from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.engine.rallyman.stages.model import FINISH, START, SpaceKind
from bot.render.options import DEFAULT_OPTIONS
from bot.render.palette import car_colour
from bot.render.rallyman.board import board_image, space_pixel
from bot.render.rallyman.layout import board_layout

R = 22  # search radius round a space centre, pixels


def _straights(stage):
    return [s.id for s in stage.spaces if s.kind is SpaceKind.STRAIGHT]


def test_each_car_shows_its_colour_at_its_space(hill):
    a, b = _straights(hill)[1], _straights(hill)[-2]
    view = board(hill, car("d1", 0, a), car("d2", 1, b))
    img = decode(render_board(hill, view))
    empty = board_image(hill, board(hill))
    for space, colour in ((a, car_colour(0)), (b, car_colour(1))):
        at = space_pixel(hill, space)
        assert colour_count(img, at, R, colour) > 150, f"no {colour} car at space {space}"
        assert colour_count(empty, at, R, colour) < 10
    # and not the other way round: colour 1 is not at space a
    assert colour_count(img, space_pixel(hill, a), R, car_colour(1)) < 10


def test_camera_view_places_cars_at_space_pixel():
    """On a long stage (camera window), `space_pixel` with the view follows the same window."""
    long = [n for n in stage_names() if board_layout(load_stage(n), DEFAULT_OPTIONS).mode == "camera"]
    if not long:
        return  # every shipped stage fits; covered by the fit test above
    stage = load_stage(long[0])
    mid = [s.id for s in stage.spaces if s.kind is SpaceKind.STRAIGHT][len(stage.spaces) // 4]
    ahead = next(s for s in stage.spaces[mid].next if s >= 0)
    view = board(stage, car("d1", 2, mid, active=True), car("d2", 6, ahead))
    img = board_image(stage, view)
    for space, colour in ((mid, car_colour(2)), (ahead, car_colour(6))):
        at = space_pixel(stage, space, view=view)
        assert 0 <= at[1] < img.height
        assert colour_count(img, at, R, colour) > 100


def test_cars_sharing_a_space_are_both_visible(hill):
    space = _straights(hill)[1]
    img = board_image(hill, board(hill, car("d1", 0, space), car("d2", 6, space)))
    at = space_pixel(hill, space)
    assert colour_count(img, at, 45, car_colour(0)) > 150
    assert colour_count(img, at, 45, car_colour(6)) > 150


def test_off_road_and_skid_are_drawn_differently(hill):
    """A car off the road (A11.2) sits beside it; a skidding car (A8.2) sits sideways on its space."""
    space = first(hill, SpaceKind.SKID)
    skid = board_image(hill, board(hill, car("d1", 0, space, pose="skid")))
    off = board_image(hill, board(hill, car("d1", 0, space, pose="off_left")))
    x, y = space_pixel(hill, space)
    box = (x - 90, y - 90, x + 90, y + 90)
    diff = ImageStat.Stat(ImageChops.difference(skid.crop(box), off.crop(box))).mean
    assert sum(diff) / 3 > 3.0
    assert colour_count(skid, (x, y), R, car_colour(0)) > 150
    assert colour_count(off, (x, y), 12, car_colour(0)) < colour_count(skid, (x, y), 12, car_colour(0))


def test_skid_and_normal_pose_differ(hill):
    space = first(hill, SpaceKind.SKID)
    normal = board_image(hill, board(hill, car("d1", 0, space)))
    skid = board_image(hill, board(hill, car("d1", 0, space, pose="skid")))
    spun = board_image(hill, board(hill, car("d1", 0, space, pose="spun")))
    x, y = space_pixel(hill, space)
    box = (x - 40, y - 40, x + 40, y + 40)
    for other in (skid, spun):
        assert ImageChops.difference(normal.crop(box), other.crop(box)).getbbox() is not None


def test_start_and_finish_cars_are_off_the_road(hill):
    """START cars wait behind the line (A4.1), finished cars stand past it (A15.1); knocked out: gone."""
    img = board_image(hill, board(hill, car("d1", 0, START, status="waiting"), car("d2", 1, FINISH,
                                                                                     status="finished"),
                                  car("d3", 2, _straights(hill)[1], status="out")))
    assert colour_count(img, space_pixel(hill, START), 80, car_colour(0)) > 150
    assert colour_count(img, space_pixel(hill, FINISH), 80, car_colour(1)) > 150
    assert colour_count(img, space_pixel(hill, _straights(hill)[1]), R, car_colour(2)) < 10


def test_active_car_has_a_halo(hill):
    space = _straights(hill)[1]
    plain = board_image(hill, board(hill, car("d1", 0, space)))
    active = board_image(hill, board(hill, car("d1", 0, space, active=True)))
    at = space_pixel(hill, space)
    white = (255, 255, 255)
    assert colour_count(active, at, 50, white, tol=4) > colour_count(plain, at, 50, white, tol=4) + 100
