"""The images a post carries, described as data and drawn only when the post is delivered.

An outbox row holds an image *spec* (`{"kind": "board", "game": id, "view": <picture data>}`,
`results` likewise, `{"kind": "preview", "stage": name}` or `{"kind": "table", "table": <TableView
as JSON>}` for the league tables), not the picture: the action's transaction stays small and the
text never waits for the drawing. When a drawing fails the post goes without its picture.

A board or results spec is built from the game's spectator view (`view(state, None)`, then the
game's `board` / `results`): it holds what the picture shows and nothing else, never the state (a
game with hidden hands must not leak them through an outbox row, DESIGN §9). A spec stored before
issue 23 (`"state": <snapshot JSON>`, a post still undelivered at the upgrade) is converted to the
view form when it is drawn (`current`).

Where pictures are drawn: never on the event loop. `draw_async` with the bot's `PillowRenderer`
sends the spec (plain JSON, so it pickles) to a pool of worker processes (`start_pool`, started
on first use, or at boot with `asyncio.to_thread(start_pool)`; `shutdown_pool` stops them, and
runs at exit), so a burst of turn ends is drawn on every core instead of queueing behind one
thread. How many, and how much their caches hold, is the render plan (`render_plan()`,
`configure()`: bot/sizing.py, issue 28): from the CPUs and the memory the bot may use, or the
settings `RALLYBOT_RENDER_WORKERS` and `RALLYBOT_MEMORY_MB`. Each worker keeps its own caches
(static layers, strips, text, table rows), all bounded together by the plan's cache budget
(`apply_budget`); the static layers are also kept on disk (bot.render.disk_cache), shared by
the workers and kept across restarts. With 0 workers (the smallest hosts) the Pillow renderer
draws in the bot's render thread (`RENDER_THREAD`), its caches bounded the same way; so does any
other renderer (a test's stand-in), and the Pillow renderer when the pool cannot start or a
worker died (logged).

Warming: `warm(stage)` draws a stage's static layer in a worker, in the background, when a rally
or league round using it is created, so its first board costs an overlay and not a whole layer
(errors are logged, nobody waits). A worker that meets a layer nobody drew draws only the part the
board shows and the layer is then warmed the same way. Warm requests made before the pool started
wait (the last `PENDING_WARMS`) and are sent when it starts.

Specs hold no language: `draw(renderer, spec, lang)` draws one in its reader's language (the
outbox row's `lang`, the rally's or the league's). A picture's words (a board's status line, a
results card's title …) are kept as message-key JSON and shown in that language when it is drawn
(`localized`); a table keeps its texts' message keys (`texts`) beside the plain table.

A spec may carry the attachment's file `name` ("standings.png", "scratch.png" ...); it is used only
when it is a plain `[a-z0-9-]+.png` name (it comes back from the database: never a path).
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import logging
import multiprocessing
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, Protocol

from bot import games, sizing
from bot.engine.core.text import from_json, to_json
from bot.i18n import DEFAULT_LANG, render

if TYPE_CHECKING:  # bot.render (Pillow) is imported on first use only
    from bot.render.options import RenderOptions
    from bot.render.table import TableView
    from bot.sizing import RenderPlan

log = logging.getLogger(__name__)

RENDER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
MB = 1024 * 1024
PENDING_WARMS = 64
NAMES = {"board": "board.png", "results": "results.png", "preview": "stage.png", "table": "standings.png"}
#: an attachment name a spec may choose: lower-case letters, digits and dashes, then .png
IMAGE_NAME = re.compile(r"[a-z0-9-]{1,60}\.png")


class Renderer(Protocol):
    """Draws images in a language (every word the picture prints); pure and slow-ish, so it runs
    in a render worker (or the render thread). A board, a preview or a results card is a game's:
    `game` names it, `args` are what that game's `picture` gives (classic: stage and view)."""

    def board(self, game: str, *args: Any, lang: str = DEFAULT_LANG) -> bytes: ...

    def preview(self, game: str, *args: Any, lang: str = DEFAULT_LANG) -> bytes: ...

    def results(self, game: str, *args: Any, lang: str = DEFAULT_LANG) -> bytes: ...

    def table(self, view: TableView, lang: str = DEFAULT_LANG) -> bytes: ...


def pictures_of(game: str) -> Any:
    """The module that draws `game`'s pictures (`Game.renderer`, imported on first use: Pillow)."""
    module = games.get(game).renderer
    if module is None:
        raise ValueError(f"the game {game!r} draws no pictures")
    return importlib.import_module(module)


