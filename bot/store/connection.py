"""The store's contract with its database, whichever backend holds it.

- `Tx`: the statements of one open transaction. Repositories write one SQL text for both backends,
  with `?` placeholders (the PostgreSQL backend numbers them), `RETURNING`, `ON CONFLICT … DO
  UPDATE` and row values, which both dialects read the same way. A statement a constraint may
  refuse, after which the transaction goes on, runs inside `async with tx.attempt():`.
- `Database`: transactions (`write`, `read`), single reads, the cross-process lock `locked(scope,
  key)` (the per-rally and per-round lock), `after_commit`, health check, backup, close.
- `bot.store.backends.open_database(target)` picks the backend: a `postgresql://` (or
  `postgres://`) URL selects PostgreSQL through asyncpg (`bot/store/postgres.py`); a file path
  selects SQLite (`bot/store/sqlite.py`).

What differs between the backends is kept in one place each: their modules above, and the DDL of
the migrations (`bot/store/pg_schema.py` says how SQLite's DDL reads in PostgreSQL).
"""

from __future__ import annotations

import os
import re
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, ClassVar, Concatenate, ParamSpec, Protocol, TypeVar

SQLITE = "sqlite"
POSTGRESQL = "postgresql"

Params = Sequence[Any]
Row = Any  # sqlite3.Row or asyncpg.Record: both read by column name or index
T = TypeVar("T")
Target = str | os.PathLike[str]

_URL = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


def is_postgres_url(target: object) -> bool:
    """Is `target` a PostgreSQL URL (rather than the path of an SQLite file)?"""
    return isinstance(target, str) and bool(_URL.match(target))


def redact(url: str) -> str:
    """A URL fit for logs and messages: its password replaced by `***`."""
    return re.sub(r"^(postgres(?:ql)?://[^:/@]*):[^@/]*@", r"\1:***@", url, flags=re.IGNORECASE)


# SQLSTATE codes of integrity violations (class 23), as PostgreSQL reports them.
_PG_CONSTRAINTS = {"23505": "unique", "23503": "foreign_key", "23514": "check", "23502": "not_null"}
_SQLITE_CONSTRAINTS = {
    "SQLITE_CONSTRAINT_UNIQUE": "unique",
    "SQLITE_CONSTRAINT_PRIMARYKEY": "primary_key",
    "SQLITE_CONSTRAINT_FOREIGNKEY": "foreign_key",
    "SQLITE_CONSTRAINT_CHECK": "check",
    "SQLITE_CONSTRAINT_NOTNULL": "not_null",
}


def constraint_kind(exc: BaseException) -> str | None:
    """'unique', 'foreign_key', 'check', 'not_null' or 'primary_key' for a constraint violation of
    either backend ('other' for another one), else None."""
    state = getattr(exc, "sqlstate", None)  # asyncpg's errors carry the SQLSTATE
    if isinstance(state, str):
        return _PG_CONSTRAINTS.get(state, "other") if state.startswith("23") else None
    import sqlite3

    if not isinstance(exc, sqlite3.IntegrityError):
        return None
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name in _SQLITE_CONSTRAINTS:
        return _SQLITE_CONSTRAINTS[name]
    text = str(exc)
    fallbacks = (("UNIQUE", "unique"), ("FOREIGN KEY", "foreign_key"), ("CHECK", "check"), ("NOT NULL", "not_null"))
    for needle, kind in fallbacks:
        if needle in text:
            return kind
    return "other"


class _NoSavepoint:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc_info: object) -> None:
        return None


