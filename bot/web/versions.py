"""The pages' data-version reads, shared: one read in flight per page key, its answer given to
every request that arrived meanwhile, and (optionally) remembered for a short time.

Why: a cached page costs its version query and nothing else, so under a storm of readers the
queries are the site's whole cost; each went to the store's one database thread (SQLite), in
front of the next. Shared, a storm of N requests for one page costs one query per round trip of
that query, not N.

Staleness bound: a request sharing a read that started before it arrived sees the data as of
that read's start, at most one query's time (milliseconds) before the request; with
`WebOptions.version_ttl` = T > 0, an answer is also reused for T seconds (the web page's process
uses T ≤ 1 s, the live stream's own poll period), so a page may show data up to T seconds old
(plus a query's time). A rally's live stream that sees a new version forgets that rally's
remembered answers (`forget`), so a page fetched because the stream said "changed" is never
older than the stream's news. T = 0 (the default, and the tests' in-process site): nothing is
remembered, only concurrent reads are shared.

Memory is bounded: at most `size` remembered answers (least recently used first out); reads in
flight are bounded by the requests in flight.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

from bot.web.cache import Lru

T = TypeVar("T")


class SharedReads:
    """`await reads.get(key, read)`: `read()`'s answer, shared with every concurrent caller of
    the same key (and remembered `ttl` seconds when `ttl` > 0). An error of the read reaches every
    caller that shared it and is not remembered."""

    def __init__(self, ttl: float = 0.0, size: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        self.reads = 0  # reads actually made (for tests and measurements)
        self._flying: dict[Hashable, asyncio.Future[Any]] = {}
        self._kept: Lru[Hashable, tuple[float, Any]] = Lru(size)

    async def get(self, key: Hashable, read: Callable[[], Awaitable[T]]) -> T:
        if self.ttl > 0:
            kept = self._kept.get(key)
            if kept is not None and self.clock() - kept[0] < self.ttl:
                answer: T = kept[1]
                return answer
        future = self._flying.get(key)
        if future is None:
            self.reads += 1
            started = self.clock()
            future = asyncio.ensure_future(read())
            self._flying[key] = future
            future.add_done_callback(lambda done: self._landed(key, done, started))
        # shielded: a caller that goes away (its reader hung up) never cancels the others' read
        result: T = await asyncio.shield(future)
        return result

    def _landed(self, key: Hashable, future: asyncio.Future[Any], started: float) -> None:
        """A read ended: no longer shared; its answer kept unless it failed or was forgotten meanwhile."""
        failed = future.cancelled() or future.exception() is not None  # (an error retrieved: never "unseen")
        if self._flying.get(key) is not future:
            return  # forgotten while in flight: its answer may predate the news
        del self._flying[key]
        if self.ttl > 0 and not failed:
            self._kept.put(key, (started, future.result()))

    def forget(self, key: Hashable) -> None:
        """The next `get(key)` reads again: nothing remembered, and a read in flight now is shared
        with no later caller (it may have started before the news)."""
        self._kept.pop(key)
        self._flying.pop(key, None)
