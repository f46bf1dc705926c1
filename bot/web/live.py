"""A rally's page, live: `GET /rally/N/events` is a stream of server-sent events
(`text/event-stream`) that says when the rally's version changes, so the page's small script
(`static/live.js`) fetches the page again and swaps its board and turn log without a reload.
Without the script the page still works: a refresh shows the same.

One shared poller per rally (`Feed`), however many readers: it reads the rally's data version
(`bot/store/web.py` `rally_version_tx`, with `rally_public_tx`: a rally whose league turns private
ends its streams) every `live_poll` seconds while someone listens, and stops with its last
reader. Bounded (`Hub`): at most `live_per_client` streams per client address and `live_total` in
all (then 429, like any over-budget request), each closed after `live_seconds` (the browser's
EventSource comes back on its own), a comment every `live_keepalive` seconds so a gone reader is
noticed. Nothing waits but on the event loop's timers and the store's async reads: no thread, no
blocking call. A feed that sees a new version makes the site's shared read of that rally stale
(`SharedReads.forget`): the page the event makes a browser fetch is never older than the event.

The events carry no text and nothing hidden: `version` with `{"version": token}` (the page's
`data-version`, `token`), and `end` when the rally is over, gone or no longer public.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator

from aiohttp import web

from bot.store import Rally, Store
from bot.store.connection import Tx
from bot.store.web import rally_public_tx, rally_version_tx
from bot.web.guard import client_of
from bot.web.options import WebOptions
from bot.web.versions import SharedReads

log = logging.getLogger(__name__)

LIVE_STATUSES = ("lobby", "running")  # a rally in these may still change: its page listens
RETRY_MS = 5000  # how long a browser waits before coming back after a stream ended


def rally_key(rally_id: int) -> tuple[str, int]:
    """The key of a rally's shared reads (bot/web/versions.py) that a new version makes stale."""
    return ("rally", rally_id)


def token(version: object, status: object) -> str:
    """What the page and the events call a rally's version (the page swaps when it differs)."""
    return f"{version}-{status}"


def frame(event: str, data: object) -> bytes:
    """One server-sent event (its data one line of JSON)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


class Feed:
    """One rally's shared poller: `version` is its latest token (None until read, "" when the
    rally is gone or private); readers wait on `changed()`."""

    def __init__(self, hub: Hub, rally: Rally) -> None:
        self.hub = hub
        self.rally = rally
        self.version: str | None = None
        self.over = False  # the rally will not change any more (finished, abandoned)
        self.readers = 0
        self._event = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def read(self) -> str:
        """The rally's token now, "" when it is gone or no longer public."""
        rally = self.rally

        async def read(tx: Tx) -> str:
            found = await rally_version_tx(tx, rally.id)
            if not found or await rally_public_tx(tx, rally.id, rally.guild_id, rally.channel_id) is None:
                return ""
            self.over = found[1] not in LIVE_STATUSES
            return token(*found)

        return await self.hub.store.db.read(read)

    def publish(self, version: str) -> None:
        if version != self.version:
            if self.hub.versions is not None:  # the page the news makes readers fetch must be the new one
                self.hub.versions.forget(rally_key(self.rally.id))
            self.version = version
            self._event.set()
            self._event = asyncio.Event()

    async def changed(self, seen: str | None, timeout: float) -> bool:
        """Wait until the version is not `seen` (True) or `timeout` seconds pass (False)."""
        if self.version != seen and self.version is not None:
            return True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)
        return self.version != seen and self.version is not None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._poll(), name=f"web-live-{self.rally.id}")

    async def _poll(self) -> None:
        while self.readers > 0 and not self.hub.closing:
            try:
                self.publish(await self.read())
            except asyncio.CancelledError:
                raise
            except Exception:  # a store hiccup: tell nobody, try again next time
                log.exception("the live version of rally %s could not be read", self.rally.id)
            if self.version == "":
                if self.hub.feeds.get(self.rally.id) is self:  # a later reader starts afresh
                    del self.hub.feeds[self.rally.id]
                return
            await asyncio.sleep(self.hub.options.live_poll)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


class Hub:
    """The live streams of one site: the feeds by rally and the counts the limits read."""

    def __init__(self, store: Store, options: WebOptions, versions: SharedReads | None = None) -> None:
        self.store = store
        self.options = options
        self.versions = versions
        self.feeds: dict[int, Feed] = {}
        self.clients: Counter[str] = Counter()
        self.closing = False

    @property
    def total(self) -> int:
        return sum(self.clients.values())

    def admits(self, client: str) -> bool:
        """Whether `client` may open one more stream (its own and the site's limits)."""
        return (not self.closing and self.clients[client] < self.options.live_per_client
                and self.total < self.options.live_total)

    @contextlib.asynccontextmanager
    async def listen(self, client: str, rally: Rally) -> AsyncIterator[Feed]:
        """A reader of `rally`'s feed for the time of the block (counted against the limits)."""
        self.clients[client] += 1
        feed = self.feeds.get(rally.id)
        if feed is None:
            feed = self.feeds[rally.id] = Feed(self, rally)
        feed.readers += 1
        feed.start()
        try:
            yield feed
        finally:
            feed.readers -= 1
            if feed.readers == 0:
                feed.stop()
                if self.feeds.get(rally.id) is feed:
                    del self.feeds[rally.id]
            self.clients[client] -= 1
            if self.clients[client] <= 0:
                del self.clients[client]

    async def close(self, app: web.Application | None = None) -> None:
        """`on_shutdown`: every stream ends now (the server does not wait minutes for them)."""
        self.closing = True
        for feed in list(self.feeds.values()):
            feed.stop()
            feed.publish("")


async def stream(request: web.Request, hub: Hub, rally: Rally) -> web.StreamResponse:
    """The events of `rally` for one reader, until it is over, the reader goes, or time is up."""
    options = hub.options
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                           "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
    if request.method == "HEAD":
        await response.prepare(request)
        return response
    async with hub.listen(client_of(request, options.forwarded, options.proxies), rally) as feed:
        await response.prepare(request)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + options.live_seconds
        seen: str | None = None
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while True:
                left = deadline - loop.time()
                if left <= 0:
                    break
                if await feed.changed(seen, min(left, options.live_keepalive)):
                    seen = feed.version
                    if seen == "" or seen is None:
                        await response.write(frame("end", {}))
                        break
                    await response.write(frame("version", {"version": seen}))
                    if feed.over:
                        await response.write(frame("end", {"version": seen}))
                        break
                else:
                    await response.write(b": keep-alive\n\n")
        except (ConnectionResetError, ConnectionError):
            pass  # the reader went away
    with contextlib.suppress(ConnectionError, RuntimeError):
        await response.write_eof()
    return response
