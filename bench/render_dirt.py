"""Benchmark of a DIRT board after a turn (`python -m bot bench render --game dirt`): warm and cold,
palette PNG, the same figures and keys as classic's `bench render` where they apply.

The stage is a long one (wolf-forest, 18 tiles: camera window + overview strip, the heavier case),
the board the hand-made mid-stage sample of `bot.render.dirt.sample` (4 cars, one drifting, one
sliding, one waiting, 3 dice with one ⚠, a "−1" token on a corner) with its round, status line and
the acting car's time changing every run as they do turn after turn. Medians over RUNS runs:
- overlay_ms: `board_image`: the window of the kept layer, overview strip, cars, dice, header, table;
- encode_ms: the palette PNG of that frame (octree quantisation + zlib): the same-run baseline;
- warm_ms = total_ms = overlay + encode, and total_over_encode (goal ≤ 1.3);
- png_kib: the palette PNG (goal ≤ 150); encode_rgb_ms, png_rgb_kib: true colour, for comparison.

In a render worker (a new process of its own, started with the `spawn` method, that has already
imported everything and drawn another stage, so process start and imports are not counted), the
first board of the stage with an empty disk cache, timed from the request to the PNG back:
- cold_ms: as the bot's workers draw it (`worker_init`: the camera window of the layer alone; the
  bot warms the whole layer after), median of COLD_RUNS new workers, all in cold_ms_runs (goal ≤ 150);
- cold_full_ms: the same board drawing the whole layer first (a worker without `worker_init`);
- cold_disk_ms: the board in a new worker whose layer is on disk (a restart after warming).

The board is sent to the worker directly, not through `bot.services.images.draw_async`, so the
figures are the drawing's alone (the pickling of a view and a PNG is the same either way).
"""

from __future__ import annotations

import multiprocessing
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.cache_env import own_cache_env
from bench.frame_timing import board_figures
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.view import BoardView
from bot.render.dirt.board import board_image
from bot.render.dirt.sample import sample_view
from bot.render.options import DEFAULT_OPTIONS
from bot.render.painter import png

RUNS = 30
COLD_RUNS = 3
STAGE = "wolf-forest"  # a long stage (18 tiles): camera window + overview strip
OTHER = "dusty-pines"  # drawn first in a new worker, so its imports and fonts are not counted as cold


def _turn(base: BoardView, i: int) -> BoardView:
    """The sample board `i` turns later: another round and status line, the acting car's time on."""
    cars = [c.model_copy(update={"seconds": c.seconds + 10 * i}) if c.to_act else c for c in base.cars]
    return base.model_copy(update={"round": base.round + i, "status": f"{base.status} · {i + 1}", "cars": cars})


def _in_process(runs: int) -> dict[str, Any]:
    stage = load_stage(STAGE)
    base = sample_view(stage)
    options = DEFAULT_OPTIONS
    board_image(stage, base, options)  # keep the static layer, fonts and text masks
    views = [_turn(base, i) for i in range(runs)]  # made before the clock runs, as before
    return board_figures(lambda i: board_image(stage, views[i], options), runs, options)


def _worker_start(folder: str, window_first: bool) -> None:
    """A render worker's set-up: its cache folder and, as the bot's workers, window-first layers."""
    from bot.render import disk_cache
    from bot.render.dirt.painter import PAINTER
    disk_cache.set_cache_dir(folder)
    if window_first:
        PAINTER.worker_init()


def _draw(stage_name: str, view: BoardView) -> bytes:
    from bot.render.dirt.painter import PAINTER
    return png(PAINTER.board((load_stage(stage_name), view), DEFAULT_OPTIONS))


def _warm(stage_name: str) -> str:
    from bot.render import disk_cache
    from bot.render.dirt.painter import PAINTER
    name = PAINTER.warm(stage_name, DEFAULT_OPTIONS)
    disk_cache.flush()
    return name


def _cold(folder: str, window_first: bool, warm_after: bool = False) -> float:
    """The first board of STAGE in a new worker that has drawn OTHER (ms, request to PNG back)."""
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=ctx, initializer=_worker_start, initargs=(folder, window_first)) as pool:
        pool.submit(_draw, OTHER, sample_view(load_stage(OTHER))).result()
        view = sample_view(load_stage(STAGE))
        t0 = time.perf_counter()
        pool.submit(_draw, STAGE, view).result()
        elapsed = (time.perf_counter() - t0) * 1000
        if warm_after:
            pool.submit(_warm, STAGE).result()
    return elapsed


def _through_a_worker() -> dict[str, Any]:
    cold, full, disk = [], [], []
    for _ in range(COLD_RUNS):
        with tempfile.TemporaryDirectory() as folder:
            cold.append(_cold(folder, window_first=True, warm_after=True))
            disk.append(_cold(folder, window_first=True))  # a restart: the layer is on disk
        with tempfile.TemporaryDirectory() as folder:
            full.append(_cold(folder, window_first=False))
    return {"cold_ms": round(statistics.median(cold), 1), "cold_ms_runs": [round(v, 1) for v in cold],
            "cold_full_ms": round(statistics.median(full), 1), "cold_disk_ms": round(statistics.median(disk), 1)}


def run(runs: int = RUNS) -> dict[str, Any]:
    record: dict[str, Any] = {"bench": "render", "game": "dirt"}
    with tempfile.TemporaryDirectory() as folder, own_cache_env(folder):  # never the bot's own cache folder
        record.update(_in_process(runs))
    with own_cache_env():
        record.update(_through_a_worker())
    record.update({"stage": STAGE, "runs": runs})
    return record


if __name__ == "__main__":
    import json
    print(json.dumps(run()))
