"""Store test fixtures: the store on each backend (a real SQLite file in tmp_path, a fresh PostgreSQL
database), opened and always closed; `db_path` is for the tests of SQLite's own file (helpers:
store_helpers.py)."""

from __future__ import annotations

import pytest

from bot.store import Store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "store" / "rallybot.sqlite3"


@pytest.fixture
async def sqlite_store(db_path):
    """For the tests of what only SQLite has (its file, pragmas, its one thread)."""
    opened = await Store.open(db_path)
    try:
        yield opened
    finally:
        await opened.close()
