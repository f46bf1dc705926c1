"""`db copy` and the portable backup: SQLite → PostgreSQL → SQLite gives the same rows, the same id
counters and a database `db check` accepts; the CLI refuses a non-empty target and a copy onto
itself without changing anything."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from store_helpers import dump_every_table, new_rally

from bot.services import Actor, Place, RallyService
from bot.services.play.deadlines import DeadlineService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store
from bot.store.copy import TABLES, TargetNotEmpty, copy_rows, count_rows
from bot.store.shards import Shards
from bot.store.window_answers import put_tx
from tests.discord.fakes import FakeClock
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, start_run
from tests.services.conftest import HERE, running_rally

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # a Sunday: the league's round opens at once
ZOE = Actor(1010, "Zoë 🏁")  # not ASCII: the text must survive both backends byte for byte
ID_TABLES = [table for table, keys in TABLES if keys == ("id",)]


async def build_realistic(target: Path | str) -> None:
    """A database as a season leaves it, written by the real services: a running rally with a
    played turn, an abandoned one, a league with members, a closed round with two runs, its results,
    a penalty, its card and the drivers' ratings, server settings, a driver's DM preference, jobs, posts
    delivered and owed (with their message ids), a channel published on the web page, a world scratch
    run answering an official league round. Its last rally was then deleted, so the id counter is ahead
    of the largest id."""
    clock = FakeClock(START)
    seeds = iter(f"{n:064x}" for n in range(1, 10_000))
    async with Store.open(target) as store:
        service = RallyService(store, seed_source=lambda: 42, clock=clock)
        champs = service.championships
        champs.rounds.seed_source = champs.jobs.seed_source = champs.scratch.seed_source = lambda: next(seeds)
        deadlines = DeadlineService(service.work, clock=clock)

        await running_rally(service, "pinewood-sprint", BOB, ALICE, ZOE)
        await service.act(HERE, BOB, "1")
        elsewhere = Place(HERE.guild_id, HERE.channel_id + 1)
        await service.create(elsewhere, ALICE, "frozen-lakes")
        await service.abandon(elsewhere, ALICE)
        await store.guilds.put(HERE.guild_id, {"lang": "fr", "motto": "Allez, Zoë !"})
        await service.notify.set(HERE, ZOE, "dm", "on")
        await service.channel_web.set(elsewhere, ORGANISER, "public")  # a channel shown on the web page

        leagues = champs.leagues
        await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
        for driver in (ALICE, BOB):
            await leagues.join(LEAGUE_CHANNEL, driver)
        await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
        await deadlines.run_due()
        await drive(service, ALICE, await start_run(service, ALICE))
        await drive(service, BOB, await start_run(service, BOB))  # two drivers: the close rates them
        await champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", 5, "cut")
        clock.advance(days=3)
        await deadlines.run_due()  # the close: results, the card, its posts
        await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "official", opens="now", closes="+1d")
        await deadlines.run_due()
        await champs.scratch.check_run(LEAGUE_CHANNEL, BOB)  # his world run answers the official round
        await champs.scratch.start_run(LEAGUE_CHANNEL, BOB, 4343, "Test server")

        message_ids = itertools.count(1_300_000_000_000_000_000)
        for _ in range(3):  # deliver some, leave the rest owed
            for out in await service.delivery.claim():
                await service.delivery.sent(out, next(message_ids))

        # an answer kept in an open window (a Road Rally stage window's, bot/store/window_answers.py)
        running = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
        kept = '{"play":false,"stage":3,"type":"stage","v":1}'
        await store.db.write(lambda tx: put_tx(tx, running.id, ZOE.user_id, kept))

        doomed = await new_rally(store, channel_id=4242, guild_id=HERE.guild_id)
        await store.db.write(lambda tx: tx.execute("DELETE FROM rallies WHERE id = ?", (doomed.id,)))
        assert (await store.check(replay_snapshot, log_problem)).ok  # its marks are copied too
        await store.shard_processes.claim(Shards(2, (0, 1)), "host-a", 4242, datetime(2026, 5, 1, tzinfo=UTC))


def file_rows(path: Path) -> dict[str, object]:
    """Everything an SQLite file holds, read with plain sqlite3: each table's columns and rows (all
    columns, with their SQLite types), the id counters and the schema version."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name != 'sqlite_sequence' ORDER BY name")]
        result: dict[str, object] = {}
        for table in tables:
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            typed = ", ".join(f"typeof({c}), {c}" for c in columns)
            order = ", ".join(str(i) for i in range(2, 2 * len(columns) + 1, 2))
            result[table] = (columns, conn.execute(f"SELECT {typed} FROM {table} ORDER BY {order}").fetchall())
        result["counters"] = {name: seq for name, seq in conn.execute("SELECT name, seq FROM sqlite_sequence") if seq}
        result["user_version"] = conn.execute("PRAGMA user_version").fetchone()[0]
        return result
    finally:
        conn.close()


async def identities(store: Store) -> dict[str, int]:
    async def read(tx):
        return {table: await tx.identity(table) for table in ID_TABLES}

    return await store.db.read(read)


async def largest_ids(store: Store) -> dict[str, int]:
    found = {}
    for table in ID_TABLES:
        row = await store.db.fetch_one(f"SELECT COALESCE(MAX(id), 0) FROM {table}")
        found[table] = int(row[0])
    return found


