"""Boards and results go out as palette PNGs (bot.render.encode): smaller, and the same to the eye.

Each check compares the decoded palette PNG with the true-colour frame it was made from.

- Mean |difference| per channel below MEAN_MAX = 1.5 (of 255) over the whole image. Quantising
  spreads a small error over every antialiased edge rather than changing a spot: 1.5 levels is
  0.6 % of the range, under the 2–3 levels two flat sRGB patches side by side must differ by to
  be told apart (about one just-noticeable difference, ΔE ≈ 1, in mid tones). Measured: 0.6–0.9
  on the shipped stages' boards.
- Almost no pixel changes strongly: a grey-level change above 40 (the snapshot test's
  CHANGED_LEVEL, which a car moved by one space exceeds on 0.8 % of the pixels) on less than
  STRONG_MAX = 0.05 % of them. Measured: none.
- Small text stays legible: in every text's ink box (the header, the drivers' table, as the
  tests of bot.render.textbox find them), no pixel's grey level moves by half the contrast of
  that text (its darkest and lightest pixel in the true-colour frame) or more, so a pixel of ink
  stays nearer the ink than the background and a background pixel nearer the background; and
  fewer than FLIP_MAX = 1 % of the box's pixels change side of the half-way grey (measured
  0.2 %: antialiased edge pixels that sat right at it). The smallest contrast on a board
  (PANEL_MUTED on PANEL_BG) is ~130 grey levels; the largest error in a text box measured 29.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat
from render_helpers import board, car, decode, first
from render_helpers import classic_board as render_board
from render_helpers import classic_results as render_results

from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import SpaceKind
from bot.engine.rallyman.view import PathStep, ResultRow, ResultsView
from bot.render import render_table
from bot.render.encode import to_png
from bot.render.options import RenderOptions
from bot.render.rallyman.board import board_image, board_texts
from bot.render.rallyman.results import results_image
from bot.render.rallyman.sample import sample_view
from bot.render.table import TableView, table_image

MEAN_MAX = 1.5
STRONG_LEVEL = 40
STRONG_MAX = 0.0005
FLIP_MAX = 0.01


def _mean(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def _strong(a: Image.Image, b: Image.Image) -> float:
    grey = ImageChops.difference(a.convert("L"), b.convert("L")).tobytes()
    return sum(1 for v in grey if v > STRONG_LEVEL) / len(grey)


def _as_sent(frame: Image.Image) -> Image.Image:
    png = to_png(frame)
    img = decode(png)
    assert img.mode == "P"
    return img.convert("RGB")


def _busy(hill):
    skid = first(hill, SpaceKind.SKID)
    straight = [s.id for s in hill.spaces if s.kind is SpaceKind.STRAIGHT]
    cars = [car(f"d{i}", i, straight[i % len(straight)], name=f"Pilote Ünal {i}", initials=f"P{i}",
                gear=i % 5, chrono_s=100 + 7 * i, hazards=i % 2) for i in range(8)]
    cars[0] = car("d0", 0, skid, name="Sébastien Morel", initials="SM", pose="skid", active=True, gear=4)
    return board(hill, *cars, path=(PathStep(space=straight[2], die="3", hazard=False),
                                    PathStep(space=skid, die="W", hazard=True)),
                 path_driver="d0", dirt={0: 1}, status="Sébastien Morel to play — skidding in 4th · 21:00")


@pytest.mark.parametrize("which", ["hill-8-cars", "greystone-col", "gen-5"])
def test_the_palette_board_looks_like_the_true_colour_frame(which, hill):
    if which == "hill-8-cars":
        stage, view = hill, _busy(hill)
    else:
        stage = load_stage(which)
        view = sample_view(stage)
    frame = board_image(stage, view)
    sent = _as_sent(frame)
    assert _mean(frame, sent) < MEAN_MAX
    assert _strong(frame, sent) < STRONG_MAX
    flips = pixels = 0
    for text in board_texts(stage, view):
        if not text.text:
            continue
        box = tuple(round(v) for v in text.ink_box())
        true, palette = frame.crop(box).convert("L"), sent.crop(box).convert("L")
        low, high = true.getextrema()
        error = ImageChops.difference(true, palette).getextrema()[1]
        assert error < (high - low) / 2, f"{text.what} {text.text!r}: error {error}, contrast {high - low}"
        half = (low + high) / 2
        a, b = true.tobytes(), palette.tobytes()
        flips += sum((x < half) != (y < half) for x, y in zip(a, b))
        pixels += len(a)
    assert flips / pixels < FLIP_MAX


def test_results_and_tables_too():
    results = ResultsView(stage="hill", title="Snapshot Hill", rows=(
        ResultRow(driver_id="x", name="Kari Ødegaard", colour=2, status="dnf"),
        ResultRow(driver_id="a", name="Sébastien Morel", colour=0, time_s=250),
        ResultRow(driver_id="b", name="Jürgen Kraus", colour=1, time_s=230)))
    table = TableView(title="Spring Cup — Round 3", subtitle="Pinewood Sprint · 3 drivers",
                      columns=(("#", "r", 0.6), ("Driver", "l", 3), ("Time", "r", 1.2)),
                      rows=(("1", "Ana Silva", "4:10"), ("2", "Jürgen Kraus", "4:30"),
                            {"cells": ("—", "Ivo Petrov", "DNF"), "muted": True}))
    for frame, png in ((results_image(results), render_results(results)), (table_image(table), render_table(table))):
        sent = decode(png)
        assert sent.mode == "P"
        assert _mean(frame, sent.convert("RGB")) < MEAN_MAX
        assert _strong(frame, sent.convert("RGB")) < STRONG_MAX


def test_palette_pngs_are_a_third_of_the_true_colour_size_and_the_same_bytes_every_time():
    stage = load_stage("greystone-col")
    view = sample_view(stage)
    png = render_board(stage, view)
    true_colour = render_board(stage, view, RenderOptions(palette=False))
    assert decode(true_colour).mode == "RGB"
    assert len(png) < 150 * 1024 and len(png) < len(true_colour) / 2
    assert render_board(stage, view) == png  # no dithering, no randomness: a pure function


def test_an_image_already_in_palette_mode_is_written_as_it_is():
    img = Image.new("P", (8, 8), 3)
    img.putpalette([0, 0, 0, 255, 0, 0, 0, 255, 0, 10, 20, 30])
    assert decode(to_png(img)).getpixel((0, 0)) == 3
    assert decode(to_png(Image.new("RGB", (8, 8), (10, 20, 30)), palette=False)).mode == "RGB"
    assert Image.open(io.BytesIO(to_png(Image.new("RGB", (8, 8), (10, 20, 30))))).convert("RGB").getpixel(
        (3, 3)) == (10, 20, 30)
