"""Benchmark of the live command path at scale: many running rallies, a steady command rate.

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
choice for the driver whose turn it is, on rallies taken in a shuffled order: at its time the
driver (the AI) reads the rally and decides, and the command arrives once its text is known (the
driver's read and thinking are not the bot's work, so not timed). Each process first warms as the
bot does before its gateway connects (`RallyBot.warm`: the messages, its running rallies' stages).

- `text_p50_ms`, `text_p99_ms`: from a command's arrival to its outbox row committed (ready to
  send), at `RALLIES` rallies. Goal: p99 ≤ 50 ms.
- `text_p99_ms_1k`: the same p99 at 1,000 rallies, measured in the same run (the baseline);
  goal `text_p99_ms / text_p99_ms_1k` ≤ 1.5.
- `startup_s`: a new process from its start to ready on the large database (imports, opening
  and migrating the store, building the services, warming, the start-up clock check over every
  running rally). Goal ≤ 5 s.
- `delivered_p99_ms`: from arrival to the post marked delivered by the sender (extra figure).
- The burst (`bench/burst.py`): 200 rallies end their turn at the same moment, the
  real sender drawing the boards with the real renderer, Discord faked with 50 ms per call:
  `ping_p99_ms` (the next driver's ping handed to Discord), `board_p99_ms` (the board on that
  post; goal ≤ 1000 ms) and `text_only_p99_ms`, the same burst drawing nothing, measured in the
  same run (goal `ping_over_text` ≤ 2); `board_after_ping_p99_ms`, how long each board follows its text.

`--backend postgresql --processes N`: shards over processes, the same path on one PostgreSQL
database served by N bot processes at once, each with its own shard (SHARD_COUNT=N, SHARD_IDS=i).

- The rallies are seeded as above, one server each (rally r in server `guild_of(r)`, on shard
  r mod N), in one PostgreSQL database: `url` (`--url`, an existing database holding no rallies
  yet), else a fresh one on a throwaway server started from the checkout's `tests/pg_server.py`
  (fsync off) and stopped at the end.
- N worker processes (`python -m bench.live --worker …`, each with its own pool, services, outbox
  sender and scheduler ticks, recorded among the database's bot processes as N bots would) start
  together and share ONE schedule of `RATE` commands per second in all: arrival n, at n / `RATE`
  s, on rally order[n mod rallies], is played by the process whose shard serves its server (as
  Discord routes a server's interactions), whose sender delivers its posts and whose scheduler
  runs its jobs.
- A refusal (any `RallyError`) is counted as `refused`, its latency left out of the text
  figures; any other error fails the bench.
- The run at `rallies` (`--rallies`, e.g. 100,000; two pending jobs each): `text_p50_ms`,
  `text_p99_ms` over the commands of all processes, `delivered_p99_ms` from arrival to the post
  marked delivered (the processes' times compared on the wall clock), `rss_mb_100k` the largest
  process's peak resident memory, `startup_s` a new process of shard 0 from its start to ready on
  that database (the same steps as `startup_s` above, its shard's rallies), `startup_cpu_s` the
  CPU time of that start; `cpu_ms_per_command` the workers' CPU time during the load (commands,
  sender, scheduler; PostgreSQL's own CPU not counted) over the commands played. On a shared
  machine the wall-clock figures grow with the machine's queue; the CPU figures do not.
- Before it, in the same run: the same N processes on the same database holding a tenth of the
  rallies (`baseline_rallies`, at most 10,000; the database is then grown to `rallies`):
  `rss_mb_10k` (goal `rss_ratio` = rss_mb_100k / rss_mb_10k ≤ 1.2: memory per process flat) and
  `text_p99_ms_10k`; and the baseline, ONE process on an SQLite file of `baseline_rallies`
  rallies, the same schedule: `baseline_text_p99_ms` (and `baseline_cpu_ms_per_command`), goal
  `p99_vs_baseline` = text_p99_ms / baseline_text_p99_ms ≤ 1.5; startup goal ≤ 2 s a process.
  (`rss_mb_10k` and `rss_mb_100k` are named after the issue's sizes, 10,000 and 100,000;
  `baseline_rallies` and `rallies` say the sizes of the run.)
- Sizes: 100,000 rallies take about two minutes on the 2-core machine (seeding included); a few
  dozen rallies and `--seconds 1` make a smoke test.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import itertools
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import IO, Any

from bench.burst import BURST
from bench.burst import measure as measure_burst
from bench.store import BACKENDS, BenchError, check_backend, postgres_database, require_no_rallies
from bot.store.connection import POSTGRESQL, SQLITE
from bot.store.shards import Shards

__all__ = ["BenchError", "main", "run"]  # BenchError: what `python -m bot bench live` reports and exits 2 on

RALLIES = 10_000
BASELINE_RALLIES = 1_000
SHARDED_BASELINE_MAX = 10_000  # shard processes on PostgreSQL: the baseline is a tenth of the run, at most this
RATE = 50
SECONDS = 30
ROOT = Path(__file__).resolve().parents[1]
START_DELAY_S = 0.5  # between the workers' "ready" and their common start
WORKER_TIMEOUT_S = 180.0  # beyond the load itself: a worker that takes longer has hung


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

    async def wait_until_ready(self) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return _Channel()

    async def create_dm(self, user: Any) -> _Channel:
        return _Channel()


def guild_of(rally_id: int) -> int:
    """The server of seeded rally `rally_id`: one each, on shard `rally_id % SHARD_COUNT` (Discord
    puts server g on shard (g >> 22) % SHARD_COUNT), so the rallies spread evenly over any shards."""
    return (rally_id << 22) | 1


async def _seed(db: Path | str, rallies: int, first: int = 1) -> int:
    """Rallies `first`..`rallies`: rally 1 through the services (when `first` is 1), the others cloned
    from it with its log and pending jobs, rally r in server `guild_of(r)`, channel 1000 + r (the
    same SQL on both backends: `?` placeholders, ids from the identity of the database, so rallies
    1..first-1 must be the only ones). Returns the pending jobs in the database."""
    from bot.services import Actor, Place, RallyService
    from bot.store import Store

    store = await Store.open(db)
    try:
        if first == 1:
            await require_no_rallies(store)  # the clones take the ids after the template's (1)
            service = RallyService(store, seed_source=lambda: 5)
            place = Place(guild_of(1), 1001)
            host, other = Actor(1, "Ada"), Actor(2, "Seb")
            await service.create(place, host, "ridge-and-moor", drivers=2)
            await service.join(place, host)
            await service.join(place, other)
            await service.start(place, host)
            while batch := await service.delivery.claim():  # deliver: the first turn's clock starts
                for out in batch:
                    await service.delivery.sent(out, None)
        else:
            row = await store.db.fetch_one("SELECT MAX(id) FROM rallies")
            if row is None or row[0] != first - 1:
                raise BenchError(f"cannot add rallies from {first}: the database's last rally is {row and row[0]}")

        async def clone(tx: Any) -> None:
            # Bench fixture only: bulk copies of the template rows (the bot itself never does this).
            new = range(max(first, 2), rallies + 1)
            template = await tx.fetch_one("SELECT * FROM rallies WHERE id = 1")
            cols = [k for k in template.keys() if k != "id"]
            shape = {"channel_id": lambda r: 1000 + r, "guild_id": guild_of}
            rows = [tuple(shape[c](r) if c in shape else template[c] for c in cols) for r in new]
            await tx.execute_many(f"INSERT INTO rallies ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                                  rows)
            for table, key in (("drivers", "rally_id"), ("actions", "rally_id")):
                sample = await tx.fetch_all(f"SELECT * FROM {table} WHERE {key} = 1")
                names = list(sample[0].keys())
                await tx.execute_many(
                    f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                    [tuple(r if n == key else row[n] for n in names) for r in new for row in sample])
            jobs = await tx.fetch_all("SELECT kind, ref, due_at, attempts, created_at FROM jobs "
                                      "WHERE rally_id = 1 AND done_at IS NULL")
            await tx.execute_many(
                "INSERT INTO jobs (kind, ref, due_at, attempts, created_at, rally_id, guild_id) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(j["kind"], f"rally:{r}:turn", j["due_at"], j["attempts"], j["created_at"], r, guild_of(r))
                 for r in new for j in jobs])

        await store.db.write(clone)
        row = await store.db.fetch_one("SELECT COUNT(*) FROM jobs WHERE done_at IS NULL")
        return int(row[0]) if row else 0
    finally:
        await store.close()


async def _load(db: Path | str, rallies: int, rate: int, seconds: float, *, shards: Shards | None = None,
                start: Callable[[], Awaitable[float]] | None = None, count_refusals: bool = False) -> dict[str, Any]:
    """Open-loop commands at `rate`/s for `seconds`; latencies to commit and to delivery.

    One schedule: arrival n at n / `rate` s, on rally order[n % rallies]. A process of `shards`
    (a worker's) records itself among the database's bot processes as the bot does, takes only the
    arrivals on its shards' servers (Discord sends it only those), and its sender and scheduler
    claim only their posts and jobs; without `shards` it takes every arrival. `start` (a worker's)
    waits for the common start and returns it on this process's `perf_counter`. With
    `count_refusals`, a refused command (a `RallyError`) is counted, not raised. Returns the raw
    figures: `text` latencies (ms), `refused`, `posted` (arrival, last outbox id), `delivered`
    (outbox id, time marked delivered), times on this process's `perf_counter`, and `rss_mb`, the
    process's peak resident memory.
    """
    from bot.engine.core.errors import RallyError
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.protocol import GAME as RALLYMAN
    from bot.services import Actor, Place, RallyService
    from bot.services.play.deadlines import DeadlineService
    from bot.store import Store
    from bot.views.options_cache import OptionsCache
    from bot.views.sender import OutboxSender
    from bot.views.turn_buttons import TurnButton

    store = await Store.open(db)
    service = RallyService(store, seed_source=lambda: 5)
    record = None
    if shards is not None:
        service.work.shards = shards
        record = await store.shard_processes.claim(shards, socket.gethostname(), os.getpid(), service.work.clock())
    deadlines = DeadlineService(service.work)
    sender = OutboxSender(ZeroLatencyDiscord(), service.delivery, renderer=None,  # type: ignore[arg-type]
                          prompts=OptionsCache(), buttons=TurnButton)
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
    refused: list[str] = []
    posted: list[tuple[float, tuple[int, ...]]] = []
    stop = asyncio.Event()

    async def ticks() -> None:
        while not stop.is_set():
            await deadlines.run_due()
            await asyncio.sleep(1)

    async def one(rally_id: int) -> None:
        rally = await store.rallies.get(rally_id)  # the driver (the AI here) reads the board and decides:
        if rally.status != "running":  # not the bot's work, so not timed
            return
        state = service.work.state_of(rally)
        assert state.active is not None
        actor = actors[int(state.active.id)]
        move = RALLYMAN.commands.label(choose_action(state))
        started = time.perf_counter()  # the command arrives
        try:
            reply = await service.act(Place(rally.guild_id, rally.channel_id), actor, move)
        except RallyError as exc:
            if not count_refusals:
                raise
            refused.append(type(exc).__name__)
            return
        text.append((time.perf_counter() - started) * 1000)
        posted.append((started, reply.outbox))

    await warm(service)  # as the bot does before its gateway connects
    ticker = asyncio.create_task(ticks())
    tasks = []
    began = await start() if start is not None else time.perf_counter()
    cpu0 = time.process_time()
    mine = service.work.shards
    for n in range(int(rate * seconds)):
        rally_id = order[n % len(order)]
        if not mine.owns(guild_of(rally_id)):
            continue  # another process's server
        due = began + n / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tasks.append(asyncio.create_task(one(rally_id)))
    await asyncio.gather(*tasks)
    cpu_s = time.process_time() - cpu0
    for _ in range(200):  # let the sender finish what it owes
        if await store.outbox.count_owed() == 0:
            break
        await asyncio.sleep(0.05)
    stop.set()
    await ticker
    await sender.stop()
    if record is not None:
        await store.shard_processes.release(record)
    await store.close()
    return {"text": text, "refused": len(refused), "posted": [(t, ids[-1]) for t, ids in posted if ids],
            "delivered": list(delivered_at.items()), "rss_mb": peak_rss_mb(), "cpu_s": cpu_s}


async def warm(service: Any) -> None:
    """What `RallyBot.warm` does before the bot takes commands: every language's messages, the
    stages of the process's most played running rallies."""
    from bot.i18n import catalogue, languages

    for lang in languages():
        catalogue(lang)
    await service.work.warm()


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM of /proc/self/status), in MB; NaN where the
    system does not say."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return float("nan")
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _summary(load: dict[str, Any]) -> dict[str, float]:
    """p50 and p99 of the text latency, p99 to delivery, counts (one process, or the workers' merged)."""
    delivered_at = dict(load["delivered"])
    delivered = [(delivered_at[last] - started) * 1000 for started, last in load["posted"] if last in delivered_at]
    text = load["text"]
    return {"p50": statistics.median(text) if text else float("nan"), "p99": _p99(text),
            "delivered_p99": _p99(delivered), "commands": len(text), "refused": load["refused"]}


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else float("nan")


STARTUP = """
import asyncio, sys, time
sys.path.insert(0, {root!r})
async def main():
    from bot.services import RallyService
    from bot.services.play.deadlines import DeadlineService
    from bot.store import Store
    from bot.store.shards import Shards
    import bot.client  # the bot's own imports (discord.py, cogs, views)
    store = await Store.open({db!r})
    service = RallyService(store)
    service.work.shards = Shards({count}, {ids!r})
    from bench.live import warm
    await warm(service)
    await DeadlineService(service.work).resync()
    print("ready", flush=True)
    await store.close()
asyncio.run(main())
"""


def _startup_s(db: Path | str, shards: Shards | None = None) -> tuple[float, float]:
    """A new process from its start to ready on `db` (serving `shards`): imports, opening and
    migrating the store, the services, the start-up clock check of its shards' running rallies.
    Returns its wall-clock time and its CPU time (user + system: what a busy machine does not inflate)."""
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    shards = shards or Shards.everything()
    script = STARTUP.format(root=str(ROOT), db=str(db), count=shards.count, ids=shards.ids)
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    if "ready" not in child.stdout:
        raise RuntimeError(f"start-up failed: {child.stderr[-2000:]}")
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - cpu.ru_utime) + (after.ru_stime - cpu.ru_stime)


