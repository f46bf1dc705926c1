"""Which backend holds a database: the one place that knows both (see `bot/store/connection.py`)."""

from __future__ import annotations

from bot.store.connection import Database, Target, is_postgres_url


async def open_database(target: Target) -> Database:
    """The database at `target`: a `postgresql://` URL opens a PostgreSQL pool (asyncpg, imported
    only then); anything else is an SQLite file, created with its folders if needed."""
    if is_postgres_url(target):
        from bot.store.postgres import PgDatabase

        return await PgDatabase.connect(str(target))
    from bot.store.sqlite import SqliteDatabase

    return await SqliteDatabase.open_file(target)
