"""Store benchmark: how fast is one committed game action, against plain SQLite?

Measured in the same run, on the same disk, with the same connection settings
(`bot.store.sqlite.connect`: WAL, synchronous=NORMAL, foreign_keys, busy_timeout,
isolation_level=None):

- `raw_commit_per_s`, the baseline, like with like: a plain `sqlite3` connection with
  the same settings owned by one thread, as the store's, each commit ONE call on that thread
  running `BEGIN IMMEDIATE`, an INSERT of one row holding the action text and the same ~4 KB
  snapshot, `COMMIT`; nothing else. (`aiosqlite_commit_per_s`, for information: plain aiosqlite
  `execute(INSERT)` + `commit()`, two thread round trips, what ordinary aiosqlite code pays.)
- `action_commit_per_s`: `Store.append_action` with that snapshot, round-robin over `rallies`
  rallies of 4 drivers: lock, then in one call on the connection thread `BEGIN IMMEDIATE`,
  version-checked UPDATE of the rally, INSERT of the action, `COMMIT`.
- `commit_ratio` = action / raw (goal >= 0.5). Raw and action runs alternate, `repeats` times;
  each figure is the median.
- `service_p50_ms` / `service_p99_ms`: latency of a whole service turn (load → engine → store →
  render) with `rallies` rallies played at once (bench/service_latency.py).

`--backend postgresql` measures the same figures on PostgreSQL, plus `"backend"`:

- `raw_commit_per_s`, the baseline: plain asyncpg on one connection, `INSERT` of one row holding
  the action text and the same ~4 KB snapshot inside `async with conn.transaction()` (BEGIN,
  INSERT, COMMIT: three round trips), into a plain table the bench creates (`bench_raw_actions`,
  dropped at the end), on the same server and database as the store run;
- `action_commit_per_s`: `Store.append_action` on the PostgreSQL store (a pooled connection,
  BEGIN, the version-checked UPDATE, the INSERT, COMMIT), round-robin over the rallies as above;
- the service latency runs on that database too (its rallies in another server id).

The database is `url` (`--url`: an existing database holding no rallies yet; the bench writes
its rallies into it), else a fresh one on a throwaway server started from the checkout's
`tests/pg_server.py` and stopped at the end. That server runs with fsync off (nothing in it
needs to survive), so a commit never waits for the disk: both figures are higher than on a
durable server, and their ratio compares the work each commit does, not the disk.

`python3 bench/store.py [--backend postgresql [--url URL]]` (or `python -m bench.store`,
`python -m bot bench store`) prints one JSON line.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import importlib.util
import json
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from bot.store import Store
from bot.store.connection import POSTGRESQL, SQLITE, redact
from bot.store.sqlite import connect, open_sqlite

BACKENDS = (SQLITE, POSTGRESQL)
ROOT = Path(__file__).resolve().parents[1]

DRIVERS = 4
SNAPSHOT_VARIANTS = 64


def realistic_snapshot(rng: random.Random, step: int) -> str:
    """A game state shaped like the engine's JSON (4 cars, chrono piles, dice, deck), about 4 KB."""
    cars = []
    for seat in range(1, DRIVERS + 1):
        pile = [["gear", rng.randint(1, 5), rng.choice((10, 20, 30, 40, 50)), None] for _ in range(14 + step % 5)]
        cars.append({
            "id": str(100000000000000000 + seat * 7919),
            "name": f"Driver {seat}",
            "seat": seat,
            "tires": "asphalt",
            "status": "racing",
            "position": rng.randint(0, 120),
            "pose": "normal",
            "resume": None,
            "arrived": step,
            "pile": pile,
            "lost_black": rng.randint(0, 2),
            "flats": 0,
            "spare": True,
            "sisu": True,
            "seconds": 0,
            "line": rng.choice((None, "inside", "outside")),
            "splits": [[rng.randint(0, 120), rng.randint(60, 400)] for _ in range(3)],
            "finish_rank": None,
            "out_reason": None,
            "last_hazards": rng.randint(0, 3),
        })
    state = {
        "config": {
            "stage": "ridge-and-moor", "ruleset": "classic", "seed": 1234567890123, "modules": {"weather": True}
        },
        "round": 1 + step // DRIVERS,
        "arrival": step,
        "queue": [2, 3, 0],
        "entry": [],
        "cars": cars,
        "dice": {"streams": {name: [rng.getrandbits(32) for _ in range(4)] for name in ("1", "2", "3", "4", "5", "W")}},
        "deck": [rng.choice(("spin", "off_left", "off_right", "nomove")) for _ in range(40)],
        "dirt": {str(c): rng.randint(0, 2) for c in range(20)},
        "turn": {
            "car": step % DRIVERS,
            "gear": 3,
            "used": ["3", "W", "4"],
            "hazards": 1,
            "snow_hazards": 0,
            "whites": 1,
            "whites_asphalt": 1,
            "last_gear_die": 4,
            "sisu_active": False,
            "path": [[rng.randint(0, 120), d, False] for d in ("3", "W", "4")],
        },
    }
    return json.dumps(state, separators=(",", ":"))


