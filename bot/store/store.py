"""`Store`: the database a running bot holds open, with one repository per aggregate.

    async with Store.open() as store:            # RALLYBOT_DB or data/rallybot.sqlite3
        rally = await store.rallies.create(...)
        version = await store.append_action(rally.id, rally.version, user_id, log_text(action), snapshot)

or `store = await Store.open(path)` … `await store.close()` (in a `finally`). Opening creates the
file and its folders and migrates an older schema; a newer one is refused (`SchemaTooNew`).
"""

from __future__ import annotations

import os
from collections.abc import Generator, Sequence
from typing import Any

from bot.paths import default_db
from bot.store.actions import Actions
from bot.store.backends import open_database
from bot.store.check import CheckReport, LogProblem, Replay, check
from bot.store.connection import Database
from bot.store.drivers import Drivers
from bot.store.errors import SchemaTooNew, SchemaTooOld
from bot.store.guild_settings import GuildSettings
from bot.store.jobs import Jobs
from bot.store.messages import Messages
from bot.store.migrations import MIGRATIONS, Migration, latest_version, migrate
from bot.store.outbox import Outbox
from bot.store.rallies import Rallies
from bot.store.shards import ShardRegistry


class Store:
    """The open database: `rallies`, `drivers`, `actions`, `messages`, `guilds`, `jobs`, `outbox`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.rallies = Rallies(db)
        self.drivers = Drivers(db)
        self.actions = Actions(db)
        self.messages = Messages(db)
        self.guilds = GuildSettings(db)
        self.jobs = Jobs(db)
        self.outbox = Outbox(db)
        self.shard_processes = ShardRegistry(db)
        #: the two versioned writes of play, at hand: an action + snapshot + version bump (+ status)
        #: in one transaction (`Actions.append`), and a lifecycle change (start...: `Rallies.set_snapshot`)
        self.append_action = self.actions.append
        self.set_snapshot = self.rallies.set_snapshot

    @staticmethod
    def open(
        path: str | os.PathLike[str] | None = None,
        *,
        migrate: bool = True,
        migrations: Sequence[Migration] = MIGRATIONS,
        read_only: bool = False,
    ) -> _Opening:
        """Open (await it, or use `async with`); `path` defaults to `bot.paths.default_db()`.

        With `migrate=False` (read-only tools) an older schema raises `SchemaTooOld` instead of
        being migrated; a newer one always raises `SchemaTooNew`. `read_only` (the web page's
        process) implies `migrate=False` and opens a connection the database itself keeps from
        writing (`bot.store.backends.open_database`).
        """
        return _Opening(path if path is not None else default_db(), migrations, migrate and not read_only, read_only)

    @property
    def path(self) -> str:
        return self.db.path

    async def close(self) -> None:
        """Checkpoint the WAL and close; safe to call twice."""
        await self.db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self.db.user_version()

    async def backup(self, path: str | os.PathLike[str]) -> int:
        """Online backup to `path` while the store stays usable; returns the file size in bytes."""
        return await self.db.backup(path)

    async def check(self, replay: Replay, log_problem: LogProblem | None = None, *,
                    changed_only: bool = False, workers: int = 1) -> CheckReport:
        """Compare the rallies' replayed logs with their stored snapshots (every rally, or only those
        changed since the last check) and, given `log_problem`, check every logged text is
        canonical (see `bot.store.check`)."""
        return await check(self.db, replay, log_problem, changed_only=changed_only, workers=workers)


class _Opening:
    """What `Store.open` returns: awaitable (explicit close) and an async context manager."""

    def __init__(self, path: str | os.PathLike[str], migrations: Sequence[Migration], migrate: bool,
                 read_only: bool = False) -> None:
        self._path = path
        self._migrations = migrations
        self._migrate = migrate
        self._read_only = read_only
        self._store: Store | None = None

    async def _open(self) -> Store:
        db = await open_database(self._path, read_only=self._read_only)
        try:
            if self._migrate:
                await migrate(db, self._migrations)
            else:
                found, known = await db.user_version(), latest_version(self._migrations)
                if found > known:
                    raise SchemaTooNew(db.path, found, known)
                if found < known:
                    raise SchemaTooOld(db.path, found, known)
        except BaseException:
            await db.close()
            raise
        return Store(db)

    def __await__(self) -> Generator[Any, None, Store]:
        return self._open().__await__()

    async def __aenter__(self) -> Store:
        self._store = await self._open()
        return self._store

    async def __aexit__(self, *exc_info: object) -> None:
        if self._store is not None:
            await self._store.close()
