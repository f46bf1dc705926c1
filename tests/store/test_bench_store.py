"""bench/store.py returns the issue-4 record, on SQLite and on PostgreSQL (smoke tests on tiny runs; no timing
assertions)."""

from __future__ import annotations

import asyncio

import pytest

from bench.store import BenchError, realistic_snapshot, run, snapshots
from bot.store import Store

RECORD = [  # the SQLite run's keys, in order
    "bench", "raw_commit_per_s", "action_commit_per_s", "commit_ratio", "service_p50_ms", "service_p99_ms",
    "rallies", "service_calls", "image_p50_ms", "image_p99_ms",
]


def test_run_returns_the_issue_4_record():
    record = run(rallies=3, repeats=1, commits=20)
    assert list(record)[:7] == [
        "bench", "raw_commit_per_s", "action_commit_per_s", "commit_ratio",
        "service_p50_ms", "service_p99_ms", "rallies",
    ]
    assert list(record) == [*RECORD, "aiosqlite_commit_per_s"]  # no "backend"; aiosqlite for information
    assert record["bench"] == "store" and record["rallies"] == 3
    assert record["raw_commit_per_s"] > 0 and record["action_commit_per_s"] > 0 and record["commit_ratio"] > 0
    assert 0 < record["service_p50_ms"] <= record["service_p99_ms"]
    assert record["service_calls"] > 0  # three rallies really played through the services


def test_snapshots_are_realistic_size():
    sizes = [len(s) for s in snapshots()]
    assert 3000 <= sum(sizes) / len(sizes) <= 5000
    assert realistic_snapshot.__doc__


async def test_postgresql_run_returns_the_same_record_with_its_backend(pg_url):
    """`--backend postgresql`: raw asyncpg commits and the store's on one database, the service calls there too."""
    record = await asyncio.to_thread(run, rallies=3, repeats=1, commits=20, backend="postgresql", url=pg_url)
    assert list(record) == ["bench", "backend", *RECORD[1:]]
    assert record["bench"] == "store" and record["backend"] == "postgresql" and record["rallies"] == 3
    assert record["raw_commit_per_s"] > 0 and record["action_commit_per_s"] > 0 and record["commit_ratio"] > 0
    assert 0 < record["service_p50_ms"] <= record["service_p99_ms"]
    assert record["service_calls"] > 0  # three rallies really played through the services, on PostgreSQL
    async with Store.open(pg_url) as store:  # the baseline's table is the bench's own: gone again
        assert await store.db.fetch_one("SELECT to_regclass('bench_raw_actions')") == (None,)
        assert await store.actions.count() > 3 * 20


async def test_postgresql_run_refuses_a_database_that_holds_rallies(pg_url):
    async with Store.open(pg_url) as store:
        await store.rallies.create(guild_id=1, channel_id=5, host_id=1, stage="ridge-and-moor", ruleset="classic",
                                   seed=1)
    with pytest.raises(BenchError, match="already holds 1 rallies"):
        await asyncio.to_thread(run, rallies=3, repeats=1, commits=20, backend="postgresql", url=pg_url)


def test_postgresql_run_refuses_a_database_it_cannot_reach():
    with pytest.raises(BenchError, match=r"cannot connect to postgresql://bench:\*\*\*@127\.0\.0\.1:1/none"):
        run(rallies=3, repeats=1, commits=20, backend="postgresql", url="postgresql://bench:secret@127.0.0.1:1/none")
