"""Migration 12, on both backends: world rounds are unique by (game, week) and
official runs by (game, week, driver); the rows written before are classic's and keep their week."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import Store
from bot.store.leagues import Duplicate, add_round_tx, official_run_tx, start_run_tx, world_round_tx
from bot.store.migrations import MIGRATIONS
from bot.store.world_by_game import STEP

WEEK = "2026-W48"
NOW = datetime(2026, 11, 23, 10, tzinfo=UTC)
T0 = "2026-11-23T10:00:00.000000Z"
T1 = "2026-11-30T00:00:00.000000Z"


async def _schema_11(target) -> int:
    """A database of the previous schema with classic's world round of WEEK and one official run."""
    async with Store.open(target, migrations=MIGRATIONS[:STEP - 1]) as old:
        async def body(tx):
            rnd = await tx.fetch_one(
                "INSERT INTO rounds (league_id, number, specials, assistance, week, opens_at, closes_at, seed, "
                "seed_hash, dice, ruleset, created_at) VALUES (NULL, 48, '[\"gen-1-30\"]', '[true]', ?, ?, ?, 'ab', "
                "'cd', 'personal', 'classic', ?) RETURNING id", (WEEK, T0, T1, T0))
            await tx.execute("INSERT INTO runs (round_id, user_id, display_name, guild_id, week, status, score, "
                             "started_at) VALUES (?, 7, 'Ann', 1, ?, 'finished', 150, ?)", (rnd[0], WEEK, T0))
            return int(rnd[0])

        return await old.db.write(body)


def _world(game: str):
    return dict(league_id=None, specials=["s"], assistance=[True], power_stage=False, week=WEEK, opens_at=NOW,
                closes_at=NOW.replace(day=30), seed="ef", seed_hash="01", dice="personal", ruleset="r", modules={},
                created_by=None, now=NOW, number=48, game=game)


async def test_the_classic_week_survives_and_another_game_gets_its_own_world_round(db_target):
    classic_id = await _schema_11(db_target)
    async with Store.open(db_target) as store:
        assert await store.schema_version() == len(MIGRATIONS) >= STEP
        found = await store.db.read(lambda tx: world_round_tx(tx, WEEK))
        assert (found.id, found.game, found.specials) == (classic_id, "rallyman", ["gen-1-30"])
        run = await store.db.read(lambda tx: official_run_tx(tx, WEEK, 7))
        assert (run.game, run.score) == ("rallyman", 150)

        toy = await store.db.write(lambda tx: add_round_tx(tx, **_world("dicedash")))
        assert toy.id != classic_id
        assert (await store.db.read(lambda tx: world_round_tx(tx, WEEK, "dicedash"))).id == toy.id
        with pytest.raises(Duplicate):  # still one world round per game and week
            await store.db.write(lambda tx: add_round_tx(tx, **_world("rallyman")))

        # the same driver's official run of the week in the other game: allowed once, then refused
        async def toy_run(tx):
            return await start_run_tx(tx, round_id=toy.id, user_id=7, display_name="Ann", guild_id=1, guild_name="",
                                      rally_id=None, thread_id=None, week=WEEK, now=NOW)

        second = await store.db.write(toy_run)
        assert second.game == "dicedash"
        assert await store.db.read(lambda tx: official_run_tx(tx, WEEK, 7, "dicedash")) == second
        with pytest.raises(Duplicate):
            await store.db.write(toy_run)
        assert len(await store.db.fetch_all("SELECT id FROM runs")) == 2
        assert await store.db.integrity_check() == []
