"""`python -m bot db stats`: the bot processes on the database and, per shard, the posts owed and the
jobs' lag, on both backends (what a host watches when it grows: docs/hosting.md)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.__main__ import main
from bot.store import Store
from bot.store.clock import utc_now
from bot.store.jobs import schedule_tx
from bot.store.outbox import enqueue_tx
from bot.store.shards import STALE_S, Shards, shard_loads


def on(shard: int, count: int = 2, k: int = 1) -> int:
    """A server id Discord puts on `shard` of `count`."""
    return ((k * count + shard) << 22) | 7


async def fill(target) -> None:
    now = utc_now()
    async with Store.open(target) as store:
        async def owe(tx):
            for shard, age in ((0, 30), (0, 5), (1, 90)):
                await enqueue_tx(tx, guild_id=on(shard), channel_id=100 + shard, kind="text",
                                 body={"content": "x"}, now=now - timedelta(seconds=age))
            await schedule_tx(tx, "turn_deadline", "a", now - timedelta(seconds=60), guild_id=on(1))
            await schedule_tx(tx, "world_week", "w", now - timedelta(seconds=10), guild_id=None)  # shard 0's
            await schedule_tx(tx, "turn_deadline", "b", now + timedelta(hours=1), guild_id=on(1))

        await store.db.write(owe)
        await store.shard_processes.claim(Shards(2, (0,)), "host-a", 11, now)
        await store.shard_processes.claim(Shards(2, (1,)), "host-b", 12, now - timedelta(seconds=STALE_S + 60))


def test_db_stats_shows_the_processes_and_each_shards_queue_and_lag(db_target, capsys):
    asyncio.run(fill(db_target))
    assert main(["db", "stats", "--db", str(db_target)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "bot processes: 1 running, 1 stale (no heartbeat for 120 s)"
    assert out[2].startswith("  running: process 11 on host-a (SHARD_COUNT=2, SHARD_IDS=0)")
    assert out[3].startswith("  stale: process 12 on host-b (SHARD_COUNT=2, SHARD_IDS=1)")
    table = {line.split()[0]: line.split() for line in out[5:]}
    assert set(table) == {"0", "1"}  # the running processes' SHARD_COUNT
    assert table["0"][1] == "2" and table["0"][4] == "1" and table["0"][7] == "0"  # 2 owed, 1 due (the world's)
    assert table["1"][1] == "1" and table["1"][4] == "1" and table["1"][7] == "1"
    assert 88 <= int(table["1"][2]) <= 120 and 58 <= int(table["1"][5]) <= 90  # oldest owed, job lag (s)
    assert main(["db", "stats", "--db", str(db_target), "--shard-count", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[:2] == ["all", "3"]


def test_shard_loads_count_every_row_once_whatever_the_count(db_target):
    async def loads(count: int):
        async with Store.open(db_target) as store:
            return await shard_loads(store.db, count, utc_now())

    asyncio.run(fill(db_target))
    for count in (0, 1, 2, 5):
        found = asyncio.run(loads(count))
        assert len(found) == max(count, 1)
        assert sum(f.owed_posts for f in found) == 3 and sum(f.due_jobs for f in found) == 2
        assert sum(f.later_jobs for f in found) == 1


def test_db_stats_refuses_a_negative_shard_count(tmp_path, capsys):
    path = tmp_path / "db.sqlite3"
    assert main(["db", "migrate", "--db", str(path)]) == 0
    assert main(["db", "stats", "--db", str(path), "--shard-count", "-1"]) == 2
    assert "--shard-count must be 0" in capsys.readouterr().err
