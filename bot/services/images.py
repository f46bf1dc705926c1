"""The images a post carries, described as data and drawn only when the post is delivered.

An outbox row holds an image *spec* (`{"kind": "board", "state": <snapshot JSON>}`, `results`,
`{"kind": "preview", "stage": name}` or `{"kind": "table", "table": <TableView as JSON>}` for the
league tables), not the picture: the action's transaction stays small and the text never waits for
the drawing. The sender draws a spec with `draw_async`, in one worker thread (`RENDER_THREAD`) so a
burst of boards never takes the event loop; when a drawing fails the post goes without its picture.

A spec may carry the attachment's file `name` ("standings.png", "scratch.png" ...); it is used only
when it is a plain `[a-z0-9-]+.png` name (it comes back from the database: never a path).
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from bot.engine.board import board_view
from bot.engine.stage_catalogue import load_stage
from bot.engine.stage_model import Stage
from bot.engine.state import GameState
from bot.engine.view import BoardView
from bot.services.work import snapshot_json

if TYPE_CHECKING:  # bot.render (Pillow) is imported on first use only
    from bot.render.table import TableView

RENDER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
NAMES = {"board": "board.png", "results": "results.png", "preview": "stage.png", "table": "standings.png"}
#: an attachment name a spec may choose: lower-case letters, digits and dashes, then .png
IMAGE_NAME = re.compile(r"[a-z0-9-]{1,60}\.png")


class Renderer(Protocol):
    """Draws images; pure and slow-ish, so it runs in the render thread."""

    def board(self, stage: Stage, view: BoardView) -> bytes: ...

    def preview(self, stage: Stage) -> bytes: ...

    def results(self, state: GameState) -> bytes: ...

    def table(self, view: TableView) -> bytes: ...


class PillowRenderer:
    """Adapter from `Renderer` to the pure functions of bot.render (imported on first use)."""

    def board(self, stage: Stage, view: BoardView) -> bytes:
        from bot.render import render_board

        return render_board(stage, view)

    def preview(self, stage: Stage) -> bytes:
        from bot.render import render_stage_preview

        return render_stage_preview(stage)

    def results(self, state: GameState) -> bytes:
        from bot.engine.results import results_view
        from bot.render import render_results

        return render_results(results_view(state))

    def table(self, view: TableView) -> bytes:
        from bot.render import render_table

        return render_table(view)


def default_renderer() -> PillowRenderer:
    return PillowRenderer()


def board_spec(state: GameState) -> dict[str, Any]:
    return {"kind": "board", "state": snapshot_json(state)}


def results_spec(state: GameState) -> dict[str, Any]:
    return {"kind": "results", "state": snapshot_json(state)}


def preview_spec(stage_name: str) -> dict[str, Any]:
    return {"kind": "preview", "stage": stage_name}


def table_spec(view: TableView, name: str | None = None) -> dict[str, Any]:
    """A league table (round results, standings, world ranking); `name` is the attachment's file name."""
    spec: dict[str, Any] = {"kind": "table", "table": view.model_dump(mode="json")}
    if name is not None:
        if not IMAGE_NAME.fullmatch(name):
            raise ValueError(f"image name {name!r}: use lower-case letters, digits and dashes, then .png")
        spec["name"] = name
    return spec


def image_name(spec: dict[str, Any]) -> str:
    """The attachment's file name: the spec's own `name` when it is a plain name, else its kind's."""
    name = spec.get("name")
    if isinstance(name, str) and IMAGE_NAME.fullmatch(name):
        return name
    return NAMES.get(str(spec.get("kind")), "image.png")


def draw(renderer: Renderer, spec: dict[str, Any]) -> bytes:
    """The picture of a spec (synchronous: call it in the render thread)."""
    kind = spec.get("kind")
    if kind == "preview":
        return renderer.preview(load_stage(str(spec["stage"])))
    if kind == "table":
        from bot.render.table import TableView

        return renderer.table(TableView.model_validate(spec["table"]))
    state = GameState.from_dict(json.loads(spec["state"]))
    if kind == "board":
        return renderer.board(state.stage, board_view(state))
    if kind == "results":
        return renderer.results(state)
    raise ValueError(f"unknown image kind {kind!r}")


async def draw_async(renderer: Renderer, spec: dict[str, Any]) -> bytes:
    return await asyncio.get_running_loop().run_in_executor(RENDER_THREAD, draw, renderer, spec)
