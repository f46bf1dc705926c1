"""The images a post carries, described as data and drawn only when the post is delivered.

An outbox row (or a private reply: `/driver`'s `career` card, `{"kind": "career", "card": <data>}`)
holds an image *spec* (`{"kind": "board", "game": id, "view": <picture data>}`,
`results` likewise, `{"kind": "preview", "stage": name}` or `{"kind": "table", "table": <TableView
as JSON>}` for the league tables), not the picture: the action's transaction stays small and the
text never waits for the drawing. When a drawing fails the post goes without its picture.

A board or results spec is built from the game's spectator view (`view(state, None)`, then the
game's `board` / `results`): it holds what the picture shows and nothing else, never the state (a
game with hidden hands must not leak them through an outbox row, DESIGN §9). A spec stored by older
versions (`"state": <snapshot JSON>`, a post still undelivered at the upgrade) is converted to the
view form when it is drawn (`current`).

Where pictures are drawn: never on the event loop. `draw_async` with the bot's `PillowRenderer`
sends the spec (plain JSON, so it pickles) to a pool of worker processes (`start_pool`, started
on first use, or at boot with `asyncio.to_thread(start_pool)`; `shutdown_pool` stops them, and
runs at exit), so a burst of turn ends is drawn on every core instead of queueing behind one
thread. How many, and how much their caches hold, is the render plan (`render_plan()`,
`configure()`: bot/sizing.py): from the CPUs and the memory the bot may use, or the
settings `RALLYBOT_RENDER_WORKERS` and `RALLYBOT_MEMORY_MB`. Each worker keeps its own caches
(static layers, strips, text, table rows), all bounded together by the plan's cache budget
(`apply_budget`); the static layers are also kept on disk (bot.render.disk_cache), shared by
the workers and kept across restarts. With 0 workers (the smallest hosts) the Pillow renderer
draws in the bot's render thread (`RENDER_THREAD`), its caches bounded the same way; so does any
other renderer (a test's stand-in), and the Pillow renderer when the pool cannot start or a
worker died (logged). Drawing a spec (`draw`, `PillowRenderer`, `current`, `localized` ...) and
the workers' entry points live in bot.spec_drawing, re-exported here: a worker imports that module
and never the services (6 MB less in each worker).

Warming: `warm(stage)` draws a stage's static layer in a worker, in the background, when a rally
or league round using it is created, so its first board costs an overlay and not a whole layer
(errors are logged, nobody waits). A worker that meets a layer nobody drew draws only the part the
board shows and the layer is then warmed the same way. Warm requests made before the pool started
wait (the last `PENDING_WARMS`) and are sent when it starts.

Specs hold no language: `draw(renderer, spec, lang)` draws one in its reader's language (the
outbox row's `lang`, the rally's or the league's). A picture's words (a board's status line, a
results card's title …) are kept as message-key JSON and shown in that language when it is drawn
(`localized`); a table keeps its texts' message keys (`texts`) beside the plain table.

A **replay** is a reference: `{"kind": "replay", "rally_id": N, "version": V, "game": id}`
(`replay_spec`), never its frames. `draw_async(renderer, spec, lang, store=...)` reads the rally's
log from the store (`bot.services.play.replay.read_log`, up to version V), sends it as ONE job to a
render worker, which plays it again, takes the spectators' board after each turn (`turn_boards`),
draws every frame and encodes the animation (`Renderer.animation`: an animated WebP, see
bot/render/animation.py), and keeps the result on disk (`replay_path`: the render cache folder's
`replays/`, keyed by rally id, version, language and the rally's identity and picture style), so
a second drawing of the same replay reads the file and draws nothing; the folder keeps the last
`REPLAYS_DISK_MB` of them (`keep_replay`: the least recently written go first). No cache folder
(`RALLYBOT_CACHE=off`): drawn each time.

A spec may carry the attachment's file `name` ("standings.png", "scratch.png" ...); it is used only
when it is a plain `[a-z0-9-]+.png` name (it comes back from the database: never a path).
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import logging
import multiprocessing
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from bot import games, sizing
from bot.engine.core.text import to_json
from bot.i18n import DEFAULT_LANG
from bot.services.play.replay import read_log
from bot.spec_drawing import PillowRenderer as PillowRenderer
from bot.spec_drawing import Renderer as Renderer
from bot.spec_drawing import _draw_in_worker, _ping, _warm_in_worker, _worker_init
from bot.spec_drawing import apply_budget as apply_budget
from bot.spec_drawing import current as current
from bot.spec_drawing import default_renderer as default_renderer
from bot.spec_drawing import draw as draw
from bot.spec_drawing import localized as localized
from bot.spec_drawing import pictures_of as pictures_of
from bot.spec_drawing import table_view as table_view

if TYPE_CHECKING:  # bot.render (Pillow) is imported on first use only
    from pathlib import Path

    from bot.render.table import TableView
    from bot.sizing import RenderPlan
    from bot.store import Store

log = logging.getLogger(__name__)

RENDER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")
PENDING_WARMS = 64
REPLAYS_DISK_MB = 200  # the replays kept on disk (~0.7 MB each: the last ~300 rallies' replays)
#: the fork server imports the drawing code before forking the workers (their pages then shared)
#: from this many workers: with 1 the whole took 35 MB more counted once (bench memory's
#: total_pss_mb, 1,000 rallies), with 2 the same, the server holding the imports a third time
PRELOAD_FROM = 3
NAMES = {"board": "board.png", "results": "results.png", "preview": "stage.png", "table": "standings.png",
         "career": "career.png", "replay": "replay.webp"}
#: an attachment name a spec may choose: lower-case letters, digits and dashes, then .png
IMAGE_NAME = re.compile(r"[a-z0-9-]{1,60}\.png")


class ThreadRenderer(PillowRenderer):
    """The Pillow renderer drawing in this process's render thread (`RENDER_THREAD`), never in
    worker processes: the web page's own process (bot/web/process.py) draws its few pictures so,
    reading and filling the same on-disk layer cache as the bot's workers, instead of starting a
    second pool (memory). `draw_async` sends only the exact `PillowRenderer` to the pool."""


def board_spec(state: Any, game: str | None = None) -> dict[str, Any] | None:
    """A board, from the spectators' view of `state` in `game` (None: the default game); its words
    (the status line too) are chosen when it is drawn. None: the game draws no board."""
    played = games.get(game)
    data = played.pictures.board(played.rules.view(state, None)) if played.pictures is not None else None
    return None if data is None else {"kind": "board", "game": played.id, "view": data}


def results_spec(state: Any, game: str | None = None) -> dict[str, Any] | None:
    """A results card, from the spectators' view of `state` in `game` (None: the default game).
    None: the game draws no results card."""
    played = games.get(game)
    data = played.pictures.results(played.rules.view(state, None)) if played.pictures is not None else None
    return None if data is None else {"kind": "results", "game": played.id, "view": data}


def replay_spec(rally_id: int, version: int, game: str | None = None,
                about: dict[str, Any] | None = None) -> dict[str, Any]:
    """The animated replay of a rally's log up to `version` (its finish): a reference, drawn at
    delivery (`draw_async` with the store). `about`: what its description tells of the finished
    rally (bot.services.alt_text `replay_about`), read from the rally's state when it is owed."""
    spec = {"kind": "replay", "rally_id": int(rally_id), "version": int(version), "game": games.get(game).id}
    return spec if about is None else {**spec, "about": about}


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


