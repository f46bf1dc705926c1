"""Migration 11, on both backends: every rally, league, round and run is in a
game (classic for every row written before), results are a score with its unit (the seconds they
were, unit 's'), and the seats a rally takes are bounded by its game, not by the schema."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.store.game_columns import STEP
from bot.store.migrations import MIGRATIONS

T0 = "2026-01-05T10:00:00.000000Z"
T1 = "2026-01-05T11:00:00.000000Z"


async def _old_database(target) -> dict[str, int]:
    """A schema-10 database with a rally of four seats and its drivers, a league with a round,
    a finished run, a DNF run, and the round's stored results."""
    async with Store.open(target, migrations=MIGRATIONS[:STEP - 1]) as old:
        async def body(tx):
            rally = await tx.fetch_one(
                "INSERT INTO rallies (guild_id, channel_id, host_id, stage, ruleset, seed, max_drivers, created_at, "
                "updated_at) VALUES (1, 2, 3, 's', 'classic', 1, 4, ?, ?) RETURNING id", (T0, T0))
            await tx.execute_many(
                "INSERT INTO drivers (rally_id, user_id, display_name, seat, joined_at) VALUES (?, ?, ?, ?, ?)",
                [(rally[0], 100 + seat, f"D{seat}", seat, T0) for seat in (1, 2, 3, 4)])
            league = await tx.fetch_one(
                "INSERT INTO leagues (guild_id, name, name_key, channel_id, timezone, points, ruleset, modules, dice, "
                "language, created_by, created_at) VALUES (1, 'Cup', 'cup', 5, 'UTC', '[25]', 'classic', '{}', "
                "'personal', 'en', 3, ?) RETURNING id", (T0,))
            rnd = await tx.fetch_one(
                "INSERT INTO rounds (league_id, number, specials, assistance, opens_at, closes_at, status, seed, "
                "seed_hash, dice, ruleset, created_at) VALUES (?, 1, '[\"s\"]', '[false]', ?, ?, 'closed', 'ab', "
                "'cd', 'personal', 'classic', ?) RETURNING id", (league[0], T0, T1, T0))
            await tx.execute_many(
                "INSERT INTO runs (round_id, user_id, display_name, guild_id, rally_id, status, time_s, power_s, "
                "reason, started_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
                [(rnd[0], 101, "D1", rally[0], "finished", 754, 120, None, T0),
                 (rnd[0], 102, "D2", None, "dnf", None, None, "knocked_out", T0)])
            await tx.execute_many(
                "INSERT INTO round_results (round_id, league_id, user_id, display_name, position, time_s, penalty_s, "
                "status, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(rnd[0], league[0], 101, "D1", 1, 764, 10, "classified", 25),
                 (rnd[0], league[0], 102, "D2", None, None, 0, "dnf", 0)])
            return {"rally": int(rally[0]), "league": int(league[0]), "round": int(rnd[0])}

        return await old.db.write(body)


async def test_old_rows_are_classic_and_their_seconds_become_scores_in_seconds(db_target):
    ids = await _old_database(db_target)
    async with Store.open(db_target) as store:
        assert await store.schema_version() == len(MIGRATIONS) >= STEP
        db = store.db
        assert [tuple(r) for r in await db.fetch_all("SELECT id, game, max_drivers FROM rallies")] == [
            (ids["rally"], "rallyman", 4)]
        assert [tuple(r) for r in await db.fetch_all("SELECT user_id, seat FROM drivers ORDER BY seat")] == [
            (101, 1), (102, 2), (103, 3), (104, 4)]  # nothing lost with the rallies' new CHECK
        assert [r[0] for r in await db.fetch_all("SELECT game FROM leagues")] == ["rallyman"]
        assert [r[0] for r in await db.fetch_all("SELECT game FROM rounds")] == ["rallyman"]
        assert [tuple(r) for r in await db.fetch_all(
            "SELECT user_id, game, status, score, score_unit, power_s, reason FROM runs ORDER BY user_id")] == [
            (101, "rallyman", "finished", 754, "s", 120, None),
            (102, "rallyman", "dnf", None, "s", None, "knocked_out")]
        assert [tuple(r) for r in await db.fetch_all(
            "SELECT user_id, position, score, score_unit, penalty_s FROM round_results ORDER BY user_id")] == [
            (101, 1, 764, "s", 10), (102, None, None, "s", 0)]
        for table in ("runs", "round_results"):
            assert "time_s" not in await db.read(lambda tx, t=table: tx.columns(t))
        assert await db.integrity_check() == []


