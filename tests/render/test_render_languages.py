"""The images speak the rally's (or the league's) language and every text fits, in every language
.

- Words: the board's table heads, round, status line and gear words, the map's START / FINISH /
  split labels, the preview's figures and terrains, the results' heads and special numbers, and the
  league tables' heads, cells and notes are the catalogue's texts of the language the image is drawn
  in; `draw(renderer, spec, lang)` passes the outbox row's language on, and the static-layer cache
  keeps one layer per language.
- Fit: every shipped stage's board and preview, a rally's results and a league table, drawn in each
  language of `languages()`, keep every text's ink inside its cell (the boxes the drawing itself
  draws), no two texts overlap, and the map's labels stay on the map without covering each other.
  A word too long for its column gets a smaller font (never below the readable minimum), then an
  ellipsis: it is never clipped and never runs into the next column.
"""

from __future__ import annotations

import itertools
import json

import pytest
from PIL import ImageChops
from render_helpers import board, car, decode

from bot.engine.core.scores import format_time
from bot.engine.core.text import msg
from bot.engine.rallyman.classify import classification
from bot.engine.rallyman.game import new_game
from bot.engine.rallyman.simulate import ai_seats, play_rally, play_stage
from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.engine.rallyman.stages.model import FINISH, START, SpaceKind
from bot.engine.rallyman.state import FINISHED
from bot.engine.rallyman.view import PathStep, ResultRow
from bot.i18n import catalogue, languages, render
from bot.render import words
from bot.render.fonts import BOARD_FONT_PX, MIN_FONT_PX, font
from bot.render.options import RenderOptions
from bot.render.rallyman.board import board_texts, dirt_boxes, map_window
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.panel import COL, HEAD_PAD, ROW_TEXT
from bot.render.rallyman.preview import preview_texts
from bot.render.rallyman.results import results_texts
from bot.render.rallyman.sample import sample_view
from bot.render.rallyman.static_layer import label_boxes, static_layer, stats
from bot.render.table import CELL_PAD, Column, TableRow, TableView, layout
from bot.render.textbox import TextBox
from bot.services.images import (
    board_spec,
    default_renderer,
    draw,
    draw_async,
    preview_spec,
    results_of,
    results_spec,
    table_spec,
    table_view,
)
from bot.services.work import Post, post_tx
from tests.discord.fakes import CHANNEL, GUILD, Harness

PNG = b"\x89PNG\r\n\x1a\n"
LANGS = languages()
NAMES = stage_names()
OTHER_LANGS = [lang for lang in LANGS if lang != "en"]
LONG_NAME = "Maximilian-Alexander von Hohenzollern-Sigmaringen Wöhrle"  # 56 characters, a real-looking name
RALLY = ["pinewood-sprint", "quarry-switchbacks", "pinewood-sprint", "quarry-switchbacks"]  # the most specials


def said(lang: str, key: str, **params: object) -> str:
    """The catalogue's text of `key` in `lang`."""
    return catalogue(lang)[key].format(**params)


