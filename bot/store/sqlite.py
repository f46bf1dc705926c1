"""The SQLite backend: one long-lived connection, its pragmas, and transactions.

Why it is shaped like this (DESIGN §3):
- one `sqlite3` connection per process, owned by one dedicated thread (`SqliteDatabase` runs every
  call on its single-thread executor), `isolation_level=None` so Python's sqlite3 never opens or
  commits a transaction behind our back; WAL (readers never block the writer, a crash loses no
  committed transaction), `synchronous=NORMAL` (in WAL: durable against a process crash, and no
  fsync per commit), `foreign_keys=ON`, `busy_timeout` for other processes (the CLI's backup or
  check while the bot runs);
- a transaction body is a coroutine of a `Tx` (`async def body(tx): await tx.execute(...)`), the
  shape the PostgreSQL backend shares. Here the whole body runs as ONE call on the database
  thread, between `BEGIN IMMEDIATE` and `COMMIT` (ROLLBACK on any error): each `await tx.…`
  completes at once, so nothing else can run inside a transaction, a cancelled caller cannot
  leave it half done (the call finishes or rolls back on the thread), and a commit costs one
  thread round trip instead of one per statement. A body that awaits anything but its own
  statements (Discord, a sleep) is refused and rolled back;
- why not aiosqlite: its public API offers one round trip per statement and no way to run a
  function on its thread except private names. Owning the thread keeps the public-API rule and
  the speed (bench/store.py times it against plain aiosqlite);
- one process per file: `locked()` is an in-process lock (the write lock of `BEGIN IMMEDIATE`
  serialises other processes' writes, and the version check refuses a stale one). Several bot
  processes on one database is what the PostgreSQL backend is for;
- checkpoints run on a thread and connection of their own (`bot/store/sqlite_checkpoint.py`), not
  inside a commit on the database thread: the store's connection has `wal_autocheckpoint = 0`;
- `close()` checkpoints the WAL (`wal_checkpoint(TRUNCATE)`), closes the connection and stops
  the thread.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store.connection import SQLITE, Body, Database, Params, Row, Target, Tx
from bot.store.key_locks import KeyLocks
from bot.store.sqlite_checkpoint import Checkpointer

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000
MEMORY = ":memory:"

T = TypeVar("T")


def _prepare_path(path: str | os.PathLike[str]) -> str:
    location = str(path)
    if location != MEMORY:
        Path(location).parent.mkdir(parents=True, exist_ok=True)
    return location


def _wal(conn: sqlite3.Connection) -> str:
    """Switch to WAL. Two connections opening a new file at once can get "database is locked" here
    without SQLite's busy handler being asked (the switch needs the file alone): wait and retry, up
    to the busy timeout, as for any other lock."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def open_sqlite(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A sqlite3 connection with the store's settings; parent folders are created. Call it on the
    thread that will own the connection."""
    location = _prepare_path(path)
    conn = sqlite3.connect(location, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        mode = _wal(conn)
        if location != MEMORY and str(mode).lower() != "wal":
            log.warning("SQLite refused WAL mode for %s (journal_mode=%s)", location, mode)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        if location != MEMORY:  # the `Checkpointer` copies the WAL back, off the database thread; a WAL
            conn.execute("PRAGMA wal_autocheckpoint = 0")  # started again is cut to nothing, so its file's
            conn.execute("PRAGMA journal_size_limit = 0")  # size is what it holds (what the checkpointer reads)
    except BaseException:
        conn.close()
        raise
    return conn


def open_sqlite_read_only(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """A read-only sqlite3 connection to an existing file (the web page's process): a
    `file:…?mode=ro` URI, so SQLite itself refuses every write, and `query_only` on top; it
    never creates the file, never changes its journal mode (the bot's connection made it WAL) and
    never migrates. Reads see every commit of the bot's process (WAL readers never block it)."""
    location = str(path)
    if location == MEMORY or not location:
        raise ValueError("an in-memory SQLite database cannot be opened by another process")
    uri = Path(location).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.execute("PRAGMA query_only = ON")
        conn.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()  # a missing or unreadable file fails now
    except BaseException:
        conn.close()
        raise
    return conn


async def connect(path: str | os.PathLike[str]) -> aiosqlite.Connection:
    """A plain aiosqlite connection with the store's settings: the benchmark's baseline (what
    ordinary aiosqlite code pays for a commit), on exactly the same pragmas."""
    location = _prepare_path(path)
    conn = await aiosqlite.connect(location, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA wal_autocheckpoint = 0")  # as the store's connection (sqlite_checkpoint.py)
        await conn.execute("PRAGMA journal_size_limit = 0")
    except BaseException:
        await conn.close()
        raise
    return conn


class SqliteTx(Tx):
    """The statements of one open transaction, run at once on the database thread that runs the
    whole body (see the module docstring)."""

    __slots__ = ("_conn",)
    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""
        return self._conn.execute(sql, params).rowcount

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for each parameter row."""
        self._conn.executemany(sql, rows)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a query (or of an `… RETURNING` statement)."""
        return self._conn.execute(sql, params).fetchall()

    async def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in self._conn.execute("SELECT * FROM pragma_table_info(?)", (table,)).fetchall()]

    async def identity(self, table: str) -> int:
        row = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)).fetchone()
        return int(row[0]) if row else 0

    async def set_identity(self, table: str, value: int) -> None:
        """AUTOINCREMENT keeps the largest id ever given in `sqlite_sequence`."""
        if self._conn.execute("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?",
                              (value, table)).rowcount == 0:
            self._conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, value))

    async def user_version(self) -> int:
        """The schema version recorded in the database header."""
        row = await self.fetch_one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def set_user_version(self, version: int) -> None:
        """Record the schema version; transactional, so it commits or rolls back with the step."""
        self._conn.execute(f"PRAGMA user_version = {int(version)}")