class _Queries(ABC):
    """What a transaction and a database both answer: `fetch_all`, and `fetch_one` on top of it."""

    __slots__ = ()

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a query."""

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None (the statement still runs to its end)."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None


class Tx(_Queries):
    """The statements of one open transaction. Methods are coroutines so that a body reads the
    same on every backend."""

    __slots__ = ()
    dialect: ClassVar[str]

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for each parameter row."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of a query (or of an `… RETURNING` statement)."""

    @abstractmethod
    async def user_version(self) -> int:
        """The schema version this database records (how many migration steps were applied)."""

    @abstractmethod
    async def set_user_version(self, version: int) -> None:
        """Record the schema version; transactional, so it commits or rolls back with the step."""

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """The column names of `table`, in their order ([] when there is no such table)."""

    @abstractmethod
    async def identity(self, table: str) -> int:
        """The last id `table`'s id column handed out (0 before the first): new rows get larger ones."""

    @abstractmethod
    async def set_identity(self, table: str, value: int) -> None:
        """Make `table`'s next id larger than `value` (after rows were copied in with their ids)."""

    async def lock(self, scope: str, key: int) -> None:
        """Until this transaction ends, be the only one holding (`scope`, `key`): a read-modify-write
        body (merging settings, numbering a league's rounds) takes it before it reads. SQLite:
        nothing to do, a write transaction already excludes every other writer."""
        return None

    def skip_locked(self, table: str) -> str:
        """The clause a claim's row query ends with so that two processes claiming at once take
        different rows (`FOR UPDATE OF table SKIP LOCKED` on PostgreSQL). SQLite: nothing, its write
        transaction holds the whole file."""
        return ""

    def attempt(self) -> AbstractAsyncContextManager[None]:
        """Around a statement a constraint may refuse (an INSERT that can meet a unique key), when
        the body goes on after the refusal: PostgreSQL aborts a whole transaction on an error
        unless the statement ran in a savepoint; SQLite needs nothing."""
        return _NoSavepoint()


Body = Callable[[Tx], Awaitable[T]]
P = ParamSpec("P")


class Repository(Protocol):
    """A repository: methods over the database it was built with."""

    _db: Database


def in_write(body: Callable[Concatenate[Tx, P], Awaitable[T]]) -> Callable[Concatenate[Repository, P], Awaitable[T]]:
    """The repository method that runs `body(tx, ...)` in a write transaction of its own: the
    method and the in-transaction function keep one signature and one docstring."""

    async def method(self: Repository, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._db.write(lambda tx: body(tx, *args, **kwargs))

    method.__doc__ = body.__doc__
    method.__name__ = method.__qualname__ = body.__name__.removesuffix("_tx")
    return method


class Database(_Queries):
    """An open database: transactions and reads; what every repository is built on."""

    dialect: ClassVar[str]
    path: str  # the file, or the URL without its password

    @property
    @abstractmethod
    def closed(self) -> bool: ...

    def _opened(self, handle: T | None) -> T:
        """The backend's `handle` (its pool, its connection) while the store is open; once it is
        closed, an error naming the store."""
        if handle is None:
            raise RuntimeError(f"the store {self.path} is closed")
        return handle

    @abstractmethod
    async def write(self, body: Body[T]) -> T:
        """Run `await body(tx)` in one write transaction; returns its result. A refused or failed
        change leaves the database exactly as it was."""

    @abstractmethod
    async def read(self, body: Body[T]) -> T:
        """Run `await body(tx)` inside one read transaction: several queries that see one state."""

    async def write_one(self, body: Body[T]) -> T:
        """`write` for a body of exactly ONE statement (a claim's `UPDATE … RETURNING`): atomic by
        itself, so PostgreSQL sends it alone outside a lock (one round trip, not BEGIN, the
        statement and COMMIT); elsewhere, and under a lock, it is `write`."""
        return await self.write(body)

    async def read_one(self, body: Body[T]) -> T:
        """`read` for a body of exactly ONE query: one statement sees one consistent state by
        itself, so PostgreSQL runs it without a transaction around it; elsewhere it is `read`."""
        return await self.read(body)

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """All rows of one query (one statement sees one consistent state)."""

    @abstractmethod
    async def user_version(self) -> int: ...

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Tx]:
        """The whole database as it is now, to read at length (an export, `db copy`): a `Tx` whose
        queries all see this one moment while others keep writing."""

    @abstractmethod
    def locked(self, scope: str, key: int) -> AbstractAsyncContextManager[None]:
        """Hold the lock of (`scope`, `key`), e.g. ("rally", 12): one holder at a time in every
        process of this database. Code that changes a rally re-reads and commits under it."""

    @abstractmethod
    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call `callback` once what was written so far is visible to everyone: at once, or when
        the lock this task holds is released (PostgreSQL commits the held lock's transaction then)."""

    @abstractmethod
    async def integrity_check(self) -> list[str]:
        """The database's own consistency problems; [] when healthy."""

    @abstractmethod
    async def backup(self, dest: Target) -> int:
        """Copy everything to the file `dest`; returns its size in bytes."""

    @abstractmethod
    async def close(self) -> None:
        """Close; safe to call twice."""
