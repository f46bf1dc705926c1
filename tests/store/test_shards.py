"""Discord shards: which servers a process serves (`Shards`, SHARD_COUNT/SHARD_IDS), the claims of
jobs and posts kept to them on both backends, two claimers at once on PostgreSQL, and the bot's
own shard settings."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.client import RallyBot
from bot.config import ConfigError, Settings, shards_from
from bot.store import Store
from bot.store.jobs import schedule_tx
from bot.store.outbox import enqueue_tx
from bot.store.shards import Shards
from tests.discord.fakes import FakeClock, FakeRenderer

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
# A real server id's top bits (its creation time) and low bits; `>> 22` gives BASE + 4k + shard.
BASE = (1_180_000_000_000_000_000 >> 22) // 4 * 4


def guild(shard: int, k: int = 0, *, small: bool = False) -> int:
    """A server id Discord puts on `shard` of 4 (small: just `shard << 22`)."""
    if small:
        return shard << 22
    return ((BASE + 4 * k + shard) << 22) | 0x1F2A


# -- Shards ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("count, ids, needle", [
    (4, (4,), "shard ids must be from 0 to 3, got 4"),
    (4, (1, -1, 7), "shard ids must be from 0 to 3, got -1, 7"),
    (0, (1,), "shard ids need a shard count"),
    (4, (), "name at least one shard id"),
    (-1, (0,), "the shard count must be from 1 to"),
    (10_001, (0,), "the shard count must be from 1 to 10000"),
])
def test_impossible_shard_settings_are_refused(count, ids, needle):
    with pytest.raises(ValueError) as refused:
        Shards(count, ids)
    assert needle in str(refused.value)


def test_a_process_owns_its_shards_servers_and_shard_zero_the_world():
    odd = Shards(4, (1, 3))
    for shard in range(4):
        for k in range(3):
            assert odd.shard_of(guild(shard, k)) == shard
            assert odd.owns(guild(shard, k)) == (shard in (1, 3))
        assert odd.owns(guild(shard, small=True)) == (shard in (1, 3))
    assert odd.owns(guild(5, small=True))  # 5 % 4 == 1
    assert not odd.owns(None) and Shards(4, (0,)).owns(None) and Shards(4, (0, 2)).owns(None)
    assert not odd.all and Shards(2, (1, 0)).all and Shards(2, (0, 1, 1)).all


def test_without_sharding_a_process_owns_everything():
    everything = Shards.everything()
    assert everything == Shards() and everything.all and everything.count == 0
    assert all(everything.owns(g) for g in (None, 0, guild(1), guild(3, 9), 2**63 - 1))
    assert everything.where("guild_id") == "1 = 1"
    assert Shards(1, (0,)).owns(guild(3)) and Shards(1, (0,)).owns(None)


# -- settings ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("env, expected", [
    ({}, Shards.everything()),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0,2"}, Shards(4, (0, 2))),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "1-3"}, Shards(4, (1, 2, 3))),
    ({"SHARD_COUNT": "8", "SHARD_IDS": " 0, 2-3 ,7"}, Shards(8, (0, 2, 3, 7))),
    ({"SHARD_COUNT": "3"}, Shards(3, (0, 1, 2))),
    ({"SHARD_COUNT": " ", "SHARD_IDS": ""}, Shards.everything()),
])
def test_shards_from_the_environment(env, expected):
    assert shards_from(env) == expected
    assert Settings.from_env({**env, "RALLYBOT_DB": "x.sqlite3"}).shards == expected


@pytest.mark.parametrize("env, needle", [
    ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"SHARD_COUNT": "four"}, "SHARD_COUNT must be a whole number of shards, at least 1, not 'four'"),
    ({"SHARD_COUNT": "0", "SHARD_IDS": "0"}, "SHARD_COUNT must be a whole number of shards, at least 1, not '0'"),
    ({"SHARD_COUNT": "-2"}, "SHARD_COUNT must be a whole number"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "a,b"}, "SHARD_IDS must be shard numbers like `0,1` or `0-3`, not 'a,b'"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "1-"}, "SHARD_IDS must be shard numbers like"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "1,,2"}, "SHARD_IDS must be shard numbers like"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "2,4"}, "SHARD_IDS: shard ids must be from 0 to 3, got 4."),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "SHARD_IDS must count up"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0,3-1"}, "SHARD_IDS must count up"),
])
def test_bad_shard_settings_name_the_variable(env, needle):
    with pytest.raises(ConfigError) as refused:
        shards_from(env)
    assert needle in str(refused.value)
    with pytest.raises(ConfigError):
        Settings.from_env(env)


def test_database_url_selects_postgresql_unless_rallybot_db_is_set(tmp_path):
    url = "postgresql://bot:secret@db.example:5432/rally"
    assert Settings.from_env({"DATABASE_URL": url}).db == url
    assert Settings.from_env({"DATABASE_URL": " postgres://h/d "}).db == "postgres://h/d"
    path = tmp_path / "a.sqlite3"
    assert Settings.from_env({"DATABASE_URL": url, "RALLYBOT_DB": str(path)}).db == path
    other = "postgresql://other/db"
    assert Settings.from_env({"DATABASE_URL": url, "RALLYBOT_DB": other}).db == other
    for wrong in ("sqlite:///data/x.sqlite3", "data/x.sqlite3", "mysql://h/d"):
        with pytest.raises(ConfigError) as refused:
            Settings.from_env({"DATABASE_URL": wrong})
        assert "DATABASE_URL must be a postgresql:// URL" in str(refused.value)
        assert "RALLYBOT_DB" in str(refused.value)


# -- claims kept to a process's shards, on both backends ---------------------------------------------

WORLD = None


async def schedule_jobs(store: Store, guilds: list[int | None], due: datetime = NOW - timedelta(minutes=1)) -> dict:
    """One due job per entry of `guilds`; returns {job id: guild}."""

    async def body(tx):
        return {(await schedule_tx(tx, "test", f"job:{n}", due, guild_id=g)).id: g for n, g in enumerate(guilds)}

    return await store.db.write(body)


def every_shard_and_the_world() -> list[int | None]:
    return [guild(s, k, small=(k == 0)) for s in range(4) for k in range(2)] + [WORLD]


async def test_jobs_are_claimed_only_by_the_process_of_their_shard(store):
    jobs = await schedule_jobs(store, every_shard_and_the_world())
    later = await schedule_jobs(store, [guild(1, 5)], due=NOW + timedelta(hours=1))  # not due: never claimed

    one = await store.jobs.claim_due(NOW, shards=Shards(4, (1,)))
    assert {j.id for j in one} == {i for i, g in jobs.items() if g is not None and g >> 22 & 3 == 1}
    assert len(one) == 2 and all(j.guild_id is not None and Shards(4, (1,)).owns(j.guild_id) for j in one)

    zero = await store.jobs.claim_due(NOW, shards=Shards(4, (0,)))
    assert {j.guild_id for j in zero} == {guild(0, 0, small=True), guild(0, 1), WORLD}

    rest = await store.jobs.claim_due(NOW, shards=Shards(4, (2, 3)))
    assert {j.guild_id for j in rest} == {guild(s, k, small=(k == 0)) for s in (2, 3) for k in range(2)}
    claimed = [j.id for j in one + zero + rest]
    assert sorted(claimed) == sorted(jobs) and len(set(claimed)) == len(claimed)
    assert await store.jobs.claim_due(NOW) == []  # all leased now
    assert [j.id for j in await store.jobs.pending()][-1] in later


async def test_without_sharding_every_job_is_claimed(store):
    jobs = await schedule_jobs(store, every_shard_and_the_world())
    assert {j.id for j in await store.jobs.claim_due(NOW, shards=Shards.everything())} == set(jobs)


async def test_a_process_of_other_shards_claims_nothing_and_changes_nothing(store):
    await schedule_jobs(store, [guild(1), guild(1, 3), WORLD])
    before = [j.as_dict() for j in await store.jobs.pending()]
    assert await store.jobs.claim_due(NOW, shards=Shards(4, (2, 3))) == []
    assert [j.as_dict() for j in await store.jobs.pending()] == before


async def enqueue(store: Store, rows: list[tuple[int, int]]) -> list[int]:
    """Owed posts: one per (guild, channel), in order; returns their ids."""

    async def body(tx):
        return [await enqueue_tx(tx, guild_id=g, channel_id=c, kind="note", body={"lines": []}, now=NOW)
                for g, c in rows]

    return await store.db.write(body)


async def test_posts_are_claimed_only_by_the_process_of_their_shard(store):
    rows = []
    for s in range(4):
        for k in range(2):
            rows += [(guild(s, k), 1000 * s + 10 * k + lane) for lane in range(2) for _ in range(2)]
    ids = dict(zip(await enqueue(store, rows), rows))
    heads = {}
    for i, (g, c) in sorted(ids.items()):
        heads.setdefault(c, i)

    one = await store.outbox.claim(NOW, shards=Shards(4, (1,)))
    assert {r.id for r in one} == {i for c, i in heads.items() if c // 1000 == 1}
    assert len(one) == 4 and {r.guild_id for r in one} == {guild(1, 0), guild(1, 1)}
    zero_two = await store.outbox.claim(NOW, shards=Shards(4, (0, 2)))
    assert {r.id for r in zero_two} == {i for c, i in heads.items() if c // 1000 in (0, 2)}
    assert await store.outbox.claim(NOW, shards=Shards(4, (1,))) == []  # its heads are leased, the rest wait
    three = await store.outbox.claim(NOW, shards=Shards(4, (3,)))
    assert sorted(r.id for r in one + zero_two + three) == sorted(heads.values())


# -- two processes claiming at once (PostgreSQL) ----------------------------------------------------

async def test_two_processes_claiming_jobs_at_once_never_share_one(pg_url):
    async with Store.open(pg_url) as a, Store.open(pg_url) as b:
        jobs = await schedule_jobs(a, [guild(s % 4, s) for s in range(300)] + [WORLD] * 20)

        async def claimer(store: Store) -> list[int]:
            got: list[int] = []
            while batch := await store.jobs.claim_due(NOW, limit=7, shards=Shards.everything()):
                got += [j.id for j in batch]
            return got

        first, second = await asyncio.gather(claimer(a), claimer(b))
        assert not set(first) & set(second)
        assert sorted(first + second) == sorted(jobs)
        attempts = {r[0]: r[1] for r in await a.db.fetch_all("SELECT id, attempts FROM jobs")}
        assert set(attempts.values()) == {1}, "a job was leased twice"


async def test_two_processes_of_different_shards_claiming_at_once_keep_to_their_own(pg_url):
    async with Store.open(pg_url) as a, Store.open(pg_url) as b:
        jobs = await schedule_jobs(a, [guild(s % 4, s) for s in range(200)] + [WORLD] * 10)
        mine, theirs = Shards(4, (0, 1)), Shards(4, (2, 3))

        async def claimer(store: Store, shards: Shards) -> list:
            got: list = []
            while batch := await store.jobs.claim_due(NOW, limit=9, shards=shards):
                got += batch
            return got

        first, second = await asyncio.gather(claimer(a, mine), claimer(b, theirs))
        assert all(mine.owns(j.guild_id) for j in first) and all(theirs.owns(j.guild_id) for j in second)
        assert sorted(j.id for j in first + second) == sorted(jobs)


async def test_two_processes_claiming_posts_at_once_take_each_lane_head_once(pg_url):
    async with Store.open(pg_url) as a, Store.open(pg_url) as b:
        rows = [(guild(lane % 4, lane), 5000 + lane) for lane in range(60) for _ in range(3)]
        ids = await enqueue(a, rows)
        heads = {}
        for i, (_, channel) in zip(ids, rows):
            heads.setdefault(channel, i)

        async def claimer(store: Store) -> list[int]:
            got: list[int] = []
            while batch := await store.outbox.claim(NOW, limit=5):
                got += [r.id for r in batch]
            return got

        first, second = await asyncio.gather(claimer(a), claimer(b))
        assert not set(first) & set(second)
        assert sorted(first + second) == sorted(heads.values())
        attempts = {r[0]: r[1] for r in await a.db.fetch_all("SELECT id, attempts FROM outbox")}
        assert {i for i, n in attempts.items() if n} == set(heads.values())
        assert set(attempts.values()) == {0, 1}


# -- the bot ----------------------------------------------------------------------------------------------

def make_bot(settings: Settings) -> RallyBot:
    return RallyBot(settings, clock=FakeClock(NOW), renderer=FakeRenderer(), seed_source=lambda: 42,
                    start_loops=False, sync=False, extensions=())


async def test_the_bot_connects_its_shards_and_claims_only_their_posts(tmp_path):
    shards = Shards(4, (1, 3))
    bot = make_bot(Settings(db=tmp_path / "bot.sqlite3", shards=shards))
    try:
        await bot._async_setup_hook()  # what login() does first
        assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
        await bot.open_services()
        assert bot.rallies.work.shards == shards
        assert bot.deadlines.work.shards == shards and bot.rallies.delivery.work.shards == shards
        await enqueue(bot.store, [(guild(s), 100 + s) for s in range(4)])
        claimed = await bot.rallies.delivery.claim()
        assert sorted(out.row.channel_id for out in claimed) == [101, 103]
    finally:
        await bot.close()


async def test_an_unsharded_bot_lets_discord_choose_and_serves_everything(tmp_path):
    bot = make_bot(Settings(db=tmp_path / "bot.sqlite3"))
    try:
        await bot._async_setup_hook()
        assert bot.shard_count is None and bot.shard_ids is None
        await bot.open_services()
        assert bot.rallies.work.shards == Shards.everything()
    finally:
        await bot.close()
