"""Benchmark of the board image after a turn: warm and cold, palette PNG, one worker and all of them.

The stage is greystone-col (a long stage: camera window + overview strip, the heavier case).

In this process, the work a render worker does for a board whose static layer it keeps, on the
hand-made mid-stage board of `bot.render.rallyman.sample` (4 cars, one skidding, 3 dice with one ⚠) with
its round, status line and the active car's chrono changing every run as they do turn after turn
(so the text and table-row caches only help as they would in a rally); medians over RUNS runs:
- overlay_ms: `board_image`: the window of the kept layer, overview strip, cars, dice, header, table;
- encode_ms: the palette PNG of that frame (octree quantisation + zlib): the same-run baseline;
- warm_ms = total_ms = overlay + encode, and total_over_encode (goal ≤ 1.3);
- png_kib: the palette PNG (goal ≤ 150); encode_rgb_ms, png_rgb_kib: the true-colour PNG of the
  same frame, as it was sent before (for comparison).

Through the render workers, the path the outbox sender takes (`draw_async`: the board spec, a real
game state, pickled to a worker process, the PNG back; boards of greystone-col played by 4 AI
drivers, one per turn end):
- cold_ms: the first board of a stage no worker has drawn, with an empty disk cache (a temporary
  RALLYBOT_CACHE); the workers are started and have drawn another stage first, so process start
  and imports are not counted. Median of COLD_RUNS (each with new workers and an empty folder),
  all runs in cold_ms_runs. Goal ≤ 150.
- cold_disk_ms: the same board in new workers after a restart: the layer is read from disk.
- warm_pool_ms: a board of a stage the worker keeps in memory (median).
- boards_per_s_1, boards_per_s_all: BOARDS boards of the kept stage sent at once (a burst of turn
  ends) to 1 worker and to all `workers` (one per CPU, `bot.sizing.cpus()`, whatever the host's
  memory plan gives the bot), SPEED_ROUNDS times each, interleaved (medians);
  parallel_speedup = the median of the rounds' ratios, each round's two bursts back to back, so a
  drift of the shared machine's speed hits both sides of a ratio alike (goal ≥ 1.6 on 2+ cores),
  all of them in speedup_rounds. Same-run baseline: cpu_speedup_ceiling,
  the speedup of plain CPU work (a Python loop, no images) over as many processes at that moment,
  and load_average: on a machine shared with other work the ceiling is below `workers`.

The `/driver` career card (bench/career_card.py), in this process too: card_ms (a spec drawn
warm to its PNG, as a worker does), card_encode_ms (the palette PNG of the same frame: the same-run
baseline), card_over_encode (goal ≤ 1.3), card_kib.

Not measured: the Discord upload and the database (bench live), the event loop's own work, the
start of the worker pool (once per process, printed as pool_start_s), warming (it runs in the
background, off any command's path).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from typing import Any

from bench.cache_env import own_cache_env
from bench.career_card import run as career_card
from bench.frame_timing import board_figures
from bot import sizing
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, new_game
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.render.options import DEFAULT_OPTIONS
from bot.render.rallyman.board import board_image
from bot.render.rallyman.sample import sample_view
from bot.services import images
from bot.services.images import PillowRenderer, board_spec, draw_async

RUNS = 30
COLD_RUNS = 3
BOARDS = 120
SPEED_ROUNDS = 4  # boards/s is measured this many times per pool size, interleaved; medians count
PREFERRED = "greystone-col"  # a long stage (camera view + overview strip): the heavier case
OTHER = "pinewood-sprint"  # drawn first, so a worker's imports and fonts are not counted as cold


def _stage():
    names = stage_names()
    return load_stage(PREFERRED if PREFERRED in names else names[0])


def _turn(base, i: int):
    """The sample board `i` turns later: another round and status line, and the active car's
    chrono moved on (its table row is drawn again; the other rows are as they were)."""
    cars = tuple(c.model_copy(update={"chrono_s": c.chrono_s + 10 * i}) if c.active else c for c in base.cars)
    return base.model_copy(update={"round": base.round + i, "status": f"{base.status} · {i + 1}", "cars": cars})


def _in_process(stage, runs: int) -> dict[str, Any]:
    base = sample_view(stage)
    options = DEFAULT_OPTIONS
    board_image(stage, base, options)  # keep the static layer, sprites and fonts
    views = [_turn(base, i) for i in range(runs)]  # made before the clock runs, as before
    return board_figures(lambda i: board_image(stage, views[i], options), runs, options)


def _specs(stage_name: str, count: int, seed: int = 5) -> list[dict]:
    """Board specs of a game of 4 AI drivers, one per turn end (a new game when one finishes)."""
    specs: list[dict] = []
    state = new_game(stage_name, ai_seats(4), seed=seed)
    while len(specs) < count:
        if state.turn is None:
            seed += 1
            state = new_game(stage_name, ai_seats(4), seed=seed)
            continue
        state, _ = apply(state, choose_action(state))
        if state.turn is None or not state.turn.started:
            specs.append(board_spec(state))
    return specs


async def _timed(spec: dict) -> float:
    t0 = time.perf_counter()
    await draw_async(PillowRenderer(), spec)
    return (time.perf_counter() - t0) * 1000


async def _idle(folder: str, stage: str) -> None:
    """Wait for the warm-up of `stage` that a window-first board sends (its layer on disk)."""
    static = os.path.join(folder, "static")
    for _ in range(200):
        if os.path.isdir(static) and any(name.endswith(".png") for name in os.listdir(static)):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def _cpu_ceiling(workers: int, n: int = 3_000_000) -> float:
    """The speedup plain CPU work (no images) gets from `workers` processes right now: what the
    machine, shared with other work, lets any program reach (the same-run baseline of the speedup)."""
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with ctx.Pool(workers) as pool:
        pool.map(_spin, [1000] * workers)
        t0 = time.perf_counter()
        pool.map(_spin, [n])
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        pool.map(_spin, [n] * workers, chunksize=1)
        every = time.perf_counter() - t0
    return round(one * workers / every, 2)


def _start(workers: int | None, folder: str) -> float:
    os.environ["RALLYBOT_CACHE"] = folder
    t0 = time.perf_counter()
    if images.start_pool(workers) is None:
        raise RuntimeError("the render workers could not start")
    return time.perf_counter() - t0


async def _through_workers(stage_name: str) -> dict[str, Any]:
    workers = sizing.cpus()  # the parallel speed of the pool on every CPU, whatever a host's memory plan
    specs = _specs(stage_name, BOARDS + 8)
    others = _specs(OTHER, 2 * workers)
    out: dict[str, Any] = {"workers": workers}
    try:
        cold, cold_disk, start_s = [], [], []
        for _ in range(COLD_RUNS):
            with tempfile.TemporaryDirectory() as folder:
                images.shutdown_pool()
                start_s.append(_start(workers, folder))
                await asyncio.gather(*(_timed(s) for s in others))  # every worker imported and drew once
                cold.append(await _timed(specs[0]))
                await _idle(folder, stage_name)
                images.shutdown_pool()
                _start(workers, folder)  # a restart: new workers, the layer on disk
                await asyncio.gather(*(_timed(s) for s in others))
                cold_disk.append(await _timed(specs[1]))
        out["cold_ms"] = round(statistics.median(cold), 1)
        out["cold_ms_runs"] = [round(v, 1) for v in cold]
        out["cold_disk_ms"] = round(statistics.median(cold_disk), 1)
        out["pool_start_s"] = round(statistics.median(start_s), 2)
        speeds: dict[int, list[float]] = {1: [], workers: []}
        with tempfile.TemporaryDirectory() as folder:
            for n in (1, workers) * SPEED_ROUNDS:  # interleaved: the machine's other load hits both alike
                images.shutdown_pool()
                _start(n, folder)
                await asyncio.gather(*(_timed(s) for s in specs[:4 * n]))  # every worker keeps the layer
                out.setdefault("warm_pool_ms", round(statistics.median([await _timed(s) for s in specs[2:12]]), 1))
                t0 = time.perf_counter()
                await asyncio.gather(*(_timed(s) for s in specs[8:8 + BOARDS]))
                speeds[n].append(BOARDS / (time.perf_counter() - t0))
        out["boards_per_s_1"] = round(statistics.median(speeds[1]), 1)
        out["boards_per_s_all"] = round(statistics.median(speeds[workers]), 1)
        rounds = [every / one for one, every in zip(speeds[1], speeds[workers])]
        out["parallel_speedup"] = round(statistics.median(rounds), 2)
        out["speedup_rounds"] = [round(r, 2) for r in rounds]
        out["cpu_speedup_ceiling"] = _cpu_ceiling(workers)
        out["load_average"] = round(os.getloadavg()[0], 2)
    finally:
        images.shutdown_pool()
    return out


def run(runs: int = RUNS) -> dict:
    stage = _stage()
    record: dict[str, Any] = {"bench": "render"}
    with tempfile.TemporaryDirectory() as folder, own_cache_env(folder):  # never the bot's own cache folder
        record.update(_in_process(stage, runs))
        record.update(career_card(runs))  # the `/driver` card: card_over_encode
    with own_cache_env():  # each part of it sets a folder of its own (`_start`)
        record.update(asyncio.run(_through_workers(stage.name)))
    record.update({"stage": stage.name, "runs": runs, "boards": BOARDS})
    return record


def main() -> int:
    print(json.dumps(run()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