class PillowRenderer:
    """Adapter from `Renderer` to the pure functions of bot.render and of each game's pictures
    module (imported on first use)."""

    def board(self, game: str, *args: Any, lang: str = DEFAULT_LANG) -> bytes:
        return pictures_of(game).render_board(*args, _options(lang))

    def preview(self, game: str, *args: Any, lang: str = DEFAULT_LANG) -> bytes:
        return pictures_of(game).render_stage_preview(*args, _options(lang))

    def results(self, game: str, *args: Any, lang: str = DEFAULT_LANG) -> bytes:
        return pictures_of(game).render_results(*args, _options(lang))

    def table(self, view: TableView, lang: str = DEFAULT_LANG) -> bytes:
        from bot.render import render_table

        return render_table(view, _options(lang))


def _options(lang: str) -> RenderOptions:
    from bot.render.options import RenderOptions

    return RenderOptions(lang=lang)


def default_renderer() -> PillowRenderer:
    return PillowRenderer()


def board_spec(state: Any, game: str | None = None) -> dict[str, Any] | None:
    """A board, from the spectators' view of `state` in `game` (None: the default game); its words
    (the status line too) are chosen when it is drawn. None: the game draws no board."""
    played = games.get(game)
    data = played.board(played.view(state, None))
    return None if data is None else {"kind": "board", "game": played.id, "view": data}


def results_spec(state: Any, game: str | None = None) -> dict[str, Any] | None:
    """A results card, from the spectators' view of `state` in `game` (None: the default game).
    None: the game draws no results card."""
    played = games.get(game)
    data = played.results(played.view(state, None))
    return None if data is None else {"kind": "results", "game": played.id, "view": data}


def current(spec: dict[str, Any]) -> dict[str, Any]:
    """A board or results spec in the view form: one stored with the whole state (before issue 23)
    is converted, through its game's spectator view, as `board_spec` / `results_spec` would build it."""
    if "state" not in spec or spec.get("kind") not in ("board", "results"):
        return spec
    played = games.get(spec.get("game"))
    view = played.view(played.from_json(str(spec["state"])), None)
    data = played.board(view) if spec["kind"] == "board" else played.results(view)
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


def preview_spec(stage_name: str, game: str | None = None) -> dict[str, Any]:
    """A stage's preview (a spec without a game is the default game's, as stored before games)."""
    played = games.get(game)
    return {"kind": "preview", "stage": stage_name, **({"game": played.id} if played.id != games.DEFAULT_GAME else {})}


def table_spec(view: TableView, name: str | None = None) -> dict[str, Any]:
    """A league table (round results, standings, world ranking); `name` is the attachment's file name.

    `table` is the view as plain JSON (its texts in English, for anything that reads the spec as
    text); `texts` holds the same texts with their message keys (`bot.engine.core.text.to_json`), so
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
            "cells": [[to_json(cell) for cell in row.cells] for row in view.rows],
            "details": [to_json(row.detail) for row in view.rows]}


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


def image_name(spec: dict[str, Any]) -> str:
    """The attachment's file name: the spec's own `name` when it is a plain name, else its kind's."""
    name = spec.get("name")
    if isinstance(name, str) and IMAGE_NAME.fullmatch(name):
        return name
    return NAMES.get(str(spec.get("kind")), "image.png")


def results_of(state: Any, lang: str = DEFAULT_LANG, game: str | None = None) -> Any:
    """The results image's view of `state`, its words in `lang` (as a results spec is drawn)."""
    played = games.get(game)
    return played.picture("results", localized(played.results(played.view(state, None)), lang))[0]


def _call(method: Callable[..., bytes], *args: Any, lang: str) -> bytes:
    """`method(*args, lang=lang)`; in the default language, `method(*args)`, so a renderer that only
    ever draws English (a test's stand-in) needs no `lang` parameter."""
    return method(*args) if lang == DEFAULT_LANG else method(*args, lang=lang)


def draw(renderer: Renderer, spec: dict[str, Any], lang: str = DEFAULT_LANG) -> bytes:
    """The picture of a spec, every word in `lang` (synchronous: `draw_async` runs it off the loop)."""
    kind = spec.get("kind")
    if kind == "preview":
        played = games.get(spec.get("game"))
        return _call(renderer.preview, played.id, *played.picture("preview", {"stage": str(spec["stage"])}),
                     lang=lang)
    if kind == "table":
        return _call(renderer.table, table_view(spec), lang=lang)
    if kind in ("board", "results"):
        spec = current(spec)
        played = games.get(spec.get("game"))
        args = played.picture(kind, localized(spec["view"], lang))
        return _call(renderer.board if kind == "board" else renderer.results, played.id, *args, lang=lang)
    raise ValueError(f"unknown image kind {kind!r}")


