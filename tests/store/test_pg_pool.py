"""The bot's PostgreSQL pool opens all its connections when the store opens (bot/store/postgres.py):
no command waits for a new connection; the web page's read-only pool opens one, and
`RALLYBOT_DB_POOL_OPEN` (the tests set it to 1, tests/conftest.py) opens fewer."""

from __future__ import annotations

import asyncpg
import pytest

from bot.store import Store
from bot.store.postgres import opened_at_start, pool_size


async def _connections(url: str, application: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                                   "AND application_name = $1", application)
    finally:
        await conn.close()


async def test_the_bots_pool_is_open_before_its_first_command_and_the_web_pages_is_not(pg_url, monkeypatch):
    monkeypatch.delenv("RALLYBOT_DB_POOL_OPEN")
    async with await Store.open(pg_url) as store:
        assert await _connections(pg_url, "rallybot") == pool_size() == 8
        async with await Store.open(pg_url, read_only=True):
            assert await _connections(pg_url, "rallybot-web") == 1
        assert await store.rallies.ids() == []  # and it answers


async def test_pool_open_opens_that_many(pg_url, monkeypatch):
    monkeypatch.setenv("RALLYBOT_DB_POOL_OPEN", "3")
    async with await Store.open(pg_url):
        assert await _connections(pg_url, "rallybot") == 3


@pytest.mark.parametrize("raw", ["0", "-1", "x", "101"])
def test_a_wrong_pool_open_is_refused_naming_the_setting(monkeypatch, raw):
    monkeypatch.setenv("RALLYBOT_DB_POOL_OPEN", raw)
    with pytest.raises(ValueError, match=f"RALLYBOT_DB_POOL_OPEN must be a whole number from 1 to 100, got '{raw}'"):
        opened_at_start(8)


def test_pool_open_is_at_most_the_pool(monkeypatch):
    monkeypatch.setenv("RALLYBOT_DB_POOL_OPEN", "20")
    assert opened_at_start(8) == 8
    monkeypatch.delenv("RALLYBOT_DB_POOL_OPEN")
    assert opened_at_start(5) == 5