def image_name(spec: dict[str, Any]) -> str:
    """The attachment's file name: the spec's own `name` when it is a plain name, else its kind's."""
    name = spec.get("name")
    if isinstance(name, str) and IMAGE_NAME.fullmatch(name):
        return name
    return NAMES.get(str(spec.get("kind")), "image.png")


def results_of(state: Any, lang: str = DEFAULT_LANG, game: str | None = None) -> Any:
    """The results image's view of `state`, its words in `lang` (as a results spec is drawn)."""
    pictures = games.get(game).pictures
    played = games.get(game)
    if pictures is None:
        raise ValueError(f"the game {played.id!r} draws no pictures")
    return pictures.results_picture(localized(pictures.results(played.rules.view(state, None)), lang))


async def draw_async(renderer: Renderer, spec: dict[str, Any], lang: str = DEFAULT_LANG,
                     store: Store | None = None) -> bytes:
    """`draw` off the event loop: in a render worker process for the bot's `PillowRenderer`, else
    (a stand-in, or no worker pool) in the render thread. A replay's log is read from `store`."""
    if spec.get("kind") == "replay" and "log" not in spec:
        return await _replay(renderer, spec, lang, store)
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


async def _replay(renderer: Renderer, spec: dict[str, Any], lang: str, store: Store | None) -> bytes:
    """A replay: from the disk cache, else its log drawn in one worker job, then kept on disk."""
    if store is None:
        raise ValueError("a replay is drawn from the rally's log: give draw_async the store")
    rally_id, version = int(spec["rally_id"]), int(spec["version"])
    rally = await store.rallies.find(rally_id)
    if rally is None:
        raise ValueError(f"replay of rally {rally_id}: no such rally")
    path = replay_path(rally.as_dict(), version, lang)
    if path is not None:
        cached = await asyncio.to_thread(_read_file, path)
        if cached is not None:
            return cached  # kept: the log is not even read
    read = await read_log(store, rally_id, version)
    if read is None:
        raise ValueError(f"replay of rally {rally_id}: no such rally")
    row, actions = read
    data = await draw_async(renderer, {"kind": "replay", "log": {"rally": row, "actions": actions}}, lang)
    if path is not None and type(renderer) is PillowRenderer:  # a stand-in's bytes are not a replay
        await asyncio.to_thread(keep_replay, path, data)
    return data


