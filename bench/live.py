"""Benchmark of the live command path at scale (issue 9): many running rallies, a steady command rate.

What is timed is the path a player's `/roll` or `/stop` takes in the bot, Discord excepted:
the service call (the rally's lock, the re-read, the engine, the one transaction of action +
snapshot + jobs + outbox rows), while the outbox sender delivers every post to a Discord faked
with zero latency (so its bookkeeping — marking rows sent, recording turn messages, starting
turn clocks — competes for the same event loop and database thread, as in the bot) and the
scheduler looks for due jobs every second. Not timed: Discord's own latency, and drawing the
board images (the sender runs without a renderer here: drawing is CPU work in its own thread,
measured by `bench render`).

The database holds `RALLIES` running rallies (two drivers each, a turn clock each: two pending
jobs per rally) made by cloning one rally that was created, joined and started through the
services. Commands arrive open-loop at `RATE` per second for `SECONDS` seconds, each the AI's
choice for the driver whose turn it is, on rallies taken in a shuffled order.

- `text_p50_ms`, `text_p99_ms`: from a command's arrival to its outbox row committed (ready to
  send), at `RALLIES` rallies. Goal: p99 ≤ 50 ms.
- `text_p99_ms_1k`: the same p99 at 1,000 rallies, measured in the same run (the baseline);
  goal `text_p99_ms / text_p99_ms_1k` ≤ 1.5.
- `startup_s`: a new process from its start to ready on the large database (imports, opening
  and migrating the store, building the services, the start-up clock check over every running
  rally). Goal ≤ 5 s.
- `delivered_p99_ms`: from arrival to the post marked delivered by the sender (extra figure).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RALLIES = 10_000
BASELINE_RALLIES = 1_000
RATE = 50
SECONDS = 30
ROOT = Path(__file__).resolve().parents[1]


class _Message:
    _ids = itertools.count(10**15)

    def __init__(self) -> None:
        self.id = next(self._ids)

    async def edit(self, **kwargs: Any) -> None:
        return None


class _Channel:
    async def send(self, **kwargs: Any) -> _Message:
        return _Message()

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message()


class ZeroLatencyDiscord:
    """The parts of the bot the outbox sender uses, answering at once."""

    def __init__(self) -> None:
        from bot.cogs.autocomplete import OptionsCache

        self.options_cache = OptionsCache()

    async def wait_until_ready(self) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return _Channel()

    async def create_dm(self, user: Any) -> _Channel:
        return _Channel()


async def _seed(db: Path, rallies: int) -> None:
    """One rally through the services, then cloned `rallies - 1` times with its log and jobs."""
    from bot.services import Actor, Place, RallyService
    from bot.store import Store

    store = await Store.open(db)
    try:
        service = RallyService(store, seed_source=lambda: 5)
        place = Place(1, 1)
        host, other = Actor(1, "Ada"), Actor(2, "Seb")
        await service.create(place, host, "ridge-and-moor", drivers=2)
        await service.join(place, host)
        await service.join(place, other)
        await service.start(place, host)
        while batch := await service.delivery.claim():  # deliver: the first turn's clock starts
            for out in batch:
                await service.delivery.sent(out, None)

        async def clone(tx: Any) -> None:
            # Bench fixture only: bulk copies of the template rows (the bot itself never does this).
            template = await tx.fetch_one("SELECT * FROM rallies WHERE id = 1")
            cols = [k for k in template.keys() if k != "id"]
            rows = [tuple(1000 + i if c == "channel_id" else template[c] for c in cols) for i in range(1, rallies)]
            await tx.execute_many(f"INSERT INTO rallies ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                  rows)
            for table, key in (("drivers", "rally_id"), ("actions", "rally_id")):
                sample = await tx.fetch_all(f"SELECT * FROM {table} WHERE {key} = 1")
                names = list(sample[0].keys())
                await tx.execute_many(
                    f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                    [tuple(r + 1 if n == key else row[n] for n in names) for r in range(1, rallies) for row in sample])
            jobs = await tx.fetch_all("SELECT kind, ref, due_at, attempts, created_at FROM jobs WHERE rally_id = 1")
            await tx.execute_many(
                "INSERT INTO jobs (kind, ref, due_at, attempts, created_at, rally_id) VALUES (?, ?, ?, ?, ?, ?)",
                [(j["kind"], f"rally:{r + 1}:turn", j["due_at"], j["attempts"], j["created_at"], r + 1)
                 for r in range(1, rallies) for j in jobs])

        await store.db.write(clone)
    finally:
        await store.close()


async def _load(db: Path, rallies: int, rate: int, seconds: float) -> dict[str, float]:
    """Open-loop commands at `rate`/s for `seconds`; latencies to commit and to delivery."""
    from bot.engine.ai import choose_action
    from bot.services import Actor, Place, RallyService
    from bot.services.deadlines import DeadlineService
    from bot.services.turns import label
    from bot.store import Store
    from bot.views.sender import OutboxSender

    store = await Store.open(db)
    service = RallyService(store, seed_source=lambda: 5)
    deadlines = DeadlineService(service.work)
    sender = OutboxSender(ZeroLatencyDiscord(), service.delivery, renderer=None)  # type: ignore[arg-type]
    service.work.on_commit = sender.wake
    delivered_at: dict[int, float] = {}
    original_sent = service.delivery.sent

    async def sent(out: Any, message_id: int | None) -> Any:
        result = await original_sent(out, message_id)
        delivered_at[out.row.id] = time.perf_counter()
        return result

    service.delivery.sent = sent  # type: ignore[method-assign]
    sender.start()
    actors = {1: Actor(1, "Ada"), 2: Actor(2, "Seb")}
    order = list(range(1, rallies + 1))
    random.Random(3).shuffle(order)
    text: list[float] = []
    posted: list[tuple[float, tuple[int, ...]]] = []
    stop = asyncio.Event()

    async def ticks() -> None:
        while not stop.is_set():
            await deadlines.run_due()
            await asyncio.sleep(1)

    async def one(rally_id: int, started: float) -> None:
        rally = await store.rallies.get(rally_id)
        if rally.status != "running":
            return
        state = service.work.state_of(rally)
        assert state.active is not None
        actor = actors[int(state.active.id)]
        reply = await service.act(Place(rally.guild_id, rally.channel_id), actor, label(choose_action(state)))
        text.append((time.perf_counter() - started) * 1000)
        posted.append((started, reply.outbox))

    ticker = asyncio.create_task(ticks())
    tasks = []
    began = time.perf_counter()
    for n in range(int(rate * seconds)):
        due = began + n / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tasks.append(asyncio.create_task(one(order[n % len(order)], time.perf_counter())))
    await asyncio.gather(*tasks)
    for _ in range(200):  # let the sender finish what it owes
        if await store.outbox.count_owed() == 0:
            break
        await asyncio.sleep(0.05)
    stop.set()
    await ticker
    await sender.stop()
    await store.close()
    delivered = [(delivered_at[ids[-1]] - started) * 1000 for started, ids in posted if ids and ids[-1] in delivered_at]
    return {"p50": statistics.median(text), "p99": _p99(text), "delivered_p99": _p99(delivered),
            "commands": len(text)}


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


STARTUP = """
import asyncio, sys, time
sys.path.insert(0, {root!r})
async def main():
    from bot.services import RallyService
    from bot.services.deadlines import DeadlineService
    from bot.store import Store
    import bot.client  # the bot's own imports (discord.py, cogs, views)
    store = await Store.open({db!r})
    service = RallyService(store)
    await DeadlineService(service.work).resync()
    print("ready", flush=True)
    await store.close()
