"""What every request goes through before a page, and every answer after: the site's safety.

- GET and HEAD only (anything else: 405 with `Allow`), a query string over the limit: 414,
  a client over its request budget (a token bucket per address, `Budget`): 429 with `Retry-After`;
- every answer, errors and aiohttp's own included, carries the strict headers of `HEADERS`:
  a Content-Security-Policy without inline scripts, nosniff, no framing, no referrer to others;
- an error a request causes (bad id, unknown page) is an `HTTPException` answered as a short
  page, never a traceback in the logs; only a bug of the site itself is logged with its trace.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.web.options import WebOptions

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'none'; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}
METHODS = ("GET", "HEAD")
CLIENTS = 10_000  # addresses whose budget is remembered (the oldest are forgotten first)


class Budget:
    """A token bucket per client address: `rate` tokens a second, at most `burst` kept."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str) -> float:
        """0 when the client may go on (a token taken), else the seconds until it may."""
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > CLIENTS:
            self._buckets.popitem(last=False)
        return wait


def client_of(request: web.Request, forwarded: bool) -> str:
    """The address a request's budget is counted on (see `WebOptions.forwarded`)."""
    if forwarded:
        hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "")[:500].split(",") if h.strip()]
        if hops:
            return hops[-1]
    return request.remote or "?"


def guard(options: WebOptions, error_page: Callable[[web.Request, int], web.Response]) -> Middleware:
    """The middleware: method, size and budget checks, then the page; errors as short pages."""
    budget = Budget(options.rate, options.burst)

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method not in METHODS:
            response = error_page(request, 405)
            response.headers["Allow"] = ", ".join(METHODS)
            return response
        if len(request.query_string) > options.max_query or len(request.raw_path) > options.max_query * 2:
            return error_page(request, 414)
        wait = budget.take(client_of(request, options.forwarded))
        if wait > 0:
            response = error_page(request, 429)
            response.headers["Retry-After"] = str(max(1, round(wait)))
            return response
        try:
            return await handler(request)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            return error_page(request, exc.status)

    return middleware


async def strict_headers(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare`: the strict headers on every answer, whatever made it."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