def snapshots(seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    return [realistic_snapshot(rng, step) for step in range(SNAPSHOT_VARIANTS)]


RAW_INSERT = "INSERT INTO raw_actions (rally_id, seq, actor, action, snapshot, created_at) VALUES (?, ?, ?, ?, ?, ?)"


def _raw_row(pool: list[str], i: int) -> tuple:
    return (i % 200, i, 100000000000000007, "roll 3", pool[i % len(pool)], "2026-01-01T00:00:00.000000Z")


async def raw_commits(conn, pool: list[str], n: int, start: int) -> float:
    """Baseline: plain aiosqlite INSERT then commit() of a row with the same content; per second.

    With `isolation_level=None` the INSERT commits by itself and `commit()` is a no-op round trip
    to the connection thread: exactly what plain aiosqlite code pays for one committed row.
    """
    began = time.perf_counter()
    for i in range(start, start + n):
        await conn.execute(RAW_INSERT, _raw_row(pool, i))
        await conn.commit()
    return n / (time.perf_counter() - began)


def _thread_insert(conn: sqlite3.Connection, row: tuple) -> None:
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(RAW_INSERT, row)
    conn.execute("COMMIT")


async def raw_commits_thread(thread: ThreadPoolExecutor, conn: sqlite3.Connection, pool: list[str], n: int,
                             start: int) -> float:
    """Baseline: BEGIN IMMEDIATE, INSERT, COMMIT as one call on the connection's own thread; per second."""
    loop = asyncio.get_running_loop()
    began = time.perf_counter()
    for i in range(start, start + n):
        await loop.run_in_executor(thread, _thread_insert, conn, _raw_row(pool, i))
    return n / (time.perf_counter() - began)


async def action_commits(store: Store, versions: dict[int, int], pool: list[str], n: int, start: int) -> float:
    """`append_action` round-robin over the rallies; commits per second."""
    ids = list(versions)
    began = time.perf_counter()
    for i in range(start, start + n):
        rally_id = ids[i % len(ids)]
        versions[rally_id] = await store.append_action(
            rally_id, versions[rally_id], 100000000000000007, "roll 3", pool[i % len(pool)]
        )
    return n / (time.perf_counter() - began)


async def _setup_rallies(store: Store, rallies: int) -> dict[int, int]:
    versions = {}
    for r in range(rallies):
        rally = await store.rallies.create(
            guild_id=1, channel_id=1000 + r, host_id=100, stage="ridge-and-moor", ruleset="classic", seed=r
        )
        for seat in range(DRIVERS):
            await store.drivers.join(rally.id, 100 + seat, f"Driver {seat + 1}")
        versions[rally.id] = rally.version
    return versions


RAW_TABLE = ("CREATE TABLE raw_actions (rally_id INTEGER, seq INTEGER, actor BIGINT, action TEXT, "
             "snapshot TEXT, created_at TEXT)")


async def measure_commits(folder: Path, rallies: int, repeats: int, commits: int) -> tuple[float, float, float]:
    """Median raw (own thread), action and aiosqlite commits per second, runs alternating so all
    see the same machine."""
    pool = snapshots()
    loop = asyncio.get_running_loop()
    thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="raw-sqlite")
    thread_conn = await loop.run_in_executor(thread, open_sqlite, folder / "raw-thread.sqlite3")
    await loop.run_in_executor(thread, thread_conn.execute, RAW_TABLE)
    raw_conn = await connect(folder / "raw.sqlite3")
    try:
        await raw_conn.execute(RAW_TABLE)
        async with Store.open(folder / "store.sqlite3") as store:
            versions = await _setup_rallies(store, rallies)
            await raw_commits_thread(thread, thread_conn, pool, min(commits, 200), 0)  # warm-up, not counted
            await raw_commits(raw_conn, pool, min(commits, 200), 0)
            await action_commits(store, versions, pool, min(commits, 200), 0)
            raw, action, plain = [], [], []
            for rep in range(repeats):
                start = (rep + 1) * commits
                raw.append(await raw_commits_thread(thread, thread_conn, pool, commits, start))
                action.append(await action_commits(store, versions, pool, commits, start))
                plain.append(await raw_commits(raw_conn, pool, commits, start))
    finally:
        await raw_conn.close()
        await loop.run_in_executor(thread, thread_conn.close)
        thread.shutdown()
    return statistics.median(raw), statistics.median(action), statistics.median(plain)


