"""The board of the inline stage still looks like the stored reference (with a tolerance).

The reference is a small (quarter-size) PNG in snapshots/. Two tolerances after the same
downscale: the mean absolute pixel difference, and the share of pixels that changed strongly.
Antialiasing or font hinting changes pass (3× instead of 2× supersampling: 0.34 / 0 %); one car
one space further (0.86 / 0.8 %), a lost terrain strip or another palette fail. Regenerate on
purpose only:
RALLYBOT_UPDATE_SNAPSHOTS=1 python3 -m pytest tests/render/test_render_snapshot.py
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops, ImageStat
from render_helpers import board, car, first

from bot.engine.rallyman.stages.model import SpaceKind
from bot.engine.rallyman.view import PathStep
from bot.render.rallyman.board import board_image

SNAPSHOT = Path(__file__).parent / "snapshots" / "hill_board.png"
MEAN_MAX = 0.6      # mean |difference| per channel, 0–255
CHANGED_MAX = 0.004  # share of pixels whose grey difference exceeds CHANGED_LEVEL
CHANGED_LEVEL = 40
SIZE = 4  # downscale factor of the stored reference


def _view(hill):
    skid = first(hill, SpaceKind.SKID)
    straight = [s.id for s in hill.spaces if s.kind is SpaceKind.STRAIGHT]
    return board(
        hill,
        car("d1", 0, skid, name="Sébastien Morel", initials="SM", pose="skid", gear=4, chrono_s=130, hazards=1,
            active=True),
        car("d2", 1, straight[1], name="Jürgen Kraus", initials="JK", gear=3, chrono_s=120, black_lost=1),
        car("d3", 2, straight[1], name="Kari Ødegaard", initials="KØ", gear=2, chrono_s=140, white_lost=1,
            spare=False),
        car("d4", 3, straight[0], name="Ana Silva", initials="AS", pose="off_right", chrono_s=150),
        path=(PathStep(space=straight[2], die="3", hazard=False), PathStep(space=skid, die="4", hazard=True)),
        path_driver="d1", dirt={0: 1}, status="Sébastien Morel to play — skidding in 4th",
    )


def _small(img: Image.Image) -> Image.Image:
    return img.convert("RGB").resize((img.width // SIZE, img.height // SIZE), Image.BOX)


def _difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean |difference| per channel, share of strongly changed pixels)."""
    diff = ImageChops.difference(a, b)
    grey = diff.convert("L").tobytes()
    return sum(ImageStat.Stat(diff).mean) / 3, sum(1 for v in grey if v > CHANGED_LEVEL) / len(grey)


def _matches(a: Image.Image, b: Image.Image) -> bool:
    mean, changed = _difference(a, b)
    return mean < MEAN_MAX and changed < CHANGED_MAX


def test_board_matches_snapshot(hill):
    current = _small(board_image(hill, _view(hill)))
    update = os.environ.get("RALLYBOT_UPDATE_SNAPSHOTS") == "1"
    if update:
        SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        current.save(SNAPSHOT, format="PNG", compress_level=6)
    assert SNAPSHOT.exists(), f"{SNAPSHOT} is missing: run with RALLYBOT_UPDATE_SNAPSHOTS=1 to create it"
    reference = Image.open(SNAPSHOT).convert("RGB")
    assert reference.size == current.size, f"size changed: {reference.size} → {current.size}"
    mean, changed = _difference(reference, current)
    assert mean < MEAN_MAX and changed < CHANGED_MAX, (
        f"board differs from the snapshot: mean {mean:.2f}, {changed:.2%} of pixels changed")


def test_snapshot_tolerance_catches_one_car_moved(hill):
    """The tolerance is not vacuous: the same board with one car a space further fails it."""
    view = _view(hill)
    first_car = view.cars[0].model_copy(update={"space": view.cars[0].space + 1})
    moved = view.model_copy(update={"cars": (first_car,) + view.cars[1:]})
    assert not _matches(_small(board_image(hill, view)), _small(board_image(hill, moved)))
