"""The PostgreSQL backend (asyncpg): a connection pool, transactions, and the locks several bot
processes share.

Why it is shaped like this (DESIGN §3):
- one pool per process (`RALLYBOT_DB_POOL` connections, default 8): hosts that offer PostgreSQL
  count connections, and a command holds one only while it talks to the database; the bot's pool
  opens them all when the store opens (the web page's read-only pool one), so no command waits
  for a new connection (a server process forked, authenticated, its caches cold): with pools
  opened on demand, N shard processes restarted under traffic opened N × 8 at once and their
  first commands waited for them (`bench live --processes 4`);
- the repositories' SQL is shared with SQLite: `?` placeholders are numbered here (`$1`, `$2`…;
  outside quotes), the schema's DDL is translated by `bot/store/pg_schema.py`, times and JSON stay
  TEXT (the exact bytes SQLite keeps, so `db copy` and `db check` compare equal) with the "C"
  collation (SQLite's byte order);
- `locked(scope, key)` is a database guarantee across processes: it opens a transaction on a
  pooled connection and takes `pg_advisory_xact_lock(scope, key)`; everything the task does
  while it holds the lock (re-reading the rally, the commit of its change) runs on that
  connection, each `write` in a savepoint, and the transaction commits when the lock is released,
  which releases the lock. Nothing waits for Discord inside it (the outbox sends after), and a
  process killed with -9 loses its connection, so the server ends the transaction and the lock;
- what was written under a lock stays written when the block ends with an error, as on SQLite
  where each `write` commits by itself (a failing `write` rolls back to its own savepoint); but a
  statement that fails outside a write (a read) aborts the whole transaction, which PostgreSQL
  then rolls back at its end: the block then raises rather than report a commit (SQLite would
  have kept the writes: no code under a lock goes on after a failed read). `after_commit`
  callbacks (waking the outbox sender) run once the lock's transaction committed, so a sender in
  another task sees the rows;
- reads outside a lock see one snapshot (`REPEATABLE READ`, read only); writes are `READ
  COMMITTED`, the version check (`UPDATE … WHERE version = ?`) and unique keys refuse the loser
  of a race, and claims of due jobs and owed posts use `FOR UPDATE SKIP LOCKED`;
- the schema version lives in `rallybot_schema` (SQLite keeps it in `PRAGMA user_version`), read
  under an advisory lock inside a migration step, so two processes starting at once apply each
  step once.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from bot.store.connection import POSTGRESQL, Body, Database, Params, Row, Target, Tx, redact
from bot.store.key_locks import KeyLocks

T = TypeVar("T")

POOL_SIZE = 8
READ_ONLY_POOL = 4  # at most this many for a read-only pool (the web page's process: short reads)
CLOSE_TIMEOUT_S = 10.0
SCHEMA_TABLE = "rallybot_schema"
# Advisory lock keys: (scope, key) as two int4; a key is folded into 31 bits (two ids that fold
# together only wait for each other, never share a holder).
SCOPES = {"schema": 0, "rally": 1, "round": 2, "guild": 3, "league": 4, "ratings": 5}
_KEY_MASK = 0x7FFFFFFF
_LOCK = "SELECT pg_advisory_xact_lock($1, $2)"


@lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """The statement with `?` placeholders numbered for PostgreSQL (`$1`, `$2`…), outside quotes."""
    out: list[str] = []
    count = 0
    quoted: str | None = None
    for ch in sql:
        if quoted is not None:
            if ch == quoted:
                quoted = None
        elif ch in ("'", '"'):
            quoted = ch
        elif ch == "?":
            count += 1
            out.append(f"${count}")
            continue
        out.append(ch)
    return "".join(out)


_STATUS_COUNT = re.compile(r"(\d+)$")


def rowcount(status: str) -> int:
    """The number of rows a command tag reports (`UPDATE 3`, `INSERT 0 1`); -1 for DDL."""
    found = _STATUS_COUNT.search(status or "")
    return int(found.group(1)) if found else -1


def lock_key(scope: str, key: int) -> tuple[int, int]:
    if scope not in SCOPES:
        raise ValueError(f"unknown lock scope {scope!r}; expected one of {', '.join(SCOPES)}")
    return SCOPES[scope], int(key) & _KEY_MASK


class PgTx(Tx):
    """The statements of one open transaction on one pooled connection."""

    __slots__ = ("_conn",)
    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        return rowcount(await self._conn.execute(numbered(sql), *params))

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._conn.executemany(numbered(sql), batch)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._conn.fetch(numbered(sql), *params))

    async def user_version(self) -> int:
        """The schema version, read under the schema's advisory lock (held to the end of this
        transaction): a second process migrating at the same moment waits, then sees the step done."""
        await self._conn.execute(_LOCK, *lock_key("schema", 0))
        return await _schema_version(self._conn)

    async def set_user_version(self, version: int) -> None:
        await self._conn.execute(
            f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} "
            "(id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)")
        await self._conn.execute(
            f"INSERT INTO {SCHEMA_TABLE} (id, version) VALUES (1, $1) "
            "ON CONFLICT (id) DO UPDATE SET version = excluded.version", int(version))

    async def columns(self, table: str) -> list[str]:
        rows = await self._conn.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = $1 ORDER BY ordinal_position", table)
        return [str(r[0]) for r in rows]

    async def identity(self, table: str) -> int:
        """The last value of the id column's sequence (IDENTITY): 0 before the first id."""
        sequence = await self._conn.fetchval("SELECT pg_get_serial_sequence($1, 'id')", table)
        if sequence is None:
            return 0
        row = await self._conn.fetchrow(f"SELECT last_value, is_called FROM {sequence}")
        return int(row[0]) if row and row[1] else 0

    async def set_identity(self, table: str, value: int) -> None:
        sequence = await self._conn.fetchval("SELECT pg_get_serial_sequence($1, 'id')", table)
        if sequence is not None and value > 0:
            await self._conn.execute("SELECT setval($1::regclass, GREATEST($2::bigint, "
                                     f"(SELECT COALESCE(MAX(id), 0) FROM {table})))", sequence, value)

    async def lock(self, scope: str, key: int) -> None:
        await self._conn.execute(_LOCK, *lock_key(scope, key))

    def skip_locked(self, table: str) -> str:
        return f" FOR UPDATE OF {table} SKIP LOCKED"

    def attempt(self) -> AbstractAsyncContextManager[None]:
        """A savepoint: a refused statement rolls back to it and the transaction goes on."""
        return savepoint(self._conn)