class Recorder:
    """A renderer that keeps what it was asked to draw and in which language."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    def board(self, game, stage, view, lang="en") -> bytes:
        self.calls.append(("board", lang, view))
        return PNG

    def preview(self, game, stage, lang="en") -> bytes:
        self.calls.append(("preview", lang, stage))
        return PNG

    def results(self, game, state, lang="en") -> bytes:
        self.calls.append(("results", lang, state))
        return PNG

    def table(self, view, lang="en") -> bytes:
        self.calls.append(("table", lang, view))
        return PNG


def busy_board(stage, lang: str, name: str = LONG_NAME):
    """Every kind of row at once: the driver to play (with a long name), a finished car, one
    knocked out, one waiting at the start; the last turn's dice with ⚠, dirt on a corner, seconds
    held, and the status line in `lang`."""
    base = sample_view(stage)
    lead, shared = base.cars[0], base.cars[1]
    cars = (
        lead.model_copy(update={"name": name, "seconds_held": 12, "hazards": 2}),
        shared.model_copy(update={"space": FINISH, "status": "finished", "place": 1, "chrono_s": 3725}),
        base.cars[2].model_copy(update={"status": "out", "black_lost": 5, "white_lost": 2}),
        base.cars[3].model_copy(update={"space": START, "status": "waiting", "chrono_s": 0}),
    )
    path = base.path + (PathStep(space=base.path[-1].space, die="W", hazard=True),) * 4
    dirt = {c.id: 3 for c in stage.corners[:3]}
    status = render(msg("board.to_drive", name=name), lang)
    return base.model_copy(update={"cars": cars, "path": path, "dirt": dirt, "round": 88, "status": status})


def overlapping(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


def assert_all_fit(texts: list[TextBox]) -> None:
    """Every text's ink inside its cell, at least the readable size, and no two texts overlapping."""
    for t in texts:
        assert t.inside(), f"{t.what}: {t.text!r} ink {t.ink_box()} leaves its cell {t.cell}"
        assert t.size >= MIN_FONT_PX, f"{t.what}: {t.text!r} at {t.size} px"
    inked = [t for t in texts if t.text.strip()]
    for a, b in itertools.combinations(inked, 2):
        assert not overlapping(a.ink_box(), b.ink_box()), f"{a.what} {a.text!r} overlaps {b.what} {b.text!r}"


def assert_labels_fit(labels, size: tuple[int, int]) -> None:
    """The map's pills lie on the map and none covers another."""
    width, height = size
    for label in labels:
        x0, y0, x1, y1 = label.box
        assert -0.5 <= x0 and -0.5 <= y0 and x1 <= width + 0.5 and y1 <= height + 0.5, (label.text, label.box, size)
    for a, b in itertools.combinations(labels, 2):
        assert not overlapping(a.box, b.box), f"map label {a.text!r} covers {b.text!r}"


