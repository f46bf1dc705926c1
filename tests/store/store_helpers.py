"""Helpers shared by the store tests (a uniquely named module: tests are imported by file name)."""

from __future__ import annotations

import json

from bot.store import Store
from bot.store.copy import TABLES as ALL_TABLES

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


async def dump_every_table(db) -> dict[str, list[tuple]]:
    """Every row of every table `db copy` knows (`bot.store.copy.TABLES`), in key order, each value
    paired with its Python type name: equal dumps of two databases, even of two backends, mean the
    same rows with the same values and types."""
    result = {}
    for table, keys in ALL_TABLES:
        rows = await db.fetch_all(f"SELECT * FROM {table} ORDER BY {', '.join(keys)}")
        result[table] = [tuple((type(v).__name__, v) for v in r) for r in rows]
    return result
