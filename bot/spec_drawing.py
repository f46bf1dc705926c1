"""Drawing a picture spec (bot.services.images): the renderer, the spec's conversions, and what a
render worker process runs.

A spec (`{"kind": "board", "game": id, "view": ...}` and the others, see bot.services.images) is
drawn by `draw` with a `Renderer`: the bot's `PillowRenderer` hands it to the game's pictures
module (imported on first use: Pillow). This module holds what a render worker needs and nothing
of the services: a worker imports it (the pool's fork server preloads it) and not the
`bot.services` package, whose store, services and their dependencies cost each worker memory it
never uses (measured: a freshly started worker 42.2 MB resident through bot.services.images,
36.1 MB through this module). The worker's entry points: `_worker_init` (its
disk cache folder, each game's set-up, its caches' budget `apply_budget`), `_ping` (the pool's
start barrier), `_draw_in_worker`, `_warm_in_worker`. bot.services.images re-exports the public
names; use them from there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot import games, sizing
from bot.engine.core.game import Game, Pictures
from bot.engine.core.text import from_json
from bot.i18n import DEFAULT_LANG, render

if TYPE_CHECKING:  # bot.render (Pillow) is imported on first use only
    from PIL import Image

    from bot.render.career import CareerCard
    from bot.render.options import RenderOptions
    from bot.render.painter import Painter
    from bot.render.table import TableView

MB = 1024 * 1024


class Renderer(Protocol):
    """Draws images in a language (every word the picture prints); pure and slow-ish, so it runs
    in a render worker (or the render thread). A board, a preview or a results card is a game's:
    `game` names it, `args` are what that game's pictures facet gives (`board_picture`: classic's
    stage and view; `results_picture`; `preview_picture`)."""

    def board(self, game: str, *args: object, lang: str = DEFAULT_LANG) -> bytes: ...

    def preview(self, game: str, *args: object, lang: str = DEFAULT_LANG) -> bytes: ...

    def results(self, game: str, *args: object, lang: str = DEFAULT_LANG) -> bytes: ...

    def table(self, view: TableView, lang: str = DEFAULT_LANG) -> bytes: ...

    def career(self, card: CareerCard, lang: str = DEFAULT_LANG) -> bytes: ...  # `/driver`'s card

    def animation(self, game: str, frames: Sequence[tuple[object, ...]], winners: Sequence[str] | None = None,
                  lang: str = DEFAULT_LANG) -> bytes: ...


def pictures_of(game: str) -> Painter[Any, Any, Any, Any]:
    """The painter of `game`'s pictures (bot.games `painter`, imported on first use: Pillow)."""
    return games.painter(game)