# -- the words are the image's language's ----------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_the_board_prints_its_table_heads_round_and_gear_words_in_the_rally_language(hill, lang):
    texts = {t.what: t.text for t in board_texts(hill, busy_board(hill, lang), RenderOptions(lang=lang))}
    for key in ("driver", "gear", "time", "damage", "seconds"):  # the spare tire's head is its symbol
        assert texts[f"table head {key}"] == said(lang, f"render.{key}")  # whole: the shipped words fit
    assert texts["header round"] == said(lang, "render.round", n=88)
    # the status line keeps the phone's readable size: with a 56-character name it is cut, whole
    # with a usual one (the same words are the post's text, whole)
    status = said(lang, "board.to_drive", name=LONG_NAME)
    assert texts["header status"].endswith("…") and status.startswith(texts["header status"][:-1])
    usual = {t.what: t.text for t in board_texts(hill, busy_board(hill, lang, "Kari Ødegaard"),
                                                  RenderOptions(lang=lang))}
    assert usual["header status"] == said(lang, "board.to_drive", name="Kari Ødegaard")
    gears = {texts[f"row {i} gear"] for i in range(1, 5)}
    assert {said(lang, "render.finished"), said(lang, "render.dnf")} <= gears
    assert texts["last turn"].startswith(said(lang, "render.last_turn"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_board_spec_is_drawn_with_the_status_line_in_the_language_it_is_drawn_in(lang):
    """The spec holds the state only: whose turn it is, or the fastest time, is said when drawn."""
    running = new_game("pinewood-sprint", ai_seats(2), seed=1)
    finished, _ = play_stage("pinewood-sprint", drivers=3, seed=4)
    recorder = Recorder()
    draw(recorder, board_spec(running), lang)
    draw(recorder, board_spec(finished), lang)
    (_, lang_1, view_1), (_, lang_2, view_2) = recorder.calls
    assert lang_1 == lang_2 == lang
    driver = running.cars[running.turn.car].name
    assert view_1.status == said(lang, "board.to_drive", name=driver)
    best = next(row for row in classification(finished) if row["status"] == FINISHED)
    assert view_2.status == said(lang, "board.finished_fastest", name=best["name"], time=format_time(best["time"]))


@pytest.mark.parametrize("lang", LANGS)
def test_a_rally_results_image_numbers_its_specials_the_language_s_way(lang):
    state, _ = play_rally(RALLY[:2], drivers=3, seed=3)
    view = results_of(state, lang)
    assert view.columns == (said(lang, "render.special", n=1), said(lang, "render.special", n=2))
    # the last special's card is the rally classification, an earlier one "SS1 — … — Results"
    assert view.title == said(lang, "render.rally_classification")
    texts = {t.what: t.text for t in results_texts(view, RenderOptions(lang=lang))}
    assert texts["head total"] == said(lang, "render.total") and texts["head gap"] == said(lang, "render.gap")
    assert texts["header title"] == said(lang, "render.rally_classification")
    recorder = Recorder()
    draw(recorder, results_spec(state), lang)
    assert [(kind, drawn_in) for kind, drawn_in, _ in recorder.calls] == [("results", lang)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_preview_counts_the_stage_and_names_its_terrains_in_the_rally_language(lang):
    stage = load_stage("ridge-and-moor")
    texts = preview_texts(stage, RenderOptions(lang=lang))
    facts = next(t.text for t in texts if t.what == "header status")
    assert facts.startswith(f"{stage.length} {said(lang, 'render.fact_spaces.other')} · ")
    assert said(lang, "render.fact_splits.other") in facts
    terrains = {t.text.rsplit(" ", 1)[0] for t in texts if t.what.startswith("zone ") and not t.what.endswith("title")}
    assert said(lang, "render.terrain.forest") in terrains and said(lang, "render.terrain.rocks") in terrains


def test_french_counts_zero_as_singular_and_english_as_plural():
    assert words.counted("fact_splits", 0, "en") == "0 splits"
    assert words.counted("fact_corners", 1, "en") == "1 corner"
    if "fr" in LANGS:
        assert words.counted("fact_corners", 0, "fr") == f"0 {said('fr', 'render.fact_corners.one')}"
        assert words.counted("fact_corners", 2, "fr") == f"2 {said('fr', 'render.fact_corners.other')}"


def test_the_static_layer_cache_keeps_one_layer_per_language_and_each_prints_its_own_words(hill, fresh_cache):
    layout_ = board_layout(hill, RenderOptions())
    snow = frozenset(hill.snow_zones)
    layers = {lang: static_layer(hill, layout_, snow, RenderOptions(lang=lang)) for lang in LANGS}
    assert stats.misses == len(LANGS) and stats.hits == 0
    assert static_layer(hill, layout_, snow, RenderOptions(lang=LANGS[-1])) is layers[LANGS[-1]]
    for lang in LANGS:
        shown = {label.text for label in label_boxes(hill, layout_, snow, RenderOptions(lang=lang))}
        assert {said(lang, "render.start"), said(lang, "render.finish_line"), said(lang, "render.split")} <= shown
    for lang in OTHER_LANGS:
        english = {label.text: label.box for label in label_boxes(hill, layout_, snow, RenderOptions())}
        if said(lang, "render.finish_line") != english["FINISH"]:
            box = ImageChops.difference(layers["en"], layers[lang]).getbbox()
            assert box is not None and overlapping(box, english["FINISH"])


@pytest.mark.parametrize("lang", LANGS)
def test_a_league_table_keeps_its_message_keys_through_the_outbox_and_is_drawn_in_the_league_language(lang):
    """The services build a table from messages; the row (JSON) keeps their keys beside the plain
    English table, and the picture shows them in the language it is drawn in."""
    columns = (Column(label=msg("league.col_pos"), align="c", weight=1),
               Column(label=msg("league.col_driver"), weight=5),
               Column(label=msg("league.col_time"), align="r", weight=2))
    rows = (TableRow(cells=("1", "Ana Silva", "4:10")),
            TableRow(cells=("—", "Ivo Petrov", msg("league.dnf")), muted=True))
    view = TableView(title=msg("league.standings_title", league="Coupe d'hiver"), subtitle=msg("league.drop_none"),
                     columns=columns, rows=rows, note=msg("league.seed_note", seed="3f9a0c"))
    spec = json.loads(json.dumps(table_spec(view, "standings.png"), ensure_ascii=False))
    assert spec["table"]["columns"][1]["label"] == said("en", "league.col_driver")  # the plain table stays English
    back = table_view(spec)
    options = RenderOptions(lang=lang)
    drawn = layout(back, options)
    heads = [t.text for t in drawn.texts if t.row == -1]
    assert heads == [said(lang, "league.col_pos"), said(lang, "league.col_driver"), said(lang, "league.col_time")]
    assert next(t.text for t in drawn.texts if t.row == 1 and t.col == 2) == said(lang, "league.dnf")
    assert next(t.text for t in drawn.texts if t.row == -2) == said(lang, "league.seed_note", seed="3f9a0c")
    recorder = Recorder()
    draw(recorder, spec, lang)
    ((kind, drawn_in, drawn_view),) = recorder.calls
    assert (kind, drawn_in) == ("table", lang)
    assert render(drawn_view.title, lang) == said(lang, "league.standings_title", league="Coupe d'hiver")
    assert decode(draw(default_renderer(), spec, lang)).width == options.width


def test_a_table_spec_written_before_texts_had_keys_still_draws_its_plain_texts():
    view = TableView(title="Spring Cup", columns=(("Driver", "l", 1),), rows=(("Ana",),))
    old = {"kind": "table", "table": view.model_dump(mode="json")}
    for spec in (old, {**old, "texts": {"labels": [{"key": "no.such.key", "params": {}}], "cells": [["x"]]}}):
        back = table_view(spec)
        assert (back.title, back.columns[0].label, back.rows[0].cells) == ("Spring Cup", "Driver", ("Ana",))
    assert draw(default_renderer(), old, OTHER_LANGS[0] if OTHER_LANGS else "en").startswith(PNG)


async def test_the_sender_draws_each_post_s_image_in_the_language_of_its_post(tmp_path):
    async with Harness(tmp_path / "lang.sqlite3") as h:
        recorder = Recorder()
        h.bot.sender.renderer = recorder
        now = h.clock()
        other = OTHER_LANGS[0] if OTHER_LANGS else "en"

        async def owe(tx) -> None:
            await post_tx(tx, Post(["a board"], image=preview_spec("pinewood-sprint")), GUILD, CHANNEL, now,
                          lang=other)
            await post_tx(tx, Post(["a preview"], image=preview_spec("pinewood-sprint")), GUILD, CHANNEL, now)

        await h.bot.store.db.write(owe)
        await h.bot.sender.flush()
        assert [(kind, lang) for kind, lang, _ in recorder.calls] == [("preview", other), ("preview", "en")]


async def test_draw_async_without_a_language_draws_english():
    recorder = Recorder()
    assert await draw_async(recorder, preview_spec("pinewood-sprint")) == PNG
    assert [(kind, lang) for kind, lang, _ in recorder.calls] == [("preview", "en")]


# -- every text fits, in every language ----------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_every_text_of_every_stage_s_board_and_preview_stays_inside_its_cell(name, lang):
    stage = load_stage(name)
    options = RenderOptions(lang=lang)
    view = busy_board(stage, lang)
    assert_all_fit(board_texts(stage, view, options))
    window = map_window(board_layout(stage, options))
    tags = dirt_boxes(stage, view, options)
    assert tags and all(tag.text.startswith("● ") for tag in tags)
    for tag in tags:  # a tag of a corner outside the camera window is not seen: it may be cut
        if tag.visible:
            x0, y0, x1, y1 = tag.box
            assert window[0] <= x0 and window[1] <= y0 and x1 <= window[2] and y1 <= window[3], (tag, window)
    assert_all_fit(preview_texts(stage, options))
    snow = frozenset(stage.snow_zones)
    for preview in (False, True):
        lay = board_layout(stage, options, preview=preview)
        assert_labels_fit(label_boxes(stage, lay, snow, options), lay.static_size)


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_of_a_rally_s_results_stays_inside_its_cell(lang):
    state, _ = play_rally(RALLY, drivers=4, seed=3)
    view = results_of(state, lang)
    rows = tuple(r.model_copy(update={"name": LONG_NAME + str(i)}) for i, r in enumerate(view.rows))
    out = ResultRow(driver_id="x", name=LONG_NAME, status="dnf", times=(250, None, None, None))
    view = view.model_copy(update={"rows": (*rows, out)})
    texts = results_texts(view, RenderOptions(lang=lang))
    assert len([t for t in texts if t.what.startswith("row ") and t.what.endswith((" special", " special_winner"))]) \
        == 4 * len(view.rows)
    assert_all_fit(texts)
    single, _ = play_stage("quarry-switchbacks", drivers=4, seed=2)
    assert_all_fit(results_texts(results_of(single, lang), RenderOptions(lang=lang)))


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_of_a_league_table_stays_inside_its_cell(lang):
    columns = tuple(Column(label=msg(key), align=align, weight=weight) for key, align, weight in (
        ("league.col_pos", "c", 1), ("league.col_driver", "l", 5), ("league.col_time", "r", 2),
        ("league.col_gap", "r", 2), ("league.col_penalty", "r", 2), ("league.col_points", "r", 2)))
    rows = (TableRow(cells=("1", LONG_NAME, "4:10", "", "+10s", "25 +3")),
            TableRow(cells=("—", "Ivo Petrov", msg("league.dsq"), msg("league.reason_retired"), "", "0"), muted=True))
    view = TableView(title=msg("league.standings_title", league=LONG_NAME), subtitle=msg("league.drop_best", n=3),
                     columns=columns, rows=rows, note=msg("league.seed_note", seed="3f9a" * 4))
    for t in layout(table_view(json.loads(json.dumps(table_spec(view)))), RenderOptions(lang=lang)).texts:
        x0, y0, x1, y1 = t.box
        left, top, right, bottom = t.font.getbbox(t.text, anchor=t.anchor)
        assert t.font.getlength(t.text) <= (x1 - x0) - 2 * CELL_PAD, (t.row, t.col, t.text)
        assert x0 + CELL_PAD - 1 <= t.xy[0] + left and t.xy[0] + right <= x1 - CELL_PAD + 1, (t.row, t.col, t.text)
        assert y0 <= t.xy[1] + top and t.xy[1] + bottom <= y1, (t.row, t.col, t.text)


# -- words too long for their column ---------------------------------------------------------------------

def _long_words(word_for: str):
    """A stand-in language whose every render word is `word_for` (placeholders kept)."""
    english = words.labels("en")

    def labels(lang: str = "en"):
        if lang != "xx":
            return english
        return {key: word_for + (" {n}" if "{n}" in text else "") for key, text in english.items()}
    return labels


def test_a_word_too_long_for_its_column_is_cut_with_an_ellipsis_at_the_readable_size(hill, monkeypatch):
    monkeypatch.setattr(words, "labels", _long_words("Höchstgeschwindigkeitsüberschreitung"))
    options = RenderOptions(lang="xx")
    texts = board_texts(hill, busy_board(hill, "en", name="Jo"), options)
    assert_all_fit(texts)
    heads = [t for t in texts if t.what.startswith("table head")]
    assert heads and all(t.text.startswith("Hö") and t.text.endswith("…") for t in heads)
    assert_all_fit(results_texts(results_of(play_stage("pinewood-sprint", drivers=3, seed=4)[0]), options))


def test_a_word_a_little_too_long_gets_a_smaller_font_and_stays_whole(hill, monkeypatch):
    gear_room = (COL["time"] - COL["gear"]) - 2 * HEAD_PAD  # the gear column less its padding (px at 1080)
    word_ = "ARRIV"
    assert font(ROW_TEXT, True).getlength(word_) > gear_room >= font(BOARD_FONT_PX, True).getlength(word_)
    monkeypatch.setattr(words, "labels", _long_words(word_))
    finished = board(hill, car("d1", 0, FINISH, status="finished", chrono_s=200),
                     car("d2", 1, next(s.id for s in hill.spaces if s.kind is SpaceKind.STRAIGHT)))
    (gear,) = [t for t in board_texts(hill, finished, RenderOptions(lang="xx")) if t.what == "row 1 gear"]
    assert gear.text == word_ and BOARD_FONT_PX <= gear.size < ROW_TEXT and gear.inside()