_SAVEPOINT_IDS = itertools.count(1)


@asynccontextmanager
async def savepoint(conn: asyncpg.Connection) -> AsyncIterator[None]:
    """A savepoint in the connection's open transaction: an error inside rolls the block back to
    it (the transaction goes on without what the block wrote) and is raised again. One that
    succeeded is not released: the transaction's end releases it with the others, one round trip
    fewer for every write made under a lock (a command's commit, a delivery's record)."""
    name = f"rallybot_{next(_SAVEPOINT_IDS)}"
    await conn.execute(f"SAVEPOINT {name}")
    try:
        yield
    except BaseException:
        await conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
        raise


async def _schema_version(conn: asyncpg.Connection) -> int:
    # Asked of the catalogue as a query (this statement's snapshot), not with `to_regclass`: that
    # looks the name up in the connection's cache, which can still say "no such table" after
    # another process created it and released the schema lock we waited for, and the step would
    # then run twice.
    if not await conn.fetchval("SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables "
                               "WHERE schemaname = current_schema() AND tablename = $1)", SCHEMA_TABLE):
        return 0
    value = await conn.fetchval(f"SELECT version FROM {SCHEMA_TABLE} WHERE id = 1")
    return int(value or 0)


@dataclass
class _Held:
    """The transaction of the locks one task holds: its connection, and what waits for the commit."""

    db: PgDatabase
    conn: asyncpg.Connection
    task: asyncio.Task[Any] | None
    after: list[Callable[[], None]] = field(default_factory=list)


_HELD: ContextVar[_Held | None] = ContextVar("rallybot_pg_held", default=None)


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """The pool's `reset` for a connection coming back: asyncpg rolls back a transaction left open
    in any case; the rest of its default reset (`RESET ALL`, `UNLISTEN *`, unlock every advisory
    lock: one more round trip per transaction) has nothing to undo here, since the store sets no
    session setting, listens to nothing and only takes locks that end with their transaction."""
    return None


def _count_setting(name: str, default: int) -> int:
    """The environment's `name`, a whole number from 1 to 100; `default` when it is not set."""
    raw = os.environ.get(name, "")
    if not raw:
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= 100:
        raise ValueError(f"{name} must be a whole number from 1 to 100, got {raw!r}")
    return int(raw)


def pool_size() -> int:
    """Connections per process: `RALLYBOT_DB_POOL` (1…100), else 8."""
    return _count_setting("RALLYBOT_DB_POOL", POOL_SIZE)


def opened_at_start(size: int) -> int:
    """How many of the bot's `size` connections open with the store: all of them (see the module
    docstring), or `RALLYBOT_DB_POOL_OPEN` when set (at most `size`; the tests open one, their
    stores serve a few statements each)."""
    return min(size, _count_setting("RALLYBOT_DB_POOL_OPEN", size))