async def draw_async(renderer: Renderer, spec: dict[str, Any], lang: str = DEFAULT_LANG) -> bytes:
    """`draw` off the event loop: in a render worker process for the bot's `PillowRenderer`, else
    (a stand-in, or no worker pool) in the render thread."""
    loop = asyncio.get_running_loop()
    if type(renderer) is PillowRenderer:
        pool = _pool
        if pool is None and not _pool_failed and not _in_thread:
            pool = await asyncio.to_thread(start_pool)
        if pool is not None:
            try:
                png, layer = await loop.run_in_executor(pool, _draw_in_worker, spec, lang)
            except BrokenProcessPool as exc:
                log.warning("a render worker died (%s): drawing this one in a thread, new workers next time", exc)
                _drop_pool(pool)
            else:
                if layer is not None:  # its layer was new: draw it whole now, for the next boards
                    warm(*layer)
                return png
    return await loop.run_in_executor(RENDER_THREAD, draw, renderer, spec, lang)


# -- the worker processes --------------------------------------------------------------------------

_pool: ProcessPoolExecutor | None = None
_pool_failed = False
_in_thread = False  # the plan has 0 workers: drawing stays in RENDER_THREAD (its caches bounded)
_plan: RenderPlan | None = None
_workers: list[multiprocessing.process.BaseProcess] = []  # the processes the pool started (measurements)
_pool_lock = threading.Lock()
_warm_lock = threading.Lock()
_warmed: OrderedDict[tuple, None] = OrderedDict()  # warm requests already sent (the last 512)
_pending: OrderedDict[tuple, None] = OrderedDict()  # warm requests waiting for the pool


def configure(plan: RenderPlan | None) -> None:
    """Use `plan` from now on (the bot's settings: `Settings.render_plan()`); None: read the
    environment again. A running pool keeps its size until it is stopped."""
    global _plan
    _plan = plan


def render_plan() -> RenderPlan:
    """The plan in use: the one `configure` was given, else the environment's settings on this
    host (`RALLYBOT_RENDER_WORKERS`, `RALLYBOT_MEMORY_MB`, bot/config.py: an impossible value
    raises its `ConfigError`)."""
    if _plan is not None:
        return _plan
    from bot.config import render_from

    return sizing.host_plan(**render_from(os.environ))


def pool_size() -> int:
    """Render workers the plan starts (0: drawing in the bot's render thread)."""
    return render_plan().workers


def apply_budget(cache_mb: int) -> dict[str, int]:
    """In a process that draws: every game's pictures module imported (so every cache is made),
    then their caches bounded to `cache_mb` MB in all (`bot.render.cache.set_budget`), and freed
    image memory given back to the system (`return_freed_memory`). Their limits by name."""
    from bot.render import cache

    for game in games.games():
        if game.renderer is not None:
            pictures_of(game.id)
    cache.return_freed_memory()
    return cache.set_budget(cache_mb * MB)


def start_pool(workers: int | None = None) -> ProcessPoolExecutor | None:
    """The render worker pool, started if need be (`workers` processes, default `pool_size()`);
    None when it cannot start on this platform (logged once: drawing then stays in a thread).
    Blocking (it starts processes): from the event loop, call it through `asyncio.to_thread`."""
    global _pool, _pool_failed, _in_thread
    with _pool_lock:
        if _pool is not None or _pool_failed or _in_thread:
            return _pool
        from bot.render.disk_cache import cache_dir

        folder = cache_dir()
        plan = render_plan()
        size = plan.workers if workers is None else workers
        if size == 0:  # the smallest hosts: drawing in the bot's render thread, caches bounded alike
            _in_thread = True
            RENDER_THREAD.submit(apply_budget, plan.cache_mb).result()
            with _warm_lock:
                _pending.clear()
            return None
        try:
            methods = multiprocessing.get_all_start_methods()
            # forkserver: workers forked from a clean server process, never from the bot with its
            # threads (event loop, database); spawn elsewhere
            ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            if ctx.get_start_method() == "forkserver":
                ctx.set_forkserver_preload(["bot.services.images", "bot.render"])
            before = set(multiprocessing.active_children())
            pool = ProcessPoolExecutor(max_workers=size, mp_context=ctx, initializer=_worker_init,
                                       initargs=(str(folder) if folder else None, ctx.Barrier(size), plan.cache_mb))
            # every worker starts now (here, not on the event loop at a later submit), imports bot.render:
            # the pings meet at a barrier, so none is answered before all run, each in its own worker
            for future in [pool.submit(_ping) for _ in range(size)]:
                future.result(timeout=60)
            _workers[:] = [p for p in multiprocessing.active_children() if p not in before]
        except Exception as exc:
            _pool_failed = True
            log.warning("render workers could not start (%s: %s): drawing in a thread", type(exc).__name__, exc)
            return None
        _pool = pool
        _register_exit()
        pending = list(_pending)
        _pending.clear()
    for key in pending:
        _send_warm(pool, key)
    return pool


