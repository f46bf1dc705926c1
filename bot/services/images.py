"""The images a post carries, described as data and drawn only when the post is delivered.

An outbox row holds an image *spec* (`{"kind": "board", "state": <snapshot JSON>}`, `results`,
`{"kind": "preview", "stage": name}` or `{"kind": "table", "table": <TableView as JSON>}` for the
league tables), not the picture: the action's transaction stays small and the text never waits for
the drawing. The sender draws a spec with `draw_async`, in one worker thread (`RENDER_THREAD`) so a
burst of boards never takes the event loop; when a drawing fails the post goes without its picture.

Specs hold no language: `draw(renderer, spec, lang)` draws one in its reader's language (the
outbox row's `lang`, the rally's or the league's). A board's status line is made when it is drawn;
a table keeps its texts' message keys (`texts`) beside the plain table.

A spec may carry the attachment's file `name` ("standings.png", "scratch.png" ...); it is used only
when it is a plain `[a-z0-9-]+.png` name (it comes back from the database: never a path).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from bot.engine.board import board_view, default_status
from bot.engine.results import results_view
from bot.engine.stage_catalogue import load_stage
from bot.engine.stage_model import Stage
from bot.engine.state import GameState
from bot.engine.text import from_json, to_json
from bot.engine.view import BoardView, ResultsView
from bot.i18n import DEFAULT_LANG, render, t
from bot.services.work import snapshot_json

if TYPE_CHECKING:  # bot.render (Pillow) is imported on first use only
    from bot.render.options import RenderOptions
    from bot.render.table import TableView

RENDER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
NAMES = {"board": "board.png", "results": "results.png", "preview": "stage.png", "table": "standings.png"}
#: an attachment name a spec may choose: lower-case letters, digits and dashes, then .png
IMAGE_NAME = re.compile(r"[a-z0-9-]{1,60}\.png")


class Renderer(Protocol):
    """Draws images in a language (every word the picture prints); pure and slow-ish, so it runs
    in the render thread."""

    def board(self, stage: Stage, view: BoardView, lang: str = DEFAULT_LANG) -> bytes: ...

    def preview(self, stage: Stage, lang: str = DEFAULT_LANG) -> bytes: ...

    def results(self, state: GameState, lang: str = DEFAULT_LANG) -> bytes: ...

    def table(self, view: TableView, lang: str = DEFAULT_LANG) -> bytes: ...


class PillowRenderer:
    """Adapter from `Renderer` to the pure functions of bot.render (imported on first use)."""

    def board(self, stage: Stage, view: BoardView, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render import render_board

        return render_board(stage, view, _options(lang))

    def preview(self, stage: Stage, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render import render_stage_preview

        return render_stage_preview(stage, _options(lang))

    def results(self, state: GameState, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render import render_results

        return render_results(results_of(state, lang), _options(lang))

    def table(self, view: TableView, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render import render_table

        return render_table(view, _options(lang))


def _options(lang: str) -> RenderOptions:
    from bot.render.options import RenderOptions

    return RenderOptions(lang=lang)


def default_renderer() -> PillowRenderer:
    return PillowRenderer()


def board_spec(state: GameState) -> dict[str, Any]:
    """A board: the state's snapshot; its words (the status line too) are chosen when it is drawn."""
    return {"kind": "board", "state": snapshot_json(state)}


def results_spec(state: GameState) -> dict[str, Any]:
    return {"kind": "results", "state": snapshot_json(state)}


def preview_spec(stage_name: str) -> dict[str, Any]:
    return {"kind": "preview", "stage": stage_name}


def table_spec(view: TableView, name: str | None = None) -> dict[str, Any]:
    """A league table (round results, standings, world ranking); `name` is the attachment's file name.

    `table` is the view as plain JSON (its texts in English, for anything that reads the spec as
    text); `texts` holds the same texts with their message keys (`bot.engine.text.to_json`), so
    the picture is drawn in the reader's language."""
    spec: dict[str, Any] = {"kind": "table", "table": view.model_dump(mode="json"), "texts": _table_texts(view)}
    if name is not None:
        if not IMAGE_NAME.fullmatch(name):
            raise ValueError(f"image name {name!r}: use lower-case letters, digits and dashes, then .png")
        spec["name"] = name
    return spec


