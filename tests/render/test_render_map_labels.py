"""Nothing clipped at the map's edge: a label of the map (START, FINISH, SPLIT,
a zone's name) that a camera window's edge cuts is drawn again whole inside the window, and no
label lies over the START or FINISH label, on every shipped stage's preview and boards, in every
language."""

from __future__ import annotations

import itertools

import pytest

from bot.engine.rallyman.simulate import board_after_turns
from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.render import palette as P
from bot.render.options import RenderOptions
from bot.render.rallyman import board as board_module
from bot.render.rallyman.board import board_image, board_labels, board_window, map_window
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.static_layer import label_boxes
from bot.render.words import word

LANGS = ("en", "fr", "de")
TURNS = (0, 3, 6, 9, 12, 18, 21, 24, 30, 45, 51)


def overlapping(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_clear_of_start_and_finish(labels, lang: str) -> None:
    ends = [label for label in labels if label.text in (word("start", lang), word("finish_line", lang))]
    for end, other in itertools.product(ends, labels):
        if other is not end:
            assert not overlapping(end.box, other.box), f"{other.text!r} over {end.text!r}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", stage_names())
def test_every_label_of_every_board_and_preview_lies_whole_inside_the_map(name, lang):
    stage, options = load_stage(name), RenderOptions(lang=lang)
    preview = board_layout(stage, options, preview=True)
    labels = label_boxes(stage, preview, frozenset(stage.snow_zones), options)
    for label in labels:
        x0, y0, x1, y1 = label.box
        assert -0.5 <= x0 and -0.5 <= y0 and x1 <= preview.static_size[0] + 0.5 and y1 <= preview.static_size[1] + 0.5
    assert_clear_of_start_and_finish(labels, lang)
    for turns in TURNS:
        view = board_after_turns(stage, seed=1, turns=turns)
        wx0, wy0, wx1, wy1 = map_window(board_window(stage, view, options)[0])
        seen = board_labels(stage, view, options)
        for label in seen:
            x0, y0, x1, y1 = label.box
            assert wx0 - 0.5 <= x0 and wy0 - 0.5 <= y0 and x1 <= wx1 + 0.5 and y1 <= wy1 + 0.5, (turns, label)
        assert_clear_of_start_and_finish(seen, lang)


def cutting_window(monkeypatch, stage, text: str) -> None:
    """Every board of `stage` drawn through a camera window whose right edge cuts the label `text`
    through its middle (the camera keeps labels whole where it can: this puts the edge there)."""
    options = RenderOptions()
    layout = board_layout(stage, options)
    box = next(label.box for label in label_boxes(stage, layout, frozenset(stage.snow_zones), options)
               if label.text == text)
    origin = (round((box[0] + box[2]) / 2) - layout.map_size[0], round(box[1]) - 100)
    monkeypatch.setattr(board_module, "camera_window", lambda *args: (layout, origin))


def test_a_split_label_the_window_cuts_is_drawn_whole_against_its_edge(monkeypatch):
    stage = load_stage("ironside-climb")
    cutting_window(monkeypatch, stage, "SPLIT")
    view = board_after_turns(stage, seed=1, turns=0)
    split = next(label for label in board_labels(stage, view) if label.text == "SPLIT")
    window = map_window(board_layout(stage, RenderOptions()))
    assert split.box[2] == pytest.approx(window[2])  # pushed in, flush with the right edge
    img = board_image(stage, view)
    y = round(split.at[1])
    purple = [x for x in range(round(split.box[0]), img.width) if img.getpixel((x, y)) == P.SPLIT]
    assert purple and max(purple) >= img.width - 3  # the pill's colour reaches the edge: nothing cut off
    assert min(purple) < split.box[0] + 10  # and begins where the whole pill begins


def test_a_shortcut_tag_the_window_cuts_is_drawn_whole_against_its_edge(monkeypatch):
    """The issue's "K4" (the window's right edge cut the K4 tag of Frozen Lakes' second corner's
    shortcut): it is drawn again whole, flush with the edge, in its own font."""
    stage = load_stage("frozen-lakes")
    cutting_window(monkeypatch, stage, "K4")
    view = board_after_turns(stage, seed=1, turns=0)
    tag = next(label for label in board_labels(stage, view) if label.text == "K4")
    window = map_window(board_layout(stage, RenderOptions()))
    assert tag.box[2] == pytest.approx(window[2]) and tag.size > 0
    img = board_image(stage, view)
    y = round(tag.at[1])
    brown = [x for x in range(round(tag.box[0]), img.width) if img.getpixel((x, y)) == P.SHORTCUT]
    assert brown and max(brown) >= img.width - 3
