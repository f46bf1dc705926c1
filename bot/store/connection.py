"""The one long-lived SQLite connection, its pragmas, and transactions: all SQLite specifics live here.

Why it is shaped like this (DESIGN §3, aiosqlite):
- one aiosqlite connection per process, `isolation_level=None` so Python's sqlite3 never opens or
  commits a transaction behind our back; WAL (readers never block the writer, a crash loses no
  committed transaction), `synchronous=NORMAL` (in WAL: durable against a process crash, and no
  fsync per commit), `foreign_keys=ON`, `busy_timeout` for other processes (the CLI's backup or
  check while the bot runs);
- every write is `BEGIN IMMEDIATE … COMMIT` (ROLLBACK on any error, and on cancellation) under
  one `asyncio.Lock`, through aiosqlite's public API only: a body is a coroutine of a `Tx`, one
  awaited statement at a time, which is the shape an asyncpg backend needs as well. Reads take
  the same lock, so nothing runs between a transaction's BEGIN and its COMMIT;
- `close()` checkpoints the WAL (`wal_checkpoint(TRUNCATE)`) and always closes the connection:
  an unclosed aiosqlite 0.22 connection keeps a non-daemon thread alive and hangs the process.

Repositories speak portable SQL through `Tx` and `Database`; the PRAGMAs, constraint-error
classification and the backup API below are what a PostgreSQL backend would replace.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from contextlib import suppress
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
MEMORY = ":memory:"

Params = Sequence[Any]
T = TypeVar("T")


async def connect(path: str | os.PathLike[str]) -> aiosqlite.Connection:
    """Open an aiosqlite connection with the store's settings; parent folders are created.

    Also used by the benchmark, so its baseline runs on exactly the same settings.
    """
    location = str(path)
    if location != MEMORY:
        Path(location).parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(location, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
        mode = rows[0][0] if rows else "?"
        if location != MEMORY and str(mode).lower() != "wal":
            log.warning("SQLite refused WAL mode for %s (journal_mode=%s)", location, mode)
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


def constraint_kind(exc: BaseException) -> str | None:
    """'unique', 'foreign_key', 'check', 'not_null' or 'primary_key' for a constraint violation, else None."""
    if not isinstance(exc, sqlite3.IntegrityError):
        return None
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc)
    table = {
        "SQLITE_CONSTRAINT_UNIQUE": "unique",
        "SQLITE_CONSTRAINT_PRIMARYKEY": "primary_key",
        "SQLITE_CONSTRAINT_FOREIGNKEY": "foreign_key",
        "SQLITE_CONSTRAINT_CHECK": "check",
        "SQLITE_CONSTRAINT_NOTNULL": "not_null",
    }
    if name in table:
        return table[name]
    fallbacks = (("UNIQUE", "unique"), ("FOREIGN KEY", "foreign_key"), ("CHECK", "check"), ("NOT NULL", "not_null"))
    for needle, kind in fallbacks:
        if needle in text:
            return kind
    return "other"


class Tx:
    """The statements of one open transaction, each awaited on aiosqlite's connection thread.

    Bodies are coroutines of a `Tx` (`async def body(tx): await tx.execute(...)`), the shape an
    asyncpg backend needs too. The transaction is held under the database's lock from BEGIN to
    COMMIT, so no other transaction or read of this process runs in between; a body must never
    await Discord (only its own statements).
    """

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        cursor = await self._conn.execute(sql, params)
        try:
            return cursor.rowcount
        finally:
            await cursor.close()

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for each parameter row."""
        await self._conn.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """All rows of a query (or of an `… RETURNING` statement)."""
        return list(await self._conn.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of a query, or None (the statement still runs to its end)."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def user_version(self) -> int:
        """The schema version recorded in the database header."""
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_user_version(self, version: int) -> None:
        """Record the schema version; transactional, so it commits or rolls back with the step."""
        await self.execute(f"PRAGMA user_version = {int(version)}")


Body = Callable[[Tx], Awaitable[T]]


async def _rollback(conn: aiosqlite.Connection) -> None:
    """ROLLBACK after a failed body, keeping the original error (SQLite may have rolled back already)."""
    try:
        await asyncio.shield(conn.execute("ROLLBACK"))
    except (sqlite3.Error, ValueError) as exc:
        if "no transaction is active" not in str(exc):
            log.error("ROLLBACK failed after %r: %s", sys.exc_info()[1], exc)


class Database:
    """One connection, one lock, transactions; what every repository is built on.

    Every statement of this process goes through the lock: a transaction spans several awaits,
    and on one connection a statement slipped in between would see (or join) its uncommitted
    work. Cancelling a task inside a transaction rolls it back before the lock is released.
    """

    def __init__(self, path: str, conn: aiosqlite.Connection) -> None:
        self.path = path
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Database:
        """Open (creating the file and its folders if needed) with the store's pragmas."""
        return cls(str(path), await connect(path))

    @property
    def closed(self) -> bool:
        return self._conn is None

    def _require(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError(f"the store {self.path} is closed")
        return self._conn

    @asynccontextmanager
    async def transaction(self, begin: str = "BEGIN IMMEDIATE") -> AsyncIterator[Tx]:
        """`async with db.transaction() as tx:` BEGIN IMMEDIATE … COMMIT, ROLLBACK on any exception.

        A refused or failed change leaves the database exactly as it was. Repositories expose
        their statements as functions of a `Tx`, so a service can put several of them (an action,
        its jobs, its outbox rows) in one transaction.
        """
        conn = self._require()
        async with self._lock:
            await conn.execute(begin)
            try:
                yield Tx(conn)
                await conn.execute("COMMIT")
            except BaseException:
                await _rollback(conn)
                raise

    async def write(self, body: Body[T]) -> T:
        """Run `await body(tx)` in one write transaction; returns its result."""
        async with self.transaction() as tx:
            return await body(tx)

    async def read(self, body: Body[T]) -> T:
        """Run `await body(tx)` inside one read transaction: several queries that see one state."""
        async with self.transaction("BEGIN") as tx:
            return await body(tx)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """All rows of one query (autocommit: one statement sees one consistent state)."""
        conn = self._require()
        async with self._lock:
            return list(await conn.execute_fetchall(sql, params))

    async def fetch_one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def user_version(self) -> int:
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def integrity_check(self) -> list[str]:
        """SQLite's own consistency check of pages, indexes and foreign keys; [] when healthy."""
        rows = await self.fetch_all("PRAGMA integrity_check")
        problems = [str(r[0]) for r in rows if str(r[0]) != "ok"]
        problems += [f"foreign key: {tuple(r)}" for r in await self.fetch_all("PRAGMA foreign_key_check")]
        return problems

    async def checkpoint(self) -> None:
        """Copy the WAL into the main file and truncate it (a clean file to copy or back up)."""
        conn = self._require()
        async with self._lock:
            await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def backup(self, dest: str | os.PathLike[str]) -> int:
        """Online backup to `dest` (replaced atomically); returns its size in bytes.

        The copy runs on its own connection in a worker thread, in one step, so it is one
        consistent snapshot and the store keeps serving reads and writes meanwhile (WAL). The copy
        is written beside `dest` and renamed when complete: a crash never leaves half a backup
        under the final name. The result is a single self-contained file (rollback journal mode).
        An in-memory database is copied on the store's own connection, under the lock.
        """
        self._require()
        target = Path(dest)
        if self.path != MEMORY and target.resolve() == Path(self.path).resolve():
            raise ValueError(f"refusing to back up {self.path} onto itself")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")

        def work() -> int:
            source = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000)
            try:
                out = sqlite3.connect(partial)
                try:
                    source.backup(out)
                    out.execute("PRAGMA journal_mode = DELETE")
                finally:
                    out.close()
            finally:
                source.close()
            os.replace(partial, target)
            return target.stat().st_size

        try:
            if self.path == MEMORY:  # only this connection sees an in-memory database
                out = sqlite3.connect(partial, check_same_thread=False)
                try:
                    async with self._lock:
                        await self._require().backup(out)
                finally:
                    out.close()
                os.replace(partial, target)
                return target.stat().st_size
            return await asyncio.to_thread(work)
        except BaseException:
            with suppress(OSError):
                partial.unlink()
            raise

    async def close(self) -> None:
        """Checkpoint and close; safe to call twice. The connection is closed even if the checkpoint fails."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            async with self._lock:
                await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, ValueError) as exc:
            log.warning("checkpoint on close of %s failed: %s", self.path, exc)
        finally:
            await conn.close()
