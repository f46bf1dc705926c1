"""The throwaway PostgreSQL server the tests start (tests/pg_server.py): a real server, one database per test."""

from __future__ import annotations

from urllib.parse import urlsplit

import asyncpg
import pytest
from pg_server import PgServer, PgServerError, find_bin_dir, wheel_bin_dir


async def test_server_answers_with_a_recent_postgresql(pg_url):
    conn = await asyncpg.connect(pg_url)
    try:
        version = await conn.fetchval("SELECT version()")
        number = await conn.fetchval("SHOW server_version_num")
    finally:
        await conn.close()
    assert version.startswith("PostgreSQL ")
    assert int(number) >= 130000, version


async def test_each_pg_url_is_its_own_empty_database(pg_server, pg_url):
    other = await pg_server.create_database()
    try:
        assert other != pg_url
        first = await asyncpg.connect(pg_url)
        second = await asyncpg.connect(other)
        try:
            here = "SELECT current_database()"
            assert await first.fetchval(here) != await second.fetchval(here)
            tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            assert await first.fetchval(tables) == 0
            assert await second.fetchval(tables) == 0
            await first.execute("CREATE TABLE only_here (x int)")
            assert await first.fetchval("SELECT to_regclass('only_here') IS NOT NULL")
            assert await second.fetchval("SELECT to_regclass('only_here') IS NULL")
        finally:
            await first.close()
            await second.close()
    finally:
        await pg_server.drop_database(other)


async def test_the_server_listens_on_loopback_only(pg_server, pg_url):
    url = urlsplit(pg_url)
    assert url.scheme == "postgresql"
    assert url.hostname == "127.0.0.1"
    assert url.port == pg_server.port
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SHOW listen_addresses") == "127.0.0.1"
        assert str(await conn.fetchval("SELECT inet_server_addr()")) == "127.0.0.1"
    finally:
        await conn.close()


def test_missing_binaries_say_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("RALLYBOT_PG_BIN", str(tmp_path))
    with pytest.raises(PgServerError, match="apt-get install postgresql"):
        find_bin_dir()
    with pytest.raises(PgServerError, match="initdb and postgres"):
        PgServer().start()


def test_stop_ends_the_server_and_removes_its_folder():
    server = PgServer().start()
    folder, proc = server.folder, server._proc
    assert folder is not None and folder.is_dir()
    assert proc is not None and proc.poll() is None
    server.stop()
    assert proc.poll() is not None
    assert not folder.exists()
    server.stop()  # twice is fine


def _without_system_server(monkeypatch, tmp_path):
    """No PostgreSQL of the system's: no RALLYBOT_PG_BIN, no pg_config nor initdb on PATH, an empty
    /usr/lib/postgresql."""
    import pg_server

    monkeypatch.delenv("RALLYBOT_PG_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty-path"))
    monkeypatch.setattr(pg_server, "SYSTEM_ROOT", tmp_path / "lib-postgresql")


def test_without_the_systems_server_the_wheels_programs_are_used(monkeypatch, tmp_path):
    wheel = wheel_bin_dir()
    assert wheel is not None, "the test extra's pgserver wheel is not installed: python3 -m pip install -e '.[test]'"
    assert all((wheel / name).is_file() for name in ("initdb", "postgres", "pg_ctl"))
    _without_system_server(monkeypatch, tmp_path)
    assert find_bin_dir() == wheel


def test_the_systems_server_wins_over_the_wheels(monkeypatch, tmp_path):
    import pg_server

    _without_system_server(monkeypatch, tmp_path)
    system = pg_server.SYSTEM_ROOT / "16" / "bin"
    system.mkdir(parents=True)
    for name in ("initdb", "postgres"):
        (system / name).write_text("#!/bin/sh\n")
        (system / name).chmod(0o755)
    assert find_bin_dir() == system != wheel_bin_dir()


async def test_a_server_starts_from_the_wheels_programs():
    wheel = wheel_bin_dir()
    assert wheel is not None, "the test extra's pgserver wheel is not installed: python3 -m pip install -e '.[test]'"
    server = PgServer(wheel).start()
    try:
        conn = await asyncpg.connect(await server.create_database())
        try:
            version = await conn.fetchval("SELECT version()")
            assert await conn.fetchval("SELECT 40 + 2") == 42
        finally:
            await conn.close()
    finally:
        server.stop()
    assert version.startswith("PostgreSQL 16"), version
    assert server.folder is None
