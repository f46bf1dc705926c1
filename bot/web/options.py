"""The web page's settings: limits and the clock (the console moves its own)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.store.clock import utc_now


@dataclass(frozen=True)
class WebOptions:
    """`rate` requests a second per client, up to `burst` at once (then 429); a query string over
    `max_query` characters is refused (414); a body over `max_body` bytes is never read (GET
    only: `client_max_size`). `forwarded`: behind a reverse proxy, the client is the last address
    of `X-Forwarded-For` (the one the proxy added), not the proxy's. `rows`: rows of a ranking."""

    rate: float = 10.0
    burst: int = 60
    max_query: int = 512
    max_body: int = 1024
    forwarded: bool = False
    rows: int = 50
    pages: int = 512  # pages kept in the page cache
    images: int = 64  # pictures kept in the image cache
    clock: Callable[[], datetime] = field(default=utc_now)