def _table_texts(view: TableView) -> dict[str, Any]:
    return {"title": to_json(view.title), "subtitle": to_json(view.subtitle), "note": to_json(view.note),
            "labels": [to_json(c.label) for c in view.columns],
            "cells": [[to_json(cell) for cell in row.cells] for row in view.rows]}


def table_view(spec: dict[str, Any]) -> TableView:
    """The table of a spec, its texts as messages again when the spec kept their keys (a spec
    written before texts had keys, or whose `texts` do not match its table, shows its plain texts)."""
    from bot.render.table import TableView

    view = TableView.model_validate(spec["table"])
    texts = spec.get("texts")
    if not isinstance(texts, dict):
        return view
    labels, cells = texts.get("labels"), texts.get("cells")
    if (not isinstance(labels, list) or len(labels) != len(view.columns) or not isinstance(cells, list)
            or len(cells) != len(view.rows)
            or any(not isinstance(row, list) or len(row) != len(view.columns) for row in cells)):
        return view
    data = view.model_dump()
    try:
        for key in ("title", "subtitle", "note"):
            data[key] = from_json(texts.get(key, data[key]))
        for column, label in zip(data["columns"], labels):
            column["label"] = from_json(label)
        for row, row_cells in zip(data["rows"], cells):
            row["cells"] = tuple(from_json(cell) for cell in row_cells)
        return TableView.model_validate(data)
    except (KeyError, TypeError, ValueError):  # a key no catalogue has any more: the plain texts
        return view


def image_name(spec: dict[str, Any]) -> str:
    """The attachment's file name: the spec's own `name` when it is a plain name, else its kind's."""
    name = spec.get("name")
    if isinstance(name, str) and IMAGE_NAME.fullmatch(name):
        return name
    return NAMES.get(str(spec.get("kind")), "image.png")


def board_status(state: GameState, lang: str = DEFAULT_LANG) -> str:
    """The board's status line in `lang`: whose turn it is, or the fastest time once it is over."""
    return render(default_status(state), lang)


def results_of(state: GameState, lang: str = DEFAULT_LANG) -> ResultsView:
    """The results image's view of `state`, its special numbers ("SS2", "ES2", "WP2") in `lang`."""
    view = results_view(state)
    course = state.course
    if course is None or not course.results:
        return view
    done = len(course.results)
    special = render(t("render.special", lang, n=done), lang)
    return view.model_copy(update={
        "title": f"{special} — {load_stage(course.specials[done - 1]).title}",
        "columns": tuple(render(t("render.special", lang, n=i + 1), lang) for i in range(len(view.columns)))})


def _call(method: Callable[..., bytes], *args: Any, lang: str) -> bytes:
    """`method(*args, lang=lang)`; in the default language, `method(*args)`, so a renderer that only
    ever draws English (a test's stand-in) needs no `lang` parameter."""
    return method(*args) if lang == DEFAULT_LANG else method(*args, lang=lang)


def draw(renderer: Renderer, spec: dict[str, Any], lang: str = DEFAULT_LANG) -> bytes:
    """The picture of a spec, every word in `lang` (synchronous: call it in the render thread)."""
    kind = spec.get("kind")
    if kind == "preview":
        return _call(renderer.preview, load_stage(str(spec["stage"])), lang=lang)
    if kind == "table":
        return _call(renderer.table, table_view(spec), lang=lang)
    state = GameState.from_dict(json.loads(spec["state"]))
    if kind == "board":
        return _call(renderer.board, state.stage, board_view(state, status=board_status(state, lang)), lang=lang)
    if kind == "results":
        return _call(renderer.results, state, lang=lang)
    raise ValueError(f"unknown image kind {kind!r}")


async def draw_async(renderer: Renderer, spec: dict[str, Any], lang: str = DEFAULT_LANG) -> bytes:
    """`draw` in the render thread."""
    return await asyncio.get_running_loop().run_in_executor(RENDER_THREAD, draw, renderer, spec, lang)