PG_RAW_TABLE = ("CREATE TABLE bench_raw_actions (rally_id BIGINT, seq BIGINT, actor BIGINT, action TEXT, "
                "snapshot TEXT, created_at TEXT)")
PG_RAW_INSERT = ("INSERT INTO bench_raw_actions (rally_id, seq, actor, action, snapshot, created_at) "
                 "VALUES ($1, $2, $3, $4, $5, $6)")


async def raw_commits_pg(conn: Any, pool: list[str], n: int, start: int) -> float:
    """Baseline on PostgreSQL: plain asyncpg, one row with the same content per explicit
    transaction (`async with conn.transaction()`: BEGIN, INSERT, COMMIT); per second."""
    began = time.perf_counter()
    for i in range(start, start + n):
        async with conn.transaction():
            await conn.execute(PG_RAW_INSERT, *_raw_row(pool, i))
    return n / (time.perf_counter() - began)


class BenchError(RuntimeError):
    """The bench cannot run as asked (no PostgreSQL server to run on, a database already in use):
    `python -m bot bench` prints the message and exits 2."""


async def require_no_rallies(store: Store) -> None:
    """Refuse a database that already holds rallies: a bench writes its own into it, and a
    database in use (or an earlier run's) would skew the figures and get bench rallies mixed in."""
    row = await store.db.fetch_one("SELECT COUNT(*) FROM rallies")
    count = int(row[0]) if row else 0
    if count:
        raise BenchError(f"the database {store.path} already holds {count} rallies: "
                         "give the bench an empty database (it writes its own rallies into it)")


async def measure_commits_pg(url: str, rallies: int, repeats: int, commits: int) -> tuple[float, float]:
    """Median raw and action commits per second on one PostgreSQL database, runs alternating."""
    import asyncpg

    pool = snapshots()
    async with Store.open(url) as store:
        await require_no_rallies(store)
        versions = await _setup_rallies(store, rallies)
        raw_conn = await asyncpg.connect(url)
        try:
            await raw_conn.execute(PG_RAW_TABLE)
            try:
                await raw_commits_pg(raw_conn, pool, min(commits, 200), 0)  # warm-up, not counted
                await action_commits(store, versions, pool, min(commits, 200), 0)
                raw, action = [], []
                for rep in range(repeats):
                    raw.append(await raw_commits_pg(raw_conn, pool, commits, (rep + 1) * commits))
                    action.append(await action_commits(store, versions, pool, commits, (rep + 1) * commits))
            finally:
                await raw_conn.execute("DROP TABLE IF EXISTS bench_raw_actions")
        finally:
            await raw_conn.close()
    return statistics.median(raw), statistics.median(action)