def _worker(spec: dict[str, Any]) -> int:
    """One of the N processes of `--processes N` (shard `shard` of `shards`): prints `{"ready": true}`
    once its store, sender and ticks run, reads the common start (a wall-clock time) on stdin, runs its share of the
    schedule, then prints its raw figures as one JSON line, times on the wall clock."""
    offset = time.time() - time.perf_counter()  # this process's perf_counter → wall clock

    async def start() -> float:
        print(json.dumps({"ready": True}), flush=True)
        line = await asyncio.to_thread(sys.stdin.readline)
        return float(json.loads(line)["start"]) - offset

    shards = Shards(spec["shards"], (spec["shard"],))
    load = asyncio.run(_load(spec["db"], spec["rallies"], spec["rate"], spec["seconds"], shards=shards, start=start,
                             count_refusals=True))
    print(json.dumps({"text": load["text"], "refused": load["refused"],
                      "posted": [(t + offset, last) for t, last in load["posted"]],
                      "delivered": [(last, t + offset) for last, t in load["delivered"]],
                      "rss_mb": load["rss_mb"], "cpu_s": load["cpu_s"]}), flush=True)
    return 0


def _failed(proc: subprocess.Popen[str], err: IO[str], what: str) -> RuntimeError:
    """The error of a worker that `what` (its exit code and the end of what it wrote to stderr)."""
    err.seek(0)
    return RuntimeError(f"bench worker {proc.pid} {what} (exit {proc.poll()}):\n{err.read()[-4000:]}")