asyncio.run(main())
"""


def _startup_s(db: Path) -> float:
    began = time.perf_counter()
    child = subprocess.run([sys.executable, "-c", STARTUP.format(root=str(ROOT), db=str(db))],
                           capture_output=True, text=True, timeout=120)
    if "ready" not in child.stdout:
        raise RuntimeError(f"start-up failed: {child.stderr[-2000:]}")
    return time.perf_counter() - began


def run(rallies: int = RALLIES, baseline: int = BASELINE_RALLIES, rate: int = RATE,
        seconds: float = SECONDS) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.sqlite3", Path(tmp) / "small.sqlite3"
        asyncio.run(_seed(big, rallies))
        asyncio.run(_seed(small, baseline))
        startup = _startup_s(big)
        at_scale = asyncio.run(_load(big, rallies, rate, seconds))
        at_1k = asyncio.run(_load(small, baseline, rate, seconds))
    return {
        "bench": "live",
        "text_p50_ms": round(at_scale["p50"], 2),
        "text_p99_ms": round(at_scale["p99"], 2),
        "text_p99_ms_1k": round(at_1k["p99"], 2),
        "p99_ratio": round(at_scale["p99"] / at_1k["p99"], 2),
        "startup_s": round(startup, 2),
        "delivered_p99_ms": round(at_scale["delivered_p99"], 2),
        "rallies": rallies,
        "pending_jobs": rallies * 2,
        "commands": int(at_scale["commands"]),
        "rate_per_s": rate,
        "seconds": seconds,
    }


if __name__ == "__main__":
    print(json.dumps(run()))
