"""Which backend holds a database: the one place that knows both (see `bot/store/connection.py`)."""

from __future__ import annotations

import os
import re

from bot.store.connection import Database, Target, is_postgres_url


async def open_database(target: Target, *, read_only: bool = False) -> Database:
    """The database at `target`: a `postgresql://` URL opens a PostgreSQL pool (asyncpg, imported
    only then); anything else is an SQLite file, created with its folders if needed. `read_only`:
    every write refused by the database itself (the web page's process), an SQLite file must exist."""
    if is_postgres_url(target):
        from bot.store.postgres import PgDatabase

        return await PgDatabase.connect(str(target), read_only=read_only)
    if not isinstance(target, str) and re.match(r"^postgres(ql)?:/", os.fspath(target), re.IGNORECASE):
        # `Path("postgresql://…")` folds the `//`: it would silently become an SQLite file named so
        raise ValueError(f"{os.fspath(target)!r} is a PostgreSQL URL made into a path: pass the URL as a string")
    from bot.store.sqlite import SqliteDatabase

    return await SqliteDatabase.open_file(target, read_only=read_only)