class PillowRenderer:
    """Adapter from `Renderer` to the painters (bot.render.painter): each game's picture drawn by
    its painter, encoded by the one shared `png`; the league tables and career cards by bot.render."""

    def board(self, game: str, *args: object, lang: str = DEFAULT_LANG) -> bytes:
        return _png(pictures_of(game).board(args, _options(lang)), lang)

    def preview(self, game: str, *args: object, lang: str = DEFAULT_LANG) -> bytes:
        (stage,) = args
        return _png(pictures_of(game).preview(stage, _options(lang)), lang)

    def results(self, game: str, *args: object, lang: str = DEFAULT_LANG) -> bytes:
        (results,) = args
        return _png(pictures_of(game).results(results, _options(lang)), lang)

    def table(self, view: TableView, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render import render_table

        return render_table(view, _options(lang))

    def career(self, card: CareerCard, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render.career import render_career

        return render_career(card, _options(lang))

    def animation(self, game: str, frames: Sequence[tuple[object, ...]], winners: Sequence[str] | None = None,
                  lang: str = DEFAULT_LANG) -> bytes:
        """An animated replay: each frame's board (`args` as for `board`), the whole stage in view,
        then, for a finished rally (`winners` not None: its winners' names, empty when nobody
        finished), an end frame naming the winner; encoded together (bot.render.animation)."""
        from bot.render.animation import WIDTH, encode, end_frame
        from bot.render.options import RenderOptions

        painter = pictures_of(game)
        options = RenderOptions(lang=lang, width=WIDTH, mode="fit")
        end = None if winners is None else (lambda last: end_frame(last, winners, options))
        return encode(len(frames), lambda i: painter.board(tuple(frames[i]), options), end)


def _png(image: Image.Image, lang: str) -> bytes:
    from bot.render.painter import png

    return png(image, _options(lang))


def _options(lang: str) -> RenderOptions:
    from bot.render.options import RenderOptions

    return RenderOptions(lang=lang)


def default_renderer() -> PillowRenderer:
    return PillowRenderer()


def _drawn(played: Game[Any, Any, Any, Any]) -> Pictures[Any]:
    """The pictures of a game; a game that draws none is refused."""
    if played.pictures is None:
        raise ValueError(f"the game {played.id!r} draws no pictures")
    return played.pictures


def current(spec: dict[str, Any]) -> dict[str, Any]:
    """A board or results spec in the view form: one stored with the whole state (by older versions)
    is converted, through its game's spectator view, as `board_spec` / `results_spec` would build it."""
    if "state" not in spec or spec.get("kind") not in ("board", "results"):
        return spec
    played = games.get(spec.get("game"))
    view = played.rules.view(played.rules.from_json(str(spec["state"])), None)
    data = _drawn(played).board(view) if spec["kind"] == "board" else _drawn(played).results(view)
    converted = {k: v for k, v in spec.items() if k != "state"}
    converted.update(game=played.id, view=data)
    return converted


def localized(data: Any, lang: str = DEFAULT_LANG) -> Any:
    """A picture's data with every message in it (message-key JSON, `bot.engine.core.text.to_json`)
    shown in `lang`; the rest as it is."""
    if isinstance(data, dict):
        if set(data) in ({"key", "params"}, {"list", "how"}):
            return render(from_json(data), lang)
        return {k: localized(v, lang) for k, v in data.items()}
    if isinstance(data, list):
        return [localized(v, lang) for v in data]
    return data


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
        details = texts.get("details")
        if isinstance(details, list) and len(details) == len(data["rows"]):  # a row's reason, in the reader's words
            for row, detail in zip(data["rows"], details):
                row["detail"] = from_json(detail)
        return TableView.model_validate(data)
    except (KeyError, TypeError, ValueError):  # a key no catalogue has any more: the plain texts
        return view


def _call(method: Callable[..., bytes], *args: object, lang: str) -> bytes:
    """`method(*args, lang=lang)`; in the default language, `method(*args)`, so a renderer that only
    ever draws English (a test's stand-in) needs no `lang` parameter."""
    return method(*args) if lang == DEFAULT_LANG else method(*args, lang=lang)


def draw(renderer: Renderer, spec: dict[str, Any], lang: str = DEFAULT_LANG) -> bytes:
    """The picture of a spec, every word in `lang` (synchronous: `draw_async` runs it off the loop)."""
    kind = spec.get("kind")
    if kind == "preview":
        played = games.get(spec.get("game"))
        return _call(renderer.preview, played.id, _drawn(played).preview_picture(str(spec["stage"])), lang=lang)
    if kind == "table":
        return _call(renderer.table, table_view(spec), lang=lang)
    if kind == "career":  # `/driver`: its words are message keys until drawn in the reader's language
        from bot.render.career import CareerCard

        return _call(renderer.career, CareerCard.model_validate(localized(spec["card"], lang)), lang=lang)
    if kind == "replay":
        return _draw_replay(renderer, spec, lang)
    if kind in ("board", "results"):
        spec = current(spec)
        played = games.get(spec.get("game"))
        data = localized(spec["view"], lang)
        if kind == "board":
            return _call(renderer.board, played.id, *_drawn(played).board_picture(data), lang=lang)
        return _call(renderer.results, played.id, _drawn(played).results_picture(data), lang=lang)
    raise ValueError(f"unknown image kind {kind!r}")


def _draw_replay(renderer: Renderer, spec: dict[str, Any], lang: str) -> bytes:
    """An animated replay from the log `draw_async` read into the spec: one frame per turn, from the
    spectators' views, and an end frame naming a finished rally's winner (bot.services.play.replay
    `replay_frames`, imported here, on a worker's first replay only: a worker that never draws one
    never loads the services package)."""
    from bot.services.play.replay import replay_frames

    job = spec.get("log")
    if not isinstance(job, dict):
        raise ValueError("a replay is drawn from its log: draw_async reads it from the store")
    played = games.get(job["rally"].get("game"))
    pictures = _drawn(played)
    boards, winners = replay_frames(job["rally"], job["actions"])
    frames = [pictures.board_picture(localized(data, lang)) for data in boards]
    if not frames:
        raise ValueError(f"rally {job['rally'].get('id')}: no board to animate")
    return _call(renderer.animation, played.id, frames, winners, lang=lang)


def apply_budget(cache_mb: int) -> dict[str, int]:
    """In a process that draws: every game's pictures module imported (so every cache is made),
    then their caches bounded to `cache_mb` MB in all (`bot.render.cache.set_budget`), and freed
    image memory given back to the system (`return_freed_memory`). Their limits by name."""
    from bot.render import cache

    for game in games.games():
        if game.pictures is not None:
            pictures_of(game.id)
    cache.return_freed_memory()
    return cache.set_budget(cache_mb * MB)


def _worker_init(cache_folder: str | None, started: Any, cache_mb: int = sizing.MAX_CACHE_MB) -> None:
    """In each worker: its disk cache folder (the bot's, whatever the worker's environment says),
    each game's own set-up (classic: new layers drawn window first, the bot warming the whole layer
    after such a board), its caches' budget (`apply_budget`), the pool's start barrier (`_ping`),
    and Ctrl-C left to the bot (which stops its workers itself) rather than a traceback per worker.

    Last, every object made so far (the modules, fonts, catalogues: ~45,000 objects, there for the
    worker's life) is moved out of the garbage collector's reach (`gc.freeze`): a full collection
    then scans only what drawing made since, instead of pausing a board now and then for ~15 ms
    (measured on a stage's first board)."""
    import gc
    import signal

    from bot.render import disk_cache

    global _started
    _started = started
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    disk_cache.set_cache_dir(cache_folder)
    for game in games.games():
        if game.pictures is not None:
            pictures_of(game.id).worker_init()
    apply_budget(cache_mb)
    gc.freeze()


_started: Any = None  # in a worker: the barrier the pings of its pool's start meet at


def _ping() -> int:
    """Answered only once every worker of the starting pool runs a ping: the executor starts a
    process for a task only when no worker is idle, so `start_pool`'s pings start them all."""
    if _started is not None:
        _started.wait(60)
    return os.getpid()


def _draw_in_worker(spec: dict[str, Any], lang: str) -> tuple[bytes, tuple[Hashable, str, str] | None]:
    """In a worker: the picture, and the layer to warm when this board drew only its window (the
    game's painter tells: `begin_draw`, `layer_to_warm`), with its language and game."""
    spec = current(spec)
    game = games.get(spec.get("game")) if spec.get("kind") in ("board", "results", "preview") else None
    if game is None or game.pictures is None:
        return draw(PillowRenderer(), spec, lang), None
    painter = pictures_of(game.id)
    before = painter.begin_draw()
    png = draw(PillowRenderer(), spec, lang)
    layer = painter.layer_to_warm(before, spec["kind"], spec.get("view") or {})
    return png, (layer, lang, game.id) if layer is not None else None


def _warm_in_worker(layer: Hashable, lang: str, game: str) -> str:
    """In a worker: a static layer (a stage's name, or the layer a board named) kept in memory and on
    disk."""
    painter = pictures_of(game)
    return painter.warm(painter.layer(layer) if isinstance(layer, str) else layer, _options(lang))