class BodyAwaitedOutside(RuntimeError):
    """A transaction body awaited something other than its own statements."""


def run_now(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never really suspends (a body awaiting only `Tx` calls) to its end."""
    try:
        coro.send(None)
    except StopIteration as stop:
        result: T = stop.value
        return result
    coro.close()
    raise BodyAwaitedOutside("a transaction body may await only its own statements (never Discord or a sleep)")


def _as_coroutine(awaitable: Awaitable[T]) -> Coroutine[Any, Any, T]:
    if not isinstance(awaitable, Coroutine):
        raise TypeError("a transaction body must be a coroutine function (async def body(tx): ...)")
    return awaitable


def _transaction(conn: sqlite3.Connection, begin: str, body: Body[T]) -> T:
    """On the database thread: BEGIN, the body, COMMIT; ROLLBACK on any exception."""
    conn.execute(begin)
    try:
        result = run_now(_as_coroutine(body(SqliteTx(conn))))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # SQLite may already have rolled back (disk full, I/O error)
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error as exc:  # keep the original error
                log.error("ROLLBACK failed: %s", exc)
        raise
    return result


class SqliteDatabase(Database):
    """One connection on one thread; transactions and reads; what every repository is built on.

    Every call runs on the database thread in the order it was made, one at a time, so a read
    never sees the inside of a transaction. The caller awaits the result; if it is cancelled, the
    call still completes (or rolls back) on the thread: never half a transaction.
    """

    dialect = SQLITE

    def __init__(self, path: str, conn: sqlite3.Connection, thread: ThreadPoolExecutor,
                 read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self._conn: sqlite3.Connection | None = conn
        self._thread = thread
        self._locks = KeyLocks()  # the keys in use only
        self.checkpointer = None if read_only or path == MEMORY else Checkpointer(path, busy_timeout_ms=BUSY_TIMEOUT_MS)

    @classmethod
    async def open_file(cls, path: Target, *, read_only: bool = False) -> SqliteDatabase:
        """Open (creating the file and its folders if needed) with the store's pragmas; with
        `read_only`, an existing file through `open_sqlite_read_only` (every write refused)."""
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        opener = open_sqlite_read_only if read_only else open_sqlite
        try:
            conn = await asyncio.get_running_loop().run_in_executor(thread, opener, path)
        except BaseException:
            thread.shutdown(wait=False)
            raise
        return cls(str(path), conn, thread, read_only)

    @property
    def closed(self) -> bool:
        return self._conn is None

    def _require(self) -> sqlite3.Connection:
        return self._opened(self._conn)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)

    async def write(self, body: Body[T]) -> T:
        """Run `await body(tx)` in one write transaction (`BEGIN IMMEDIATE`); returns its result.
        A refused or failed change leaves the database exactly as it was. On a read-only store
        SQLite refuses it (`sqlite3.OperationalError`: attempt to write a readonly database)."""
        try:
            return await self._call(_transaction, self._require(), "BEGIN" if self.read_only else "BEGIN IMMEDIATE",
                                    body)
        finally:
            if self.checkpointer is not None and self.checkpointer.after_write():  # copied back off this thread,
                await self.fetch_all("PRAGMA wal_checkpoint(PASSIVE)")  # unless it outgrew that (sqlite_checkpoint.py)

    async def read(self, body: Body[T]) -> T:
        """Run `await body(tx)` inside one read transaction: several queries that see one state."""
        return await self._call(_transaction, self._require(), "BEGIN", body)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of one query (autocommit: one statement sees one consistent state)."""
        conn = self._require()
        return await self._call(lambda: conn.execute(sql, params).fetchall())

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Tx]:
        """An online backup into a temporary file, read through its own connection. Its queries
        run on the caller's thread (a command-line export may block; the bot's thread never is)."""
        with tempfile.TemporaryDirectory(prefix="rallybot-snapshot-") as folder:
            path = Path(folder) / "snapshot.sqlite3"
            await self.backup(path)
            conn = sqlite3.connect(path, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            try:
                yield SqliteTx(conn)
            finally:
                conn.close()

    @asynccontextmanager
    async def locked(self, scope: str, key: int) -> AsyncIterator[None]:
        """An in-process lock: one process serves an SQLite file (see the module docstring)."""
        async with self._locks.hold((scope, key)):
            yield

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Every write commits when its `write` returns: call at once."""
        callback()

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
        await self.fetch_all("PRAGMA wal_checkpoint(TRUNCATE)")

    async def backup(self, dest: Target) -> int:
        """Online backup to `dest` (replaced atomically); returns its size in bytes.

        The copy runs on its own connection in a worker thread, in one step, so it is one
        consistent snapshot and the store keeps serving reads and writes meanwhile (WAL). The copy
        is written beside `dest` and renamed when complete: a crash never leaves half a backup
        under the final name. The result is a single self-contained file (rollback journal mode).
        An in-memory database is copied on the store's own thread.
        """
        conn = self._require()
        target = Path(dest)
        if self.path != MEMORY and target.resolve() == Path(self.path).resolve():
            raise ValueError(f"refusing to back up {self.path} onto itself")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")

        def copy(source: sqlite3.Connection) -> None:
            out = sqlite3.connect(partial)
            try:
                source.backup(out)
                out.execute("PRAGMA journal_mode = DELETE")
            finally:
                out.close()

        def work() -> int:
            source = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000)
            try:
                copy(source)
            finally:
                source.close()
            os.replace(partial, target)
            return target.stat().st_size

        try:
            if self.path == MEMORY:  # only this connection sees an in-memory database
                await self._call(copy, conn)
                os.replace(partial, target)
                return target.stat().st_size
            return await asyncio.to_thread(work)
        except BaseException:
            with suppress(OSError):
                partial.unlink()
            raise

    async def close(self) -> None:
        """Checkpoint, close, stop the thread; safe to call twice. The connection is closed even
        if the checkpoint fails."""
        conn, self._conn = self._conn, None
        if conn is None:
            return

        def finish() -> None:
            try:
                if not self.read_only:  # a reader leaves the bot's WAL to the bot
                    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.warning("checkpoint on close of %s failed: %s", self.path, exc)
            finally:
                conn.close()

        try:
            if self.checkpointer is not None:  # its checkpoint done first: the TRUNCATE then finds the WAL free
                await asyncio.to_thread(self.checkpointer.close)
            await self._call(finish)
        finally:
            self._thread.shutdown(wait=False)
