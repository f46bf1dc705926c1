"""The bot's PostgreSQL pool opens all its connections when the store opens (bot/store/postgres.py):
no command waits for a new connection; the web page's read-only pool opens one."""

from __future__ import annotations

import asyncpg

from bot.store import Store
from bot.store.postgres import pool_size


async def _connections(url: str, application: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                                   "AND application_name = $1", application)
    finally:
        await conn.close()


async def test_the_bots_pool_is_open_before_its_first_command_and_the_web_pages_is_not(pg_url):
    async with await Store.open(pg_url) as store:
        assert await _connections(pg_url, "rallybot") == pool_size() == 8
        async with await Store.open(pg_url, read_only=True):
            assert await _connections(pg_url, "rallybot-web") == 1
        assert await store.rallies.ids() == []  # and it answers
