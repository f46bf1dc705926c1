"""The bot processes sharing one database know about each other (bot/store/shards.py `ShardRegistry`):
a start whose shards overlap a live process's, or whose SHARD_COUNT differs, is refused naming the
other process and changes nothing; a stale record (no heartbeat, a SIGKILLed process) blocks no
restart; on both backends, and two starts at once on PostgreSQL; the bot refuses before it claims
a post or a job."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime, timedelta

import pytest

from bot.client import RallyBot
from bot.config import Settings
from bot.store import Store
from bot.store.outbox import enqueue_tx
from bot.store.shards import STALE_S, ShardConflict, Shards, ranges
from tests.discord.fakes import FakeClock, FakeRenderer

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def rows(store: Store) -> list[tuple]:
    return [(p.shards, p.host, p.pid, p.heartbeat_at) for p in await store.shard_processes.processes()]


def test_shard_ids_are_written_as_the_setting_takes_them():
    assert ranges([3, 0, 1, 2, 6, 8, 9]) == "0-3,6,8-9" and ranges([5]) == "5" and ranges([]) == ""
    assert Shards(4, (0, 1, 3)).text() == "SHARD_COUNT=4, SHARD_IDS=0-1,3"
    assert Shards.everything().text() == "no SHARD_COUNT (every shard)"


@pytest.mark.parametrize(("mine", "other", "why"), [
    (Shards(4, (0, 1)), Shards(4, (1, 2)), "shard 1 in both"),
    (Shards(4, (0, 1, 2)), Shards(4, (1, 2, 3)), "shards 1-2 in both"),
    (Shards(4, (0,)), Shards(2, (1,)), "a different SHARD_COUNT"),
    (Shards(4, (0,)), Shards.everything(), "a different SHARD_COUNT"),
    (Shards.everything(), Shards.everything(), "every shard in both"),
    (Shards(4, (0, 1)), Shards(4, (2, 3)), None),
])
def test_which_shards_clash(mine, other, why):
    found = mine.clash(other)
    assert (found is None) if why is None else (why in found)
    assert (other.clash(mine) is None) == (found is None)


async def test_overlapping_shards_are_refused_naming_the_other_process_and_nothing_changes(store):
    registry = store.shard_processes
    await registry.claim(Shards(4, (0, 1)), "host-a", 100, NOW)
    before = await rows(store)
    with pytest.raises(ShardConflict) as refused:
        await registry.claim(Shards(4, (1, 2)), "host-b", 200, NOW + timedelta(seconds=5))
    text = str(refused.value)
    assert "this process (SHARD_COUNT=4, SHARD_IDS=1-2) cannot start" in text
    assert "process 100 on host-a (SHARD_COUNT=4, SHARD_IDS=0-1;" in text and "shard 1 in both" in text
    assert refused.value.other.pid == 100
    assert await rows(store) == before  # nothing written


async def test_a_different_shard_count_is_refused_and_an_unsharded_process_clashes_with_all(store):
    registry = store.shard_processes
    await registry.claim(Shards(4, (0, 1)), "host-a", 100, NOW)
    with pytest.raises(ShardConflict, match="a different SHARD_COUNT: every process of a bot must use the same"):
        await registry.claim(Shards(8, (6, 7)), "host-b", 200, NOW)
    with pytest.raises(ShardConflict, match=r"this process \(no SHARD_COUNT \(every shard\)\) cannot start"):
        await registry.claim(Shards.everything(), "host-b", 200, NOW)
    assert len(await rows(store)) == 1


async def test_disjoint_shards_run_side_by_side_and_each_stop_removes_its_record(store):
    registry = store.shard_processes
    first = await registry.claim(Shards(4, (0, 1)), "host-a", 100, NOW)
    second = await registry.claim(Shards(4, (2, 3)), "host-a", 101, NOW)
    assert [r[0] for r in await rows(store)] == [Shards(4, (0, 1)), Shards(4, (2, 3))]
    await registry.release(first)
    assert [r[2] for r in await rows(store)] == [101]
    await registry.release(second)
    assert await rows(store) == []


async def test_a_stale_record_blocks_no_restart_and_is_removed(store):
    registry = store.shard_processes
    killed = await registry.claim(Shards(4, (0, 1)), "host-a", 100, NOW)  # SIGKILLed: never released
    alive = await registry.claim(Shards(4, (2,)), "host-a", 101, NOW)
    later = NOW + timedelta(seconds=STALE_S - 1)
    assert await registry.heartbeat(alive, later)
    with pytest.raises(ShardConflict):  # not stale yet: still counts
        await registry.claim(Shards(4, (0, 1)), "host-a", 102, later)
    restart = NOW + timedelta(seconds=STALE_S + 1)
    again = await registry.claim(Shards(4, (0, 1)), "host-a", 102, restart)
    assert sorted(r[2] for r in await rows(store)) == [101, 102]  # the dead one's record is gone
    assert not await registry.heartbeat(killed, restart)  # were it only frozen, it learns it must stop
    assert await registry.heartbeat(again, restart)
    with pytest.raises(ShardConflict, match="process 101 on host-a"):  # the live one still counts
        await registry.claim(Shards(4, (2, 3)), "host-b", 5, restart)


async def test_the_same_process_starting_again_replaces_its_own_record(store):
    registry = store.shard_processes
    await registry.claim(Shards(4, (0,)), "host-a", 100, NOW)
    await registry.claim(Shards(4, (0,)), "host-a", 100, NOW + timedelta(seconds=1))
    assert len(await rows(store)) == 1


async def test_two_processes_starting_at_once_on_the_same_shards_one_is_refused(pg_url):
    async with Store.open(pg_url) as a, Store.open(pg_url) as b:
        results = await asyncio.gather(a.shard_processes.claim(Shards(2, (0, 1)), "host-a", 1, NOW),
                                        b.shard_processes.claim(Shards(2, (1,)), "host-b", 2, NOW),
                                        return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["ShardConflict", "int"]
        assert len(await a.shard_processes.processes()) == 1


# -- the bot at start ---------------------------------------------------------------------------------

def make_bot(db, shards: Shards) -> RallyBot:
    return RallyBot(Settings(db=db, shards=shards), clock=FakeClock(NOW), renderer=FakeRenderer(),
                    seed_source=lambda: 42, start_loops=True, sync=False, extensions=())


async def test_the_bot_refuses_to_start_beside_a_live_process_before_claiming_a_post(db_target):
    async with Store.open(db_target) as store:
        await store.shard_processes.claim(Shards(4, (0, 1)), "elsewhere", 4242, NOW)

        async def owe(tx):
            await enqueue_tx(tx, guild_id=1 << 22, channel_id=77, kind="text", body={"content": "hello"}, now=NOW)

        await store.db.write(owe)
    bot = make_bot(db_target, Shards(4, (1, 2)))
    try:
        await bot._async_setup_hook()
        with pytest.raises(ShardConflict, match="process 4242 on elsewhere"):
            await bot.setup_hook()
        assert bot.shard_record is None and not bot.scheduler.loop.is_running()
        leased = await bot.store.db.fetch_all("SELECT locked_until, attempts FROM outbox")
        assert [tuple(r) for r in leased] == [(None, 0)]  # the post owed is untouched
        assert [p.pid for p in await bot.store.shard_processes.processes()] == [4242]
    finally:
        await bot.close()


async def test_the_bot_records_its_shards_while_it_runs_and_removes_them_at_close(db_target):
    bot = make_bot(db_target, Shards(4, (2, 3)))
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        mine = await bot.store.shard_processes.processes()
        assert [(p.shards, p.pid) for p in mine] == [(Shards(4, (2, 3)), os.getpid())]
    finally:
        await bot.close()
    async with Store.open(db_target) as store:
        assert await store.shard_processes.processes() == []


async def test_a_bot_whose_record_was_removed_as_stale_stops(db_target, monkeypatch):
    monkeypatch.setattr("bot.client.HEARTBEAT_S", 0.01)
    bot = make_bot(db_target, Shards(4, (0,)))
    try:
        await bot._async_setup_hook()
        await bot.setup_hook()
        assert bot.shard_record is not None
        await bot.store.shard_processes.release(bot.shard_record)  # another start found it stale
        for _ in range(200):
            if bot.stopping is not None:
                break
            await asyncio.sleep(0.01)
        assert bot.stopping is not None
        await bot.stopping
        assert bot.is_closed() and bot.shard_record is None
    finally:
        await bot.close()


def test_python_m_bot_run_says_the_conflict_in_one_line_and_exits_2(tmp_path, monkeypatch, capsys):
    from bot.cli import run as run_cli
    from bot.store.shards import ShardProcess

    other = ShardProcess(1, Shards(4, (0, 1)), "elsewhere", 4242, "2026-05-01T12:00:00.000000Z",
                         "2026-05-01T12:00:00.000000Z")

    async def refused(settings):
        raise ShardConflict(settings.shards, other, Shards(4, (1,)).clash(other.shards))

    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RALLYBOT_DB", str(tmp_path / "bot.sqlite3"))
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1")
    monkeypatch.setattr(run_cli, "serve", refused)
    assert run_cli.main(None) == 2
    err = capsys.readouterr().err
    assert err.startswith("Configuration error: this process (SHARD_COUNT=4, SHARD_IDS=1) cannot start: "
                          "process 4242 on elsewhere") and "Traceback" not in err
