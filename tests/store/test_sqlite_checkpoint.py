"""The SQLite store copies its WAL back into the database file on a thread of its own
(`bot/store/sqlite_checkpoint.py`): never inside a commit on the database thread, the WAL is
reused once checkpointed, nothing is lost, and closing still leaves a clean file."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from bot.store import Store
from bot.store.sqlite_checkpoint import OVERGROWN


async def _fill(store: Store, first: int, rows: int, size: int = 2000) -> None:
    for n in range(first, first + rows):
        await store.db.write(lambda tx, n=n: tx.execute("INSERT INTO ballast (n, pad) VALUES (?, ?)", (n, "x" * size)))


def _wal_frames(path) -> int:
    """Frames in the WAL now (a PASSIVE checkpoint's second figure), read through another connection."""
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0][1])
    finally:
        conn.close()


async def test_the_stores_connection_never_checkpoints_inside_a_commit(tmp_path):
    async with await Store.open(tmp_path / "a.sqlite3") as store:
        assert (await store.db.fetch_one("PRAGMA wal_autocheckpoint"))[0] == 0
        assert store.db.checkpointer is not None and store.db.checkpointer.checkpoints == 0


async def test_the_wal_is_checkpointed_off_the_database_thread_then_reused(tmp_path):
    path = tmp_path / "b.sqlite3"
    async with await Store.open(path) as store:
        await store.db.write(lambda tx: tx.execute("CREATE TABLE ballast (n INTEGER PRIMARY KEY, pad TEXT)"))
        keeper = store.db.checkpointer
        keeper.limit = 1 << 40  # no checkpoint while the WAL fills (one racing the fill would restart it midway)
        threads: set[str] = set()
        original = keeper._checkpoint

        def spying() -> None:
            threads.add(threading.current_thread().name)
            original()

        keeper._checkpoint = spying  # type: ignore[method-assign]
        await _fill(store, 0, 60)  # ~60 commits of a 2 KB row
        keeper.limit = 64 * 1024  # small: the next commit finds the WAL over it, and a checkpoint starts
        await _fill(store, 60, 1)
        await asyncio.to_thread(keeper.wait)
        assert keeper.checkpoints >= 1
        assert threads == {name for name in threads if name.startswith("sqlite-checkpoint")} != set()
        before = _wal_frames(path)
        await asyncio.to_thread(keeper.wait)
        await _fill(store, 61, 1)  # the first commit after a complete checkpoint starts the WAL again
        assert before > 20 and _wal_frames(path) < 5
        assert (await store.db.fetch_one("SELECT COUNT(*) FROM ballast"))[0] == 62
    assert not (tmp_path / "b.sqlite3-wal").exists() or (tmp_path / "b.sqlite3-wal").stat().st_size == 0
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT COUNT(*), SUM(n) FROM ballast").fetchone() == (62, sum(range(62)))
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


async def test_a_wal_that_outgrows_the_background_checkpoints_is_checkpointed_by_the_store(tmp_path):
    """Commits that never pause can keep a background checkpoint from ever completing; past
    OVERGROWN × the limit the store checkpoints itself, so the WAL stays bounded."""
    path = tmp_path / "c.sqlite3"
    async with await Store.open(path) as store:
        await store.db.write(lambda tx: tx.execute("CREATE TABLE ballast (n INTEGER PRIMARY KEY, pad TEXT)"))
        keeper = store.db.checkpointer
        keeper.limit = 16 * 1024
        keeper._checkpoint = lambda: None  # type: ignore[method-assign]  # background checkpoints that never help
        biggest = 0
        for batch in range(30):
            await _fill(store, batch * 10, 10)
            biggest = max(biggest, keeper.wal_bytes())
        assert biggest < (OVERGROWN + 4) * keeper.limit  # without it: 300 commits, about 3 MB of WAL
        assert (await store.db.fetch_one("SELECT COUNT(*) FROM ballast"))[0] == 300


async def test_a_read_only_store_runs_no_checkpoints(tmp_path):
    path = tmp_path / "d.sqlite3"
    async with await Store.open(path):
        pass
    async with await Store.open(path, migrate=False, read_only=True) as reader:
        assert reader.db.checkpointer is None
