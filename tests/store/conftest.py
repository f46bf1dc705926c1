"""Store test fixtures: a real SQLite file in tmp_path, opened and always closed (helpers: store_helpers.py)."""

from __future__ import annotations

import pytest

from bot.store import Store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "store" / "rallybot.sqlite3"


@pytest.fixture
async def store(db_path):
    opened = await Store.open(db_path)
    try:
        yield opened
    finally:
        await opened.close()
