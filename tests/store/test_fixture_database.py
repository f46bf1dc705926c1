"""A database written by an earlier version (`tests/fixtures/rallybot-v10.sqlite3`, made by
`python -m tests.fixtures.build_fixture_db` with schema 10) opens with this version: every action log
replays to its stored snapshot (`db check --all`), and the standings, the world rankings and every
finished rally's classification read exactly as they did (the guard of the
migration to games)."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta

from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store
from tests.discord.fakes import FakeClock
from tests.fixtures.build_fixture_db import EXPECTED, FIXTURE, START, shown


async def test_the_fixture_database_replays_and_reads_as_it_did(tmp_path):
    copy = tmp_path / "old.sqlite3"
    shutil.copyfile(FIXTURE, copy)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    async with Store.open(copy) as store:
        report = await store.check(replay_snapshot, log_problem, changed_only=False)
        assert report.ok, [str(m) for m in report.mismatches]
        assert report.rallies >= 13 and report.actions > 300
        service = RallyService(store, seed_source=lambda: 1, clock=FakeClock(START + timedelta(days=30)))
        assert await shown(service, expected["weeks"]) == expected


def test_the_fixture_holds_every_kind_of_record():
    """Rallies in every status, a league with closed rounds and an open one, finished runs and a
    DNF, a penalty and a disqualification, two weeks of the world scratch (one with a tie)."""
    import sqlite3

    conn = sqlite3.connect(FIXTURE)
    try:
        def count(sql: str) -> dict:
            return dict(conn.execute(sql).fetchall())

        assert set(count("SELECT status, COUNT(*) FROM rallies GROUP BY status")) == {
            "lobby", "running", "finished", "abandoned"}
        assert count("SELECT status, COUNT(*) FROM rounds GROUP BY status").keys() >= {"closed", "open"}
        assert count("SELECT status, COUNT(*) FROM runs GROUP BY status").keys() >= {"finished", "dnf"}
        assert count("SELECT action, COUNT(*) FROM league_log GROUP BY action").keys() >= {"penalty", "disqualify"}
        assert conn.execute("SELECT COUNT(*) FROM drivers WHERE user_id < 0").fetchone()[0] >= 2  # AI seats
    finally:
        conn.close()
    ranking = json.loads(EXPECTED.read_text(encoding="utf-8"))["scratch"]
    assert any(line.startswith("2. ") for lines in ranking.values() for line in lines[2:3])  # a shared 2nd place


async def test_the_fixture_moved_to_postgresql_at_schema_10_migrates_there_and_reads_as_it_did(tmp_path, pg_url):
    """The PostgreSQL leg: the fixture's rows copied as they are (schema 10, `bot.store.copy`) into
    a PostgreSQL database at schema 10, then migrated there, data in it; the same replays and texts."""
    from bot.store.backends import open_database
    from bot.store.copy import copy_rows, count_rows
    from bot.store.migrations import MIGRATIONS

    copy = tmp_path / "old.sqlite3"
    shutil.copyfile(FIXTURE, copy)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    source = await open_database(copy)  # not migrated: the schema the fixture was written at
    try:
        assert await source.user_version() == 10
        async with Store.open(pg_url, migrations=MIGRATIONS[:10]) as old:
            report = await copy_rows(source, old.db)
            assert report.rows == await count_rows(source) and report.total > 500
            assert await old.schema_version() == 10
    finally:
        await source.close()
    async with Store.open(pg_url) as store:
        assert await store.schema_version() == len(MIGRATIONS) > 10
        assert store.db.dialect == "postgresql"
        report = await store.check(replay_snapshot, log_problem, changed_only=False)
        assert report.ok, [str(m) for m in report.mismatches]
        assert report.rallies >= 13 and report.actions > 300
        service = RallyService(store, seed_source=lambda: 1, clock=FakeClock(START + timedelta(days=30)))
        assert await shown(service, expected["weeks"]) == expected