def keep_replay(path: Path, data: bytes, keep_mb: int = REPLAYS_DISK_MB) -> None:
    """Write a replay to its file, then delete the least recently written replays past `keep_mb`
    MB in all (they are drawn again from the log if asked again): a small host's disk is not
    filled by finished rallies."""
    from bot.render.disk_cache import prune

    _write_file(path, data)
    prune(path.parent, keep_mb * 1024 * 1024)


def replay_path(rally_row: dict[str, Any], version: int, lang: str) -> Path | None:
    """Where a rally's replay up to `version` in `lang` is kept (None: no disk cache). The name
    holds the rally id, version and language, and a digest of the rally's identity (another
    database's rally of the same id is another file) and of the picture's style and Pillow."""
    from PIL import __version__ as pillow

    from bot.render.animation import FORMAT, STYLE
    from bot.render.disk_cache import cache_dir

    folder = cache_dir()
    if folder is None or not (lang.isascii() and lang.isalpha()):
        return None
    who = [rally_row.get(k) for k in ("id", "guild_id", "channel_id", "created_at", "game", "seed", "stage")]
    digest = hashlib.sha256(json.dumps([who, STYLE, pillow], default=str).encode()).hexdigest()[:16]
    return folder / "replays" / f"{int(rally_row['id'])}-v{int(version)}-{lang}-{digest}.{FORMAT}"


def _read_file(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def _write_file(path: Path, data: bytes) -> None:
    """Atomically (a temporary file, then `os.replace`): a reader sees the whole file or none."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".replay-")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except OSError as exc:  # the cache is a help, never a failure
        log.warning("could not keep the replay %s: %s", path.name, exc)


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
    from bot.config import render_from, web_port_from

    return sizing.host_plan(**render_from(os.environ), web=web_port_from(os.environ) is not None)


def pool_size() -> int:
    """Render workers the plan starts (0: drawing in the bot's render thread)."""
    return render_plan().workers


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
            if ctx.get_start_method() == "forkserver":  # the workers' imports made once, shared: with
                # PRELOAD_FROM workers and more; fewer share too little to pay for a server that big
                ctx.set_forkserver_preload(["bot.spec_drawing", "bot.render"] if size >= PRELOAD_FROM else [])
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


def warm(layer: Hashable, lang: str = DEFAULT_LANG, game: str | None = None) -> None:
    """Draw a static layer of `game`'s boards (a stage's name: its fixed weather; or the layer a
    worker's board named, its painter's own: classic's `SnowLayer`, a stage under a weather) in a
    render worker, in the background: never blocks, never raises (a failure is logged). Before the
    pool has started the request waits for it. A game that draws no pictures has nothing to warm."""
    played = games.get(game)
    if played.pictures is None or _in_thread:  # in the bot's thread a layer is drawn by its first board
        return
    key = (layer, lang, played.id)
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
