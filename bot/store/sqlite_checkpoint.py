"""`Checkpointer`: the SQLite WAL copied back into the database file on a thread of its own, never
on the thread that runs the bot's transactions.

Why: SQLite checkpoints automatically when a commit leaves the WAL above 1,000 pages, and it does
so inside that commit, on the store's one database thread (`SqliteDatabase`): the commit then
waits for the copy and its fsync, and so does every command queued behind it. Measured by
`bench web` as stalls of 40–180 ms hitting every rally at once every few seconds, with
or without page views: they alone set the command path's p99. So the store's connection turns
automatic checkpoints off (`wal_autocheckpoint = 0`) and, after a write that leaves the WAL file
above `limit` bytes, this class runs a PASSIVE checkpoint on its own connection and thread. The
connection also has `journal_size_limit = 0`: a WAL started again is cut to nothing, so the WAL
file's size is what it holds (SQLite would otherwise keep the file at its largest), which is what
`after_write` reads (one `stat`, no query). A PASSIVE checkpoint never waits for the writer or
readers (SQLite's WAL lets one checkpointer run beside one writer): commits go on meanwhile, the
WAL is reused from its start by the first commit after a complete checkpoint, as with automatic
checkpoints. At most one runs at a time; a failed
one is logged and tried again after the next write. A WAL is reused from its start only by a
commit that follows a complete checkpoint: under commits that never pause, background checkpoints
may never complete, so past `OVERGROWN` × the limit the store checkpoints on its own thread once
(`after_write` says so), as SQLite would have. Durability is unchanged: committed
transactions are in the WAL either way (`synchronous = NORMAL`), and `close()` still truncates it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from concurrent.futures import Future, ThreadPoolExecutor

log = logging.getLogger(__name__)

WAL_LIMIT = 4 * 1024 * 1024  # bytes of WAL that call for a checkpoint (SQLite's default: 1,000 pages of 4 KiB)
OVERGROWN = 16  # × the limit: the WAL outgrew the background checkpoints (writes never paused): the store checkpoints


class Checkpointer:
    """PASSIVE checkpoints of one database file, off the store's thread; `checkpoints` counts them."""

    def __init__(self, path: str, limit: int = WAL_LIMIT, busy_timeout_ms: int = 5000) -> None:
        self.path = path
        self.wal = path + "-wal"
        self.limit = limit
        self.busy_timeout_ms = busy_timeout_ms
        self.checkpoints = 0
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoint")
        self._conn: sqlite3.Connection | None = None  # opened on the checkpoint thread, used only there
        self._running: Future[None] | None = None
        self._lock = threading.Lock()
        self._closed = False

    def wal_bytes(self) -> int:
        try:
            return os.stat(self.wal).st_size
        except OSError:
            return 0

    def after_write(self) -> bool:
        """Called after each write transaction: start a checkpoint when the WAL is over the limit
        and none is running. True: the WAL outgrew the background checkpoints, the caller should
        checkpoint on its own connection now."""
        size = self.wal_bytes()
        if size < self.limit:
            return False
        with self._lock:
            if not self._closed and (self._running is None or self._running.done()):
                self._running = self._thread.submit(self._checkpoint)
        return size >= OVERGROWN * self.limit

    def wait(self) -> None:
        """Until the running checkpoint (if any) is done (tests, close)."""
        running = self._running
        if running is not None:
            running.result()

    def _checkpoint(self) -> None:
        try:
            if self._conn is None:
                self._conn = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_timeout_ms / 1000)
            # fetch all: a statement not run to its end would hold a read lock and keep the WAL from restarting
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.checkpoints += 1
        except sqlite3.Error as exc:  # the next write tries again
            log.warning("background checkpoint of %s failed: %s", self.path, exc)

    def close(self) -> None:
        """Wait for a running checkpoint, close its connection and stop the thread (safe twice)."""
        with self._lock:
            self._closed = True
        self._thread.submit(self._close_conn).result()
        self._thread.shutdown(wait=True)

    def _close_conn(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
