"""What every request goes through before a page, and every answer after: the site's safety.

- GET and HEAD only (anything else: 405 with `Allow`), a body over the limit: 413 (a body is
  never read), a query string over the limit: 414,
  a client over its request budget (a token bucket per address, `Budget`): 429 with `Retry-After`;
  behind a reverse proxy the address is the one the proxy passes in `X-Forwarded-For`, trusted
  only on a request from the proxy's own address (`client_of`);
- every answer, errors and aiohttp's own included, carries the strict headers of `HEADERS`:
  a Content-Security-Policy allowing only the site's own script files (no inline script, no
  eval), nosniff, no framing, no referrer to others;
- an error a request causes (bad id, unknown page) is an `HTTPException` answered as a short
  page, never a traceback in the logs; only a bug of the site itself is logged with its trace.
  A request aiohttp's own parser refuses (a line over its 8 KiB limits) is answered 400 by aiohttp,
  before the site and its headers: `RefusedRequests` logs it in one line.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Middleware

from bot.web.options import PROXIES, WebOptions

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
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


def client_of(request: web.Request, forwarded: bool, proxies: Collection[str] = PROXIES) -> str:
    """The address a request's budget is counted on: its own peer's, or, behind a reverse proxy
    (`WebOptions.forwarded`) and only for a request that came from the proxy itself (its peer is
    one of `proxies`), the address the proxy added last to `X-Forwarded-For`. A reader who
    reaches the site directly cannot pick their budget by sending that header."""
    remote = request.remote or "?"
    if forwarded and remote in proxies:
        hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "")[:500].split(",") if h.strip()]
        if hops:
            return hops[-1]
    return remote


def guard(options: WebOptions, error_page: Callable[[web.Request, int], web.Response]) -> Middleware:
    """The middleware: `answer` with one request budget for the whole site."""
    budget = Budget(options.rate, options.burst, options.ticks)

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        return await answer(request, handler, options, budget, error_page)

    return middleware


async def answer(request: web.Request, handler: Handler, options: WebOptions, budget: Budget,
                 error_page: Callable[[web.Request, int], web.Response]) -> web.StreamResponse:
    """Method, size and budget checks, then the page; an error the page raises as a short page."""
    if request.method not in METHODS:
        response = error_page(request, 405)
        response.headers["Allow"] = ", ".join(METHODS)
        return response
    if (request.content_length or 0) > options.max_body:  # a body is never read: a large one is refused
        return error_page(request, 413)
    if len(request.query_string) > options.max_query or len(request.raw_path) > options.max_query * 2:
        return error_page(request, 414)
    wait = budget.take(client_of(request, options.forwarded, options.proxies))
    if wait > 0:
        response = error_page(request, 429)
        response.headers["Retry-After"] = str(max(1, round(wait)))
        return response
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        response = error_page(request, exc.status)
        if "Retry-After" in exc.headers:
            response.headers["Retry-After"] = exc.headers["Retry-After"]
        return response


class RefusedRequests(logging.Filter):
    """On aiohttp's server log: a request its parser refuses before the site sees it (a request
    line or header over aiohttp's own limits, bytes that are not HTTP) is the client's error,
    answered 400 by aiohttp: logged as one line, without a traceback. Anything else passes as is."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError) and 400 <= (exc.code or 400) < 500:
            record.msg, record.args = "refused a malformed request (%s %s)", (exc.code, type(exc).__name__)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def quiet_refusals() -> None:
    """Put `RefusedRequests` on aiohttp's server log (once)."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, RefusedRequests) for f in server_log.filters):
        server_log.addFilter(RefusedRequests())


async def strict_headers(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare`: the strict headers on every answer, whatever made it."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