def worker_pids() -> list[int]:
    """The process ids of the running render workers (for measurements): the processes that
    appeared among this process's `multiprocessing.active_children()` while the pool started
    (the executor keeps its own list privately), those still alive."""
    if _pool is None:
        return []
    return sorted(p.pid for p in _workers if p.pid is not None and p.is_alive())


def shutdown_pool(wait: bool = True) -> None:
    """Stop the render workers (queued drawings are cancelled); the next drawing starts new ones."""
    global _pool, _pool_failed, _in_thread
    with _pool_lock:
        pool, _pool, _pool_failed, _in_thread = _pool, None, False, False
    with _warm_lock:
        _warmed.clear()
    if pool is not None:
        pool.shutdown(wait=wait, cancel_futures=True)


def _drop_pool(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _pool_lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


_exit_registered = False


def _register_exit() -> None:
    global _exit_registered
    if not _exit_registered:
        atexit.register(shutdown_pool)
        _exit_registered = True


def _worker_init(cache_folder: str | None, started: Any, cache_mb: int = sizing.MAX_CACHE_MB) -> None:
    """In each worker: its disk cache folder (the bot's, whatever the worker's environment says),
    each game's own set-up (classic: new layers drawn window first, the bot warming the whole layer
    after such a board), its caches' budget (`apply_budget`), the pool's start barrier (`_ping`),
    and Ctrl-C left to the bot (which stops its workers itself) rather than a traceback per worker."""
    import signal

    from bot.render import disk_cache

    global _started
    _started = started
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    disk_cache.set_cache_dir(cache_folder)
    for game in games.games():
        if game.renderer is not None:
            pictures_of(game.id).worker_init()
    apply_budget(cache_mb)


_started: Any = None  # in a worker: the barrier the pings of its pool's start meet at


def _ping() -> int:
    """Answered only once every worker of the starting pool runs a ping: the executor starts a
    process for a task only when no worker is idle, so `start_pool`'s pings start them all."""
    if _started is not None:
        _started.wait(60)
    return os.getpid()


def _draw_in_worker(spec: dict[str, Any], lang: str) -> tuple[bytes, tuple | None]:
    """In a worker: the picture, and the layer to warm when this board drew only its window (the
    game's pictures module tells: `begin_draw`, `layer_to_warm`)."""
    spec = current(spec)
    game = games.get(spec.get("game")) if spec.get("kind") in ("board", "results", "preview") else None
    pictures = pictures_of(game.id) if game is not None and game.renderer is not None else None
    before = pictures.begin_draw() if pictures is not None else None
    png = draw(PillowRenderer(), spec, lang)
    layer = pictures.layer_to_warm(before, spec["kind"], spec.get("view") or {}, lang) if pictures is not None else None
    return png, (*layer, game.id) if layer is not None and game is not None else None


def _warm_in_worker(stage_name: str, snow: tuple[str, ...] | None, lang: str, game: str) -> str:
    """In a worker: the static layer of a stage's board, kept in memory and on disk."""
    return pictures_of(game).warm(stage_name, snow, _options(lang))


def warm(stage_name: str, snow: tuple[str, ...] | list[str] | None = None, lang: str = DEFAULT_LANG,
         game: str | None = None) -> None:
    """Draw the static layer of `stage_name`'s board in `game` (its fixed weather, or the zones
    `snow` on their snow side) in a render worker, in the background: never blocks, never raises
    (a failure is logged). Before the pool has started the request waits for it. A game that
    draws no pictures has nothing to warm."""
    played = games.get(game)
    if played.renderer is None or _in_thread:  # in the bot's thread a layer is drawn by its first board
        return
    key = (stage_name, tuple(sorted(snow)) if snow is not None else None, lang, played.id)
    with _warm_lock:
        if key in _warmed:
            return
        pool = _pool
        if pool is None:
            _pending[key] = None
            while len(_pending) > PENDING_WARMS:
                _pending.popitem(last=False)
            return
    _send_warm(pool, key)


def _send_warm(pool: ProcessPoolExecutor, key: tuple) -> None:
    with _warm_lock:
        _warmed[key] = None
        while len(_warmed) > 512:
            _warmed.popitem(last=False)
    try:
        future = pool.submit(_warm_in_worker, *key)
    except Exception as exc:  # shut down meanwhile, or a worker died
        log.warning("could not warm the layer of %s: %s", key[0], exc)
        with _warm_lock:
            _warmed.pop(key, None)
        return
    future.add_done_callback(lambda f: _warmed_done(key, f))


def _warmed_done(key: tuple, future: Future) -> None:
    if future.cancelled():
        return
    exc = future.exception()
    if exc is not None:
        log.warning("warming the layer of %s failed: %s: %s", key[0], type(exc).__name__, exc)
        with _warm_lock:
            _warmed.pop(key, None)
