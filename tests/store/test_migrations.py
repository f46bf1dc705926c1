"""Schema migrations: numbered steps, each applied with its `user_version` in one transaction."""

from __future__ import annotations

import sqlite3

import pytest
from store_helpers import TABLES

from bot.store import SchemaTooNew, SchemaTooOld, Store
from bot.store.migrations import MIGRATIONS, Migration, latest_version


def _user_version(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def _tables(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_migrations_are_numbered_one_to_n():
    assert [m.version for m in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
    assert latest_version() == len(MIGRATIONS) >= 1


async def test_fresh_database_reaches_latest_version_and_creates_folders(tmp_path):
    path = tmp_path / "deep" / "er" / "new.sqlite3"
    async with Store.open(path) as store:
        assert await store.schema_version() == latest_version()
    assert _user_version(path) == latest_version()
    assert set(TABLES) <= _tables(path)


async def test_reopening_is_idempotent(db_path):
    async with Store.open(db_path) as store:
        rally = await store.rallies.create(guild_id=1, channel_id=2, host_id=3, stage="s", ruleset="r", seed=1)
    async with Store.open(db_path) as store:
        assert await store.schema_version() == latest_version()
        assert (await store.rallies.get(rally.id)).stage == "s"
    assert _user_version(db_path) == latest_version()


async def test_default_path_comes_from_rallybot_db(tmp_path, monkeypatch):
    path = tmp_path / "from-env" / "x.sqlite3"
    monkeypatch.setenv("RALLYBOT_DB", str(path))
    async with Store.open() as store:
        assert store.path == str(path)
    assert path.is_file()


async def test_database_newer_than_code_is_refused_untouched(db_path):
    async with Store.open(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    before = _tables(db_path)
    with pytest.raises(SchemaTooNew) as refused:
        await Store.open(db_path)
    assert f"schema version {latest_version() + 1}" in str(refused.value)
    assert "Upgrade rallybot" in str(refused.value)
    assert _user_version(db_path) == latest_version() + 1
    assert _tables(db_path) == before


async def test_old_database_is_migrated_on_open(db_path):
    async with Store.open(db_path, migrations=MIGRATIONS[:1]):
        pass
    extra = Migration(2, "add a column", ("ALTER TABLE guild_settings ADD COLUMN note TEXT",))
    async with Store.open(db_path, migrations=(*MIGRATIONS[:1], extra)) as store:
        assert await store.schema_version() == 2
        await store.db.fetch_all("SELECT note FROM guild_settings")


async def test_failing_migration_leaves_version_and_schema_unchanged(db_path):
    async with Store.open(db_path, migrations=MIGRATIONS[:1]):
        pass
    broken = Migration(
        2,
        "half-good step",
        ("CREATE TABLE added_by_step_two (x INTEGER)", "THIS IS NOT SQL"),
    )
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(db_path, migrations=(*MIGRATIONS[:1], broken))
    assert _user_version(db_path) == 1
    assert "added_by_step_two" not in _tables(db_path)


async def test_failing_python_step_rolls_back_too(db_path):
    async def step(tx):
        await tx.execute("CREATE TABLE made_by_function (x INTEGER)")
        raise RuntimeError("data migration failed")

    with pytest.raises(RuntimeError, match="data migration failed"):
        await Store.open(db_path, migrations=(*MIGRATIONS, Migration(len(MIGRATIONS) + 1, "boom", step)))
    assert _user_version(db_path) == len(MIGRATIONS)
    assert "made_by_function" not in _tables(db_path)


async def test_read_only_open_refuses_an_old_schema(db_path):
    async with Store.open(db_path, migrations=MIGRATIONS[:1]):
        pass
    newer = (*MIGRATIONS, Migration(len(MIGRATIONS) + 1, "later", ("CREATE TABLE later (x INTEGER)",)))
    with pytest.raises(SchemaTooOld, match="db migrate"):
        await Store.open(db_path, migrate=False, migrations=newer)
    assert _user_version(db_path) == 1
