"""Benchmark of an animated replay: `python -m bot bench replay`.

A classic rally of 3 specials (SPECIALS) driven by 4 AI drivers with a fixed seed
(`bot.services.play.replay.ai_log`), its replay drawn as the outbox sender draws one: the log sent as one
job to ONE render worker process (`images.start_pool(1)`: one core), which plays it again, draws
the spectators' board after each turn and encodes the animated WebP. The workers start first and
the disk cache is a new empty folder, so:
- seconds: the first replay (cold: the stages' fitted layers are drawn too); goal ≤ 3;
- seconds_warm: the same replay again in the same worker with the disk file removed (its layers
  in memory): what a replay costs once the worker knows the stages;
- frames, kib (goal ≤ 2048);
- baseline_s: the same-run baseline, one plain palette PNG encode of a board (the median of
  RUNS encodes of the middle frame's board, default options) × frames; seconds_over_baseline.
The machine may be shared: compare seconds with baseline_s of the same run, not across runs.
"""

from __future__ import annotations

import asyncio
import io
import json
import shutil
import statistics
import tempfile
import time
from typing import Any

from PIL import Image

from bench.cache_env import own_cache_env
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS
from bot.services import images
from bot.services.images import PillowRenderer, draw_async, localized
from bot.services.play.replay import ai_log, turn_boards

SPECIALS = ["pinewood-sprint", "black-moor", "greystone-col"]
DRIVERS = 4
SEED = 7
RUNS = 15


def _baseline_ms(row: dict, actions: list[dict]) -> tuple[float, int]:
    """(median ms of one palette PNG encode of a board, frames)."""
    from bot import games

    boards = turn_boards(row, actions)
    game = games.get(row["game"])
    args = game.pictures.board_picture(localized(boards[len(boards) // 2], "en"))
    image = images.pictures_of(game.id).board(tuple(args), DEFAULT_OPTIONS)
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        to_png(image, DEFAULT_OPTIONS.compress_level, DEFAULT_OPTIONS.palette)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), len(boards)


async def _draw(spec: dict[str, Any]) -> tuple[bytes, float]:
    t0 = time.perf_counter()
    data = await draw_async(PillowRenderer(), spec, "en")
    return data, time.perf_counter() - t0


def run() -> dict[str, Any]:
    row, actions = ai_log("rallyman", SPECIALS, DRIVERS, SEED)
    spec = {"kind": "replay", "log": {"rally": row, "actions": actions}}
    folder = tempfile.mkdtemp(prefix="rallybot-bench-replay-")
    try:
        with own_cache_env(folder):
            images.shutdown_pool()
            t0 = time.perf_counter()
            images.start_pool(1)
            pool_start = time.perf_counter() - t0
            data, cold = asyncio.run(_draw(spec))
            _, warm = asyncio.run(_draw(spec))
            images.shutdown_pool()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    encode_ms, frames = _baseline_ms(row, actions)
    animation = Image.open(io.BytesIO(data))
    baseline = encode_ms * frames / 1000
    return {"bench": "replay", "game": "rallyman", "specials": len(SPECIALS), "drivers": DRIVERS,
            "actions": len(actions), "frames": frames, "n_frames": getattr(animation, "n_frames", 1),
            "format": animation.format, "size": list(animation.size), "kib": round(len(data) / 1024, 1),
            "seconds": round(cold, 2), "seconds_warm": round(warm, 2), "encode_ms": round(encode_ms, 1),
            "baseline_s": round(baseline, 2), "seconds_over_baseline": round(cold / baseline, 2),
            "workers": 1, "pool_start_s": round(pool_start, 2)}


if __name__ == "__main__":
    print(json.dumps(run()))