async def test_after_the_migration_seats_are_the_games_to_bound_not_the_schemas(db_target):
    await _old_database(db_target)
    async with Store.open(db_target) as store:
        six = await store.rallies.create(guild_id=1, channel_id=9, host_id=3, stage="s", ruleset="classic", seed=1,
                                         max_drivers=6, game="some-six-seat-game")
        assert (six.max_drivers, six.game) == (6, "some-six-seat-game")
        before = await store.db.fetch_all("SELECT id, max_drivers FROM rallies ORDER BY id")
        with pytest.raises(Exception):  # noqa: B017 - each backend's own CHECK violation
            await store.db.write(lambda tx: tx.execute(
                "INSERT INTO rallies (guild_id, channel_id, host_id, stage, ruleset, seed, max_drivers, created_at, "
                "updated_at) VALUES (1, 10, 3, 's', 'classic', 1, 0, ?, ?)", (T0, T0)))
        assert await store.db.fetch_all("SELECT id, max_drivers FROM rallies ORDER BY id") == before


async def test_a_score_unit_other_than_seconds_or_points_is_refused(db_target):
    ids = await _old_database(db_target)
    async with Store.open(db_target) as store:
        with pytest.raises(Exception):  # noqa: B017 - each backend's own CHECK violation
            await store.db.write(lambda tx: tx.execute(
                "UPDATE round_results SET score_unit = 'min' WHERE round_id = ?", (ids["round"],)))
        assert {r[0] for r in await store.db.fetch_all("SELECT score_unit FROM round_results")} == {"s"}


async def test_rankings_go_the_games_way_lower_seconds_or_higher_points(store):
    from datetime import UTC, datetime

    from bot.engine.core.game import POINTS, SECONDS
    from bot.store.leagues import (
        add_round_tx,
        faster_runs_tx,
        tied_before_tx,
        world_around_tx,
        world_rank_tx,
        world_top_tx,
    )

    now = datetime(2026, 1, 5, 10, tzinfo=UTC)
    week = "2026-W02"
    scores = [50, 80, 65, 80, 20, 95]  # run ids 1..6

    async def body(tx):
        rnd = await add_round_tx(tx, league_id=None, specials=["s"], assistance=[True], power_stage=False, week=week,
                                 opens_at=now, closes_at=now.replace(hour=20), seed="ab", seed_hash="cd",
                                 dice="personal", ruleset="classic", modules={}, created_by=None, now=now,
                                 number=1, game="some-points-game")
        await tx.execute_many(
            "INSERT INTO runs (round_id, user_id, display_name, guild_id, week, status, score, score_unit, game, "
            "started_at) VALUES (?, ?, ?, 1, ?, 'finished', ?, 'vp', 'some-points-game', ?)",
            [(rnd.id, 100 + i, f"D{i}", week, s, T0) for i, s in enumerate(scores)])
        game = "some-points-game"  # the world queries read one game's runs (migration 12)
        points_top = await world_top_tx(tx, week, 10, POINTS, game)
        seconds_top = await world_top_tx(tx, week, 10, SECONDS, game)
        mine = next(r for r in points_top if r.user_id == 102)  # 65 points: 4th
        return (rnd, points_top, seconds_top, await world_rank_tx(tx, week, 65, POINTS, game),
                await world_rank_tx(tx, week, 65, SECONDS, game), await world_around_tx(tx, week, mine, 1, POINTS),
                await faster_runs_tx(tx, rnd.id, 80, POINTS), await tied_before_tx(tx, week, 80, 10**6, game))

    rnd, points_top, seconds_top, rank_points, rank_seconds, around, better, tied = await store.db.write(body)
    assert rnd.game == "some-points-game"
    assert [(r.user_id, r.score, r.score_unit) for r in points_top] == [
        (105, 95, "vp"), (101, 80, "vp"), (103, 80, "vp"), (102, 65, "vp"), (100, 50, "vp"), (104, 20, "vp")]
    assert [r.score for r in seconds_top] == [20, 50, 65, 80, 80, 95]
    assert (rank_points, rank_seconds) == (4, 3)
    assert [r.user_id for r in around] == [103, 102, 100]  # its neighbours in the points order
    assert (better, tied) == (1, 2)  # only 95 beats 80 points; two runs share 80
