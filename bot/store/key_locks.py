"""In-process asyncio locks by key, each kept only while it is held or awaited.

The databases' `locked(scope, key)` queue a process's own writers of a rally or a channel here
(SQLite: the only lock; PostgreSQL: before taking a connection). A lock per key ever locked would
grow with every rally and channel the bot has seen; here a key's lock goes once its last user
leaves, so the table holds only the keys in use now.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager


class KeyLocks:
    """`hold(key)`: one holder per key at a time, the others queue in order of arrival."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}  # key → (its lock, users now)

    @asynccontextmanager
    async def hold(self, key: Hashable) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users <= 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        """The keys in use now (held or awaited)."""
        return len(self._locks)
