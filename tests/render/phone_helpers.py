"""Helpers of the phone-size board tests: every text a picture draws, seen at the width a phone
shows it (bot.render.fonts PHONE_WIDTH), with every cache of drawn parts emptied first so the
static layers' texts are drawn (and recorded) too; and the red a robot mark adds round a car."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image

from bot.render import cache, disk_cache
from bot.render import palette as P
from bot.render.drawing import DrawnText, recording_texts
from bot.render.fonts import PHONE_TEXT_PX, PHONE_WIDTH
from bot.render.rallyman.static_layer import cache_clear


@contextmanager
def nothing_kept(folder: Path) -> Iterator[None]:
    """Every in-memory cache of the renderer empty and an empty disk cache folder inside the block
    (the session's folder back after it)."""
    before = disk_cache.cache_dir()
    for kept in cache.caches():
        kept.clear()
    cache_clear()
    disk_cache.set_cache_dir(folder)
    try:
        yield
    finally:
        disk_cache.flush()
        disk_cache.set_cache_dir(before)


def drawn(folder: Path, draw: Callable[[], Image.Image]) -> tuple[Image.Image, list[DrawnText]]:
    """The picture `draw` gives and every text drawn for it, static layers included."""
    with nothing_kept(folder), recording_texts() as texts:
        image = draw()
    return image, texts


def on_phone(size: float, image: Image.Image) -> float:
    """A size in the picture's pixels, as tall as it shows once the picture is PHONE_WIDTH wide."""
    return size * PHONE_WIDTH / image.width


def too_small(image: Image.Image, texts: list[DrawnText]) -> list[tuple[str, float]]:
    """The texts smaller than PHONE_TEXT_PX on a phone, with their size there."""
    return sorted((t.text, round(on_phone(t.size, image), 1)) for t in texts
                  if on_phone(t.size, image) < PHONE_TEXT_PX)


def marks_near(image: Image.Image, centre: tuple[float, float], radius: float) -> int:
    """Pixels of the red of a robot mark's antenna tip within `radius` of `centre` (the same board
    with the seat a person's has fewer: the mark is what adds them)."""
    cx, cy = centre
    box = (max(0, int(cx - radius)), max(0, int(cy - radius)), min(image.width, int(cx + radius)),
           min(image.height, int(cy + radius)))
    data = image.crop(box).convert("RGB").tobytes()
    return sum(1 for p in zip(data[0::3], data[1::3], data[2::3]) if p == P.HAZARD_RED)