class PgDatabase(Database):
    """A pool of connections to one PostgreSQL database (see the module docstring)."""

    dialect = POSTGRESQL

    def __init__(self, url: str, pool: asyncpg.Pool, read_only: bool = False) -> None:
        self.url = url
        self.path = redact(url)
        self.read_only = read_only
        self._pool: asyncpg.Pool | None = pool
        self._locks = KeyLocks()  # the keys in use only

    @classmethod
    async def connect(cls, url: str, *, size: int | None = None, read_only: bool = False) -> PgDatabase:
        """A pool on `url` (`postgresql://user:password@host:port/name`). With `read_only` (the web
        page's process) every session is `default_transaction_read_only`: the server refuses any
        write (`ReadOnlySQLTransactionError`), whatever the code asks."""
        count = size or (min(pool_size(), READ_ONLY_POOL) if read_only else pool_size())
        settings = {"application_name": "rallybot-web" if read_only else "rallybot"}
        if read_only:
            settings["default_transaction_read_only"] = "on"
        warm = 1 if read_only else opened_at_start(count)
        pool = await asyncpg.create_pool(url, min_size=warm, max_size=count, reset=_nothing_to_reset,
                                         server_settings=settings)
        return cls(url, pool, read_only)

    @property
    def closed(self) -> bool:
        return self._pool is None

    def _require(self) -> asyncpg.Pool:
        return self._opened(self._pool)

    def _held(self) -> _Held | None:
        """The lock transaction of the running task on this database, if it holds one."""
        held = _HELD.get()
        if held is None or held.db is not self or held.task is not asyncio.current_task():
            return None  # another database's, or inherited by a task started inside the block
        return held

    async def write(self, body: Body[T]) -> T:
        held = self._held()
        if held is not None:
            async with savepoint(held.conn):  # in the lock's transaction
                return await body(PgTx(held.conn))
        async with self._require().acquire() as conn, conn.transaction():
            return await body(PgTx(conn))

    async def write_one(self, body: Body[T]) -> T:
        held = self._held()
        if held is not None:
            return await self.write(body)
        async with self._require().acquire() as conn:  # the statement is its own transaction
            return await body(PgTx(conn))

    async def read_one(self, body: Body[T]) -> T:
        held = self._held()
        if held is not None:
            return await body(PgTx(held.conn))
        async with self._require().acquire() as conn:  # one statement sees one snapshot
            return await body(PgTx(conn))

    async def read(self, body: Body[T]) -> T:
        held = self._held()
        if held is not None:
            return await body(PgTx(held.conn))
        async with self._require().acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            return await body(PgTx(conn))

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        held = self._held()
        if held is not None:
            return list(await held.conn.fetch(numbered(sql), *params))
        return list(await self._require().fetch(numbered(sql), *params))

    async def user_version(self) -> int:
        async with self._require().acquire() as conn:
            return await _schema_version(conn)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Tx]:
        """A read-only `REPEATABLE READ` transaction on its own connection, for as long as needed."""
        async with self._require().acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            yield PgTx(conn)

    @asynccontextmanager
    async def locked(self, scope: str, key: int) -> AsyncIterator[None]:
        code = lock_key(scope, key)
        async with self._locks.hold((scope, key)):  # waiters of this process queue here, not on connections
            held = self._held()
            if held is not None:  # a second lock joins the transaction the task already holds
                await held.conn.execute(_LOCK, *code)
                yield
                return
            async with self._require().acquire() as conn:
                # BEGIN and the lock in one round trip (a simple query of two statements: the two
                # numbers are ints made by `lock_key`, nothing else is written into it); the
                # transaction is this block's, ended by `_finish`, savepoints inside it by `savepoint`.
                try:
                    await conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({int(code[0])}, {int(code[1])})")
                except BaseException:  # cancelled while it waited for the lock, or refused: nothing to keep
                    with suppress(Exception):
                        await conn.execute("ROLLBACK")
                    raise
                held = _Held(self, conn, asyncio.current_task())
                token = _HELD.set(held)
                try:
                    yield
                except BaseException:
                    _HELD.reset(token)
                    await self._finish(conn)  # what was written stands (see the module docstring)
                    raise
                _HELD.reset(token)
                if not await self._finish(conn):
                    raise RuntimeError(
                        f"the transaction of the lock ({scope}, {key}) had failed (a statement under it failed outside "
                        "a write): PostgreSQL rolled it back at its end, nothing written under the lock was kept")
            for callback in held.after:
                callback()

    @staticmethod
    async def _finish(conn: asyncpg.Connection) -> bool:
        """COMMIT the lock's transaction; False when PostgreSQL rolled it back instead (its answer to
        COMMIT in a transaction a failed statement aborted: no error, the tag says ROLLBACK)."""
        try:
            status = await conn.execute("COMMIT")
        except BaseException:
            with suppress(Exception):
                await conn.execute("ROLLBACK")
            raise
        return status != "ROLLBACK"

    def after_commit(self, callback: Callable[[], None]) -> None:
        held = self._held()
        if held is None:
            callback()
        else:
            held.after.append(callback)

    async def integrity_check(self) -> list[str]:
        """Indexes PostgreSQL marked invalid (a failed concurrent build); keys and foreign keys are
        enforced by the server itself."""
        rows = await self.fetch_all(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE NOT i.indisvalid AND n.nspname = current_schema()")
        return [f"invalid index: {r[0]}" for r in rows]

    async def backup(self, dest: Target) -> int:
        """A portable export: every table copied into the SQLite file `dest` (any rallybot opens
        it; `python -m bot db copy` brings it back). For a backup of the server itself, `pg_dump`."""
        from bot.store.copy import export_to_file

        return await export_to_file(self, Path(dest))

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            await asyncio.wait_for(pool.close(), CLOSE_TIMEOUT_S)
        except TimeoutError:
            pool.terminate()