async def test_sqlite_to_postgresql_and_back_gives_identical_rows_and_a_clean_check(tmp_path, pg_url):
    original, final = tmp_path / "original.sqlite3", tmp_path / "final.sqlite3"
    await build_realistic(original)
    before = file_rows(original)
    assert all(before[table][1] for table, _ in TABLES), "every table has rows"

    async with Store.open(original) as source, Store.open(pg_url) as pg:
        expected = await count_rows(source.db)
        report = await copy_rows(source.db, pg.db)
        assert report.rows == expected == await count_rows(pg.db)
        assert report.total == sum(expected.values())
        assert await dump_every_table(pg.db) == await dump_every_table(source.db)
        check = await pg.check(replay_snapshot, log_problem)
        assert check.ok, check.mismatches
        assert (check.rallies, check.actions) == (expected["rallies"], expected["actions"])

    async with Store.open(pg_url) as pg, Store.open(final) as back:
        await copy_rows(pg.db, back.db)

    after = file_rows(final)
    assert set(after) == set(before)
    for name in before:
        if name == "check_marks":  # the check on PostgreSQL marked the rallies again: a later time
            assert _without_times(after[name]) == _without_times(before[name])
            continue
        assert after[name] == before[name], name
    assert file_rows(original) == before, "the source was only read"


def _without_times(table):
    columns, rows = table
    return columns[:-1], [row[:-2] for row in rows]  # checked_at is the last column (type, value)


async def test_new_ids_after_a_copy_go_past_every_id_the_source_handed_out(tmp_path, pg_url):
    """The source's counters are ahead of its largest ids (a deleted rally): the targets' counters
    follow the counters, not the rows, so an id is never handed out twice (AUTOINCREMENT)."""
    original, final = tmp_path / "original.sqlite3", tmp_path / "final.sqlite3"
    await build_realistic(original)
    async with Store.open(original) as source:
        counters, largest = await identities(source), await largest_ids(source)
    assert counters["rallies"] > largest["rallies"]

    async with Store.open(original) as source, Store.open(pg_url) as pg:
        await copy_rows(source.db, pg.db)
    async with Store.open(pg_url) as pg, Store.open(final) as back:
        await copy_rows(pg.db, back.db)

    for target in (pg_url, final):
        async with Store.open(target) as store:
            assert await identities(store) == counters, target
            fresh = await new_rally(store, channel_id=777_000)
            assert fresh.id == counters["rallies"] + 1, target
            assert (await identities(store))["rallies"] == fresh.id


async def test_copy_into_a_database_with_rows_is_refused_untouched(tmp_path, pg_url):
    source_path = tmp_path / "source.sqlite3"
    await build_realistic(source_path)
    async with Store.open(pg_url) as pg:
        await pg.guilds.put(99, {"lang": "de"})
        before = await dump_every_table(pg.db)
        async with Store.open(source_path) as source:
            with pytest.raises(TargetNotEmpty) as refused:
                await copy_rows(source.db, pg.db)
        assert "guild_settings (1)" in str(refused.value)
        assert await dump_every_table(pg.db) == before


# -- through the command line -------------------------------------------------------------------------

def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


async def test_db_copy_command_copies_checks_and_refuses_a_second_copy(tmp_path, pg_url):
    source = tmp_path / "source.sqlite3"
    await build_realistic(source)
    async with Store.open(source) as store:
        counts = await count_rows(store.db)
        rallies = counts["rallies"]

    first = run_cli("db", "copy", "--db", str(source), "--to", pg_url)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0] == f"copied {sum(counts.values())} rows from {source} to {pg_url}"
    assert lines[1] == f"ok: {rallies} rallies, {counts['actions']} actions"
    assert "rallies: " in first.stderr  # the progress, on stderr

    async with Store.open(pg_url) as pg:
        assert await count_rows(pg.db) == counts
        before = await dump_every_table(pg.db)
    second = run_cli("db", "copy", "--db", str(source), "--to", pg_url)
    assert second.returncode == 1
    assert second.stdout == ""
    assert "is not empty" in second.stderr
    for table in ("rallies", "actions", "outbox", "leagues", "round_cards"):
        assert f"{table} ({counts[table]})" in second.stderr
    assert "Traceback" not in second.stderr
    async with Store.open(pg_url) as pg:
        assert await count_rows(pg.db) == counts
        assert await dump_every_table(pg.db) == before


async def test_db_copy_of_a_file_onto_itself_is_refused(tmp_path, pg_url):
    source = tmp_path / "source.sqlite3"
    await build_realistic(source)
    before = file_rows(source)
    (tmp_path / "sub").mkdir()
    for target in (str(source), str(tmp_path / "sub" / ".." / "source.sqlite3")):
        result = run_cli("db", "copy", "--db", str(source), "--to", target)
        assert result.returncode == 1, result.stdout
        assert "onto itself" in result.stderr and result.stdout == ""
    same_url = run_cli("db", "copy", "--db", pg_url, "--to", pg_url)
    assert same_url.returncode == 1 and "onto itself" in same_url.stderr
    assert file_rows(source) == before
    async with Store.open(pg_url) as pg:
        assert sum((await count_rows(pg.db)).values()) == 0


async def test_db_backup_of_postgresql_writes_an_sqlite_file_with_the_same_rows(tmp_path, pg_url):
    await build_realistic(pg_url)
    dest = tmp_path / "exports" / "rallybot.sqlite3"
    result = run_cli("db", "backup", str(dest), "--db", pg_url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{dest}: {dest.stat().st_size} bytes"
    assert [p.name for p in dest.parent.iterdir()] == [dest.name]  # no partial file, no WAL left beside it

    check = run_cli("db", "check", "--db", str(dest))
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.startswith("ok: ")
    async with Store.open(pg_url) as pg, Store.open(dest, migrate=False) as export:
        assert await dump_every_table(export.db) == await dump_every_table(pg.db)
        assert await identities(export) == await identities(pg)
        report = await export.check(replay_snapshot, log_problem)
        assert report.ok and report.rallies == (await count_rows(pg.db))["rallies"]
