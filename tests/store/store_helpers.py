"""Helpers shared by the store tests (a uniquely named module: tests are imported by file name)."""

from __future__ import annotations

import json

from bot.store import Store

TABLES = ("guild_settings", "rallies", "drivers", "actions", "messages", "jobs")


async def new_rally(store: Store, channel_id: int = 500, **overrides):
    """A rally in the lobby with sensible defaults."""
    fields = dict(guild_id=1, channel_id=channel_id, host_id=10, stage="ridge-and-moor", ruleset="classic", seed=42)
    fields.update(overrides)
    return await store.rallies.create(**fields)


async def dump(store: Store) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order: equal dumps mean nothing was written."""
    result = {}
    for table in TABLES:
        rows = await store.db.fetch_all(f"SELECT * FROM {table} ORDER BY 1, 2")
        result[table] = [tuple(r) for r in rows]
    return result


def log_snapshot(actions: list[str]) -> str:
    """The deterministic 'game state' the tests use: the JSON list of the action texts so far."""
    return json.dumps(actions)
