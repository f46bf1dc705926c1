"""`draw_text` keeps a text's glyph mask from its second sighting on (bot.render.drawing): the
pixels must be exactly `ImageDraw.text`'s at every sub-pixel start. A mask whose text started at a
negative fraction lost a glyph's top row (a tile number of a Road Rally USA board: the first board
of a process differed from the next ones, so equal views did not give equal PNGs)."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.render.drawing import draw_text
from bot.render.fonts import font

STARTS = [(31.714285714285666, 913.1428571428571), (10.3, 10.3), (40.05, 20.95), (50.5, 60.5), (7.0, 7.0)]


def _drawn(xy: tuple[float, float], text: str, size: int, anchor: str, bold: bool) -> Image.Image:
    img = Image.new("RGB", (200, 1000), (232, 214, 176))
    draw_text(ImageDraw.Draw(img), xy, text, font(size, bold), (150, 112, 70), anchor)
    return img


def _direct(xy: tuple[float, float], text: str, size: int, anchor: str, bold: bool) -> Image.Image:
    img = Image.new("RGB", (200, 1000), (232, 214, 176))
    ImageDraw.Draw(img).text(xy, text, font=font(size, bold), fill=(150, 112, 70), anchor=anchor)
    return img


@pytest.mark.parametrize("anchor", ["la", "mm", "ls", "ra"])
@pytest.mark.parametrize("size,bold", [(18, False), (22, True), (31, False)])
def test_a_kept_mask_draws_the_very_pixels_of_imagedraw_text(anchor, size, bold):
    for xy in STARTS:
        for text in ("8", "Ag", "Jürgen"):
            first = _drawn(xy, text, size, anchor, bold)   # first sighting: ImageDraw.text itself
            again = _drawn(xy, text, size, anchor, bold)   # from its kept mask
            assert ImageChops.difference(first, again).getbbox() is None, (xy, text)
            assert ImageChops.difference(again, _direct(xy, text, size, anchor, bold)).getbbox() is None
