"""Memory benchmark: one bot process with RALLIES running rallies over STAGES stages, a board drawn for each.

The rallies are real: created, joined by two drivers and started through the services on a
temporary SQLite database (what the bot process holds: the store, the services, their caches),
over the generated stages gen-0 … gen-49 (30 spaces each, camera views: the weekly official
stages are of this kind). Creating a rally warms its stage's static layer, as in the bot. Then
each rally's first board (the post its start owes) is drawn through `draw_async`, the outbox
sender's path: in the render worker processes, with a temporary disk cache folder.

Printed (one JSON line), resident set sizes (VmRSS) in MB:
- baseline_mb: this process after its imports and the worker pool's start, before any rally (the
  same-run baseline);
- rss_mb: this process with every rally running and every board drawn (goal ≤ 250);
- peak_mb: its peak (VmHWM);
- workers_rss_mb: each render worker at the end (each keeps its own caches, bounded in bytes:
  static layers 64 MB, overview strips 16 MB, text 8 MB), and total_rss_mb: this process and
  the workers together;
- seconds, rallies, stages, boards.
The defaults take about a minute on a 2-core machine; `run(rallies=…, stages=…)` for others.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.cache_env import own_cache_env

RALLIES = 1000
STAGES = 50
DRIVERS = ((9001, "Ada"), (9002, "Seb"))


def rss_mb(pid: int | str = "self", field: str = "VmRSS") -> float:
    """A process's resident set size (or `field`, e.g. VmHWM) in MB, from /proc; 0 without /proc."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


async def _measure(rallies: int, stages: int) -> dict[str, Any]:
    from bot.services import Actor, Place, RallyService, images
    from bot.services.images import default_renderer, draw_async
    from bot.store import Store

    renderer = default_renderer()
    if await asyncio.to_thread(images.start_pool) is None:
        raise RuntimeError("the render workers could not start")
    baseline = rss_mb()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "memory.sqlite3")
        try:
            service = RallyService(store, seed_source=lambda: 8)
            actors = [Actor(uid, name) for uid, name in DRIVERS]
            specs = []
            for i in range(rallies):
                place = Place(77, 10_000 + i)
                await service.create(place, actors[0], f"gen-{i % stages}", drivers=2)
                for actor in actors:
                    await service.join(place, actor)
                reply = await service.start(place, actors[0])
                row = await store.outbox.get(reply.outbox[-1]) if reply.outbox else None
                if row is not None and row.body.get("image"):
                    specs.append(row.body["image"])
            sem = asyncio.Semaphore(4 * images.pool_size())  # the sender's pace: a few posts at a time

            async def one(spec: dict) -> None:
                async with sem:
                    await draw_async(renderer, spec)

            await asyncio.gather(*(one(spec) for spec in specs))
            workers = sorted(rss_mb(pid) for pid in images.worker_pids())
            return {"bench": "memory", "rss_mb": rss_mb(), "baseline_mb": baseline, "peak_mb": rss_mb(field="VmHWM"),
                    "workers_rss_mb": workers, "total_rss_mb": round(rss_mb() + sum(workers), 1),
                    "rallies": rallies, "stages": stages, "boards": len(specs),
                    "seconds": round(time.perf_counter() - t0, 1)}
        finally:
            await store.close()


def run(rallies: int = RALLIES, stages: int = STAGES) -> dict:
    # the workers' disk cache: empty, and never the bot's own
    with tempfile.TemporaryDirectory() as folder, own_cache_env(folder):
        from bot.services import images

        try:
            return asyncio.run(_measure(rallies, stages))
        finally:
            images.shutdown_pool()


if __name__ == "__main__":
    import json

    print(json.dumps(run()))