def _read_line(proc: subprocess.Popen[str], err: IO[str]) -> dict[str, Any]:
    """The worker's next JSON line; its error output when it ended instead."""
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line:
        proc.wait(30)
        raise _failed(proc, err, "ended")
    return json.loads(line)


def _load_processes(url: str, rallies: int, rate: int, seconds: float, processes: int) -> dict[str, Any]:
    """`_load` in `processes` worker processes at once on one database, process i serving shard i
    of `processes` (SHARD_COUNT=N, SHARD_IDS=i); their raw figures merged (times on the wall clock,
    `rss_mb` the largest process's peak)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))
    with tempfile.TemporaryDirectory(prefix="rallybot-live-") as tmp:
        workers: list[tuple[subprocess.Popen[str], IO[str]]] = []
        try:
            for share in range(processes):
                spec = {"db": url, "rallies": rallies, "rate": rate, "seconds": seconds, "shard": share,
                        "shards": processes}
                err = open(Path(tmp) / f"worker-{share}.log", "w+")  # closed in the finally below
                proc = subprocess.Popen([sys.executable, "-m", "bench.live", "--worker", json.dumps(spec)], cwd=ROOT,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
                workers.append((proc, err))
            for proc, err in workers:
                if _read_line(proc, err) != {"ready": True}:
                    raise _failed(proc, err, "did not say it was ready")
            at = time.time() + START_DELAY_S
            for proc, _ in workers:
                assert proc.stdin is not None
                proc.stdin.write(json.dumps({"start": at}) + "\n")
                proc.stdin.flush()
            loads = []
            for proc, err in workers:
                loads.append(_read_line(proc, err))
                if proc.wait(WORKER_TIMEOUT_S + seconds) != 0:
                    raise _failed(proc, err, "failed")
        finally:
            for proc, err in workers:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait(30)
                err.close()
    return {"text": [v for load in loads for v in load["text"]], "refused": sum(load["refused"] for load in loads),
            "posted": [tuple(p) for load in loads for p in load["posted"]],
            "delivered": [tuple(d) for load in loads for d in load["delivered"]],
            "rss_mb": max(load["rss_mb"] for load in loads), "cpu_s": sum(load["cpu_s"] for load in loads)}


def baseline_size(rallies: int) -> int:
    """The baseline's rallies: a tenth of the run's, at most `SHARDED_BASELINE_MAX` (10,000 of 100,000)."""
    return max(1, min(SHARDED_BASELINE_MAX, rallies // 10))


def _run_postgresql(rallies: int, rate: int, seconds: float, processes: int, url: str | None) -> dict[str, Any]:
    """`processes` shard processes on one PostgreSQL database at a tenth of `rallies`, then (the
    database grown) at `rallies`; the baseline, one process on SQLite at the tenth, in between."""
    small = baseline_size(rallies)
    with postgres_database(url) as target, tempfile.TemporaryDirectory() as tmp:
        alone_db = Path(tmp) / "baseline.sqlite3"
        asyncio.run(_seed(target, small))
        at_small = _load_processes(target, small, rate, seconds, processes)
        asyncio.run(_seed(alone_db, small))
        alone_load = asyncio.run(_load(alone_db, small, rate, seconds, count_refusals=True))
        alone, alone_cpu = _summary(alone_load), alone_load["cpu_s"]
        pending = asyncio.run(_seed(target, rallies, first=small + 1)) if rallies > small else None
        startup, startup_cpu = _startup_s(target, Shards(processes, (0,)) if processes > 1 else None)
        at_scale = _load_processes(target, rallies, rate, seconds, processes)
        if pending is None:
            pending = asyncio.run(_pending_jobs(target))
    shared, small_figures = _summary(at_scale), _summary(at_small)
    return {
        "bench": "live",
        "backend": POSTGRESQL,
        "processes": processes,
        "text_p50_ms": round(shared["p50"], 2),
        "text_p99_ms": round(shared["p99"], 2),
        "baseline_text_p99_ms": round(alone["p99"], 2),
        "p99_vs_baseline": round(shared["p99"] / alone["p99"], 2),
        "startup_s": round(startup, 2),
        "startup_cpu_s": round(startup_cpu, 2),
        "rss_mb_10k": round(at_small["rss_mb"], 1),
        "rss_mb_100k": round(at_scale["rss_mb"], 1),
        "rss_ratio": round(at_scale["rss_mb"] / at_small["rss_mb"], 2),
        "text_p99_ms_10k": round(small_figures["p99"], 2),
        "cpu_ms_per_command": round(at_scale["cpu_s"] * 1000 / max(1, shared["commands"]), 2),
        "baseline_cpu_ms_per_command": round(alone_cpu * 1000 / max(1, alone["commands"]), 2),
        "delivered_p99_ms": round(shared["delivered_p99"], 2),
        "baseline_delivered_p99_ms": round(alone["delivered_p99"], 2),
        "rallies": rallies,
        "baseline_rallies": small,
        "pending_jobs": pending,
        "commands": int(shared["commands"]),
        "refused": int(shared["refused"]),
        "baseline_commands": int(alone["commands"]),
        "baseline_refused": int(alone["refused"]),
        "rate_per_s": rate,
        "seconds": seconds,
    }


async def _pending_jobs(db: str) -> int:
    from bot.store import Store

    async with Store.open(db) as store:
        row = await store.db.fetch_one("SELECT COUNT(*) FROM jobs WHERE done_at IS NULL")
        return int(row[0]) if row else 0


def run(rallies: int = RALLIES, baseline: int = BASELINE_RALLIES, rate: int = RATE,
        seconds: float = SECONDS, *, backend: str = SQLITE, processes: int = 1,
        url: str | None = None, burst: int = BURST) -> dict[str, Any]:
    """Run the live benchmark; returns its JSON record (`backend` 'postgresql': `processes` processes
    on one PostgreSQL database against one SQLite process, see the module docstring)."""
    check_backend(backend, url)
    if processes < 1:
        raise ValueError(f"processes must be at least 1, got {processes}")
    if backend == POSTGRESQL:
        return _run_postgresql(rallies, rate, seconds, processes, url)
    if processes != 1:
        raise ValueError("SQLite serves one process: several processes share a database with backend 'postgresql'")
    with tempfile.TemporaryDirectory() as tmp:
        big, small = Path(tmp) / "big.sqlite3", Path(tmp) / "small.sqlite3"
        asyncio.run(_seed(big, rallies))
        baseline = min(baseline, rallies)
        asyncio.run(_seed(small, baseline))
        startup, _ = _startup_s(big)
        at_scale = _summary(asyncio.run(_load(big, rallies, rate, seconds)))
        at_1k = _summary(asyncio.run(_load(small, baseline, rate, seconds)))
        burst_figures = measure_burst(Path(tmp), burst)
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
        **burst_figures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="live command-path benchmark: prints one JSON line")
    parser.add_argument("--backend", choices=BACKENDS, default=SQLITE)
    parser.add_argument("--processes", type=int, default=1, help="postgresql: bot processes sharing the rallies")
    parser.add_argument("--url", help="postgresql: an existing empty database (default: a throwaway server)")
    parser.add_argument("--rallies", type=int, default=RALLIES)
    parser.add_argument("--rate", type=int, default=RATE, help="commands per second, all processes together")
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # one of the processes of --processes N
    args = parser.parse_args(argv)
    if args.worker is not None:
        return _worker(json.loads(args.worker))
    print(json.dumps(run(args.rallies, rate=args.rate, seconds=args.seconds, backend=args.backend,
                         processes=args.processes, url=args.url)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
