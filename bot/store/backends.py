"""Which backend holds a database: the one place that knows both (see `bot/store/connection.py`)."""

from __future__ import annotations

import os
import re

from bot.store.connection import Database, Target, is_postgres_url


async def open_database(target: Target) -> Database:
    """The database at `target`: a `postgresql://` URL opens a PostgreSQL pool (asyncpg, imported
    only then); anything else is an SQLite file, created with its folders if needed."""
    if is_postgres_url(target):
        from bot.store.postgres import PgDatabase

        return await PgDatabase.connect(str(target))
    if not isinstance(target, str) and re.match(r"^postgres(ql)?:/", os.fspath(target), re.IGNORECASE):
        # `Path("postgresql://…")` folds the `//`: it would silently become an SQLite file named so
        raise ValueError(f"{os.fspath(target)!r} is a PostgreSQL URL made into a path: pass the URL as a string")
    from bot.store.sqlite import SqliteDatabase

    return await SqliteDatabase.open_file(target)
