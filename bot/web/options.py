"""The web page's settings: limits and the clock (the console moves its own)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.store.clock import utc_now

#: the web page's own process (bot/web/process.py) reuses a page's data version this long (seconds)
CHILD_VERSION_TTL = 0.5
#: the web page's own process keeps this many MB of pages, pictures and replayed rallies (the
#: bot's memory plan counts its process with these caches full, `bot.sizing.WEB_MB`)
CHILD_PAGES_MB, CHILD_IMAGES_MB, CHILD_REPLAYS_MB = 8, 8, 4
#: where a reverse proxy's own requests come from: this host (the README's set-up: the proxy
#: passes to 127.0.0.1); `WebOptions.proxies` names others
PROXIES = ("127.0.0.1", "::1", "::ffff:127.0.0.1")


@dataclass(frozen=True)
class WebOptions:
    """`rate` requests a second per client, up to `burst` at once (then 429); a query string over
    `max_query` characters is refused (414); a body over `max_body` bytes is never read (GET
    only: `client_max_size`). `forwarded`: behind a reverse proxy, the client is the last address
    of `X-Forwarded-For` (the one the proxy added), not the proxy's, on a request whose peer is
    one of `proxies` (the proxy's own addresses; default this host's loopback); any other
    request's header is ignored. `rows`: rows of a ranking.
    `live_*`: the rally pages' live streams (bot/web/live.py). `version_ttl`: how long a page's
    data version may be reused without asking the store again (0: only concurrent requests share
    one query; the web page's own process uses `CHILD_VERSION_TTL`; see bot/web/versions.py).
    `public_url`: the site's public address (`RALLYBOT_PUBLIC_URL`): a link's preview (Open Graph)
    names its picture by an absolute address there (None: the site's own paths)."""

    rate: float = 10.0
    burst: int = 60
    max_query: int = 512
    max_body: int = 1024
    forwarded: bool = False
    proxies: tuple[str, ...] = PROXIES
    rows: int = 50
    pages: int = 512  # pages kept in the page cache
    images: int = 64  # pictures kept in the image cache
    pages_mb: int = 16  # and at most this many MB of pages (bounded in bytes too)
    images_mb: int = 16  # and of pictures
    replays_mb: int = 16  # and of ended rallies' replayed turns (`bot.web.site.replay_bytes`)
    live_poll: float = 1.0  # seconds between two reads of a watched rally's version (one poller a rally)
    live_per_client: int = 4  # live streams (GET /rally/N/events) open at once per client …
    live_total: int = 500  # … and on the whole site (then 429)
    live_seconds: float = 300.0  # a stream's life: then it ends and the browser opens another
    live_keepalive: float = 15.0  # seconds of silence before a comment line (a gone reader is noticed)
    version_ttl: float = 0.0  # seconds a page's data version is reused (bot/web/versions.py; ≤ live_poll)
    clock: Callable[[], datetime] = field(default=utc_now)
    ticks: Callable[[], float] = field(default=time.monotonic)  # the request budgets' clock (seconds)
    public_url: str | None = None


def child_caches(options: WebOptions) -> WebOptions:
    """`options` with the web page's own process's cache bounds (20 MB in all)."""
    return replace(options, pages_mb=CHILD_PAGES_MB, images_mb=CHILD_IMAGES_MB, replays_mb=CHILD_REPLAYS_MB)