def _pg_server_module() -> Any:
    """The checkout's tests/pg_server.py (`PgServer`), loaded from its file: `tests` is no package."""
    path = ROOT / "tests" / "pg_server.py"
    if not path.is_file():
        raise BenchError(f"{path} is not in this checkout, so no throwaway PostgreSQL server can be "
                         "started: give the bench an empty database with --url postgresql://…")
    name = "rallybot_bench_pg_server"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


async def _reachable(url: str) -> None:
    """Refuse, saying why, a database the bench cannot connect to (rather than a traceback)."""
    import asyncpg

    try:
        conn = await asyncpg.connect(url, timeout=10)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise BenchError(f"cannot connect to {redact(url)}: {exc}") from exc
    await conn.close()


@contextmanager
def postgres_database(url: str | None) -> Iterator[str]:
    """The PostgreSQL database a bench runs on: `url` as it is, else a fresh database on a
    throwaway server (tests/pg_server.py) started here and stopped when the block ends.
    Never DATABASE_URL or RALLYBOT_DB: a bench writes rallies, so it only uses what it is given."""
    if url is not None:
        asyncio.run(_reachable(url))
        yield url
        return
    module = _pg_server_module()
    server = module.PgServer()
    try:
        try:
            server.start()
            target = asyncio.run(server.create_database("rallybot_bench"))
        except module.PgServerError as exc:
            raise BenchError(f"{exc} (or give the bench a database with --url postgresql://…)") from exc
        yield target
    finally:
        server.stop()


def check_backend(backend: str, url: str | None) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if url is not None and backend != POSTGRESQL:
        raise ValueError("url: only with backend 'postgresql'")


def service_latency(rallies: int, target: str | None = None) -> dict:
    """Service-call latency with `rallies` rallies played at once (bench/service_latency.py), on
    a temporary SQLite file, or on the database `target`."""
    from bench.service_latency import service_latency as measure

    return measure(rallies, target=target)


def run(rallies: int = 200, *, repeats: int = 5, commits: int = 1000, backend: str = SQLITE,
        url: str | None = None) -> dict:
    """Run the store benchmark; returns the issue-4 JSON record (`backend` 'postgresql': on a
    PostgreSQL database, `url` or a throwaway server's, with `"backend"` in the record)."""
    check_backend(backend, url)
    if backend == POSTGRESQL:
        with postgres_database(url) as target:
            raw, action = asyncio.run(measure_commits_pg(target, rallies, repeats, commits))
            latency = service_latency(rallies, target)
        return {"bench": "store", "backend": POSTGRESQL, **_figures(raw, action, latency, rallies)}
    with tempfile.TemporaryDirectory(prefix="rallybot-bench-") as tmp:
        raw, action, plain = asyncio.run(measure_commits(Path(tmp), rallies, repeats, commits))
    latency = service_latency(rallies)
    return {"bench": "store", **_figures(raw, action, latency, rallies), "aiosqlite_commit_per_s": round(plain, 1)}


def _figures(raw: float, action: float, latency: dict, rallies: int) -> dict:
    return {
        "raw_commit_per_s": round(raw, 1),
        "action_commit_per_s": round(action, 1),
        "commit_ratio": round(action / raw, 3),
        "service_p50_ms": latency["service_p50_ms"],
        "service_p99_ms": latency["service_p99_ms"],
        "rallies": rallies,
        "service_calls": latency["calls"],
        "image_p50_ms": latency["image_p50_ms"],
        "image_p99_ms": latency["image_p99_ms"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="store benchmark: prints one JSON line")
    parser.add_argument("--rallies", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--commits", type=int, default=1000, help="commits per repeat and per kind")
    parser.add_argument("--backend", choices=BACKENDS, default=SQLITE)
    parser.add_argument("--url", help="postgresql: an existing empty database (default: a throwaway server)")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.rallies, repeats=args.repeats, commits=args.commits, backend=args.backend,
                         url=args.url)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
