"""The site's request budgets (bot/web/guard.py), by their rule and on a clock the test moves:
each reader's address has its own token bucket (`burst` requests at once, then `rate` a second);
a reader over it gets 429 with a `Retry-After` of the seconds until their next token; behind a
reverse proxy a reader is the address the proxy adds to `X-Forwarded-For`, trusted only on a
request that comes from the proxy itself; a request aiohttp's parser refuses before the site is
one line on the server's log, without a traceback.

Requests go through the guard itself (`guard(...)` with a page that answers 200), from the peer
addresses the test chooses."""

from __future__ import annotations

import logging
from unittest import mock

import pytest
from aiohttp import web
from aiohttp.http_exceptions import BadHttpMessage, HttpProcessingError, LineTooLong
from aiohttp.test_utils import make_mocked_request

from bot.web.guard import Budget, RefusedRequests, client_of, guard, quiet_refusals
from bot.web.options import WebOptions


class Ticks:
    """A monotonic clock the test moves (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def request(peer: str | None, forwarded_for: str | None = None, path: str = "/", method: str = "GET",
            headers: dict[str, str] | None = None) -> web.Request:
    """A request from `peer` (None: a peer aiohttp cannot name), with `X-Forwarded-For` if given."""
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda key, default=None: (
        (peer, 40000) if key == "peername" and peer is not None else default)
    sent = dict(headers or {})
    if forwarded_for is not None:
        sent["X-Forwarded-For"] = forwarded_for
    return make_mocked_request(method, path, headers=sent, transport=transport)


def error_page(request: web.Request, status: int) -> web.Response:
    return web.Response(status=status, text=str(status))


async def page(request: web.Request) -> web.Response:
    return web.Response(text="page")


class Site:
    """The guard in front of a page that answers 200, on the test's clock."""

    def __init__(self, **options) -> None:
        self.ticks = Ticks()
        self.middleware = guard(WebOptions(ticks=self.ticks, **options), error_page)

    async def get(self, peer: str | None, forwarded_for: str | None = None) -> web.StreamResponse:
        return await self.middleware(request(peer, forwarded_for), page)

    async def statuses(self, peer: str | None, times: int, forwarded_for: str | None = None) -> list[int]:
        return [(await self.get(peer, forwarded_for)).status for _ in range(times)]


# -- the budget ------------------------------------------------------------------------------------

def test_a_bucket_gives_its_burst_then_one_token_per_interval_never_more_than_the_burst():
    ticks = Ticks()
    budget = Budget(rate=2.0, burst=3, clock=ticks)
    assert [budget.take("a") for _ in range(3)] == [0, 0, 0]
    assert budget.take("a") == pytest.approx(0.5)  # empty: the next token in 1 / rate seconds
    ticks.now += 0.25
    assert budget.take("a") == pytest.approx(0.25)  # half a token back: a quarter second to go
    ticks.now += 0.25
    assert budget.take("a") == 0  # a whole token: taken
    assert budget.take("a") == pytest.approx(0.5)
    ticks.now += 3600  # an hour idle refills the bucket to its burst, not beyond
    assert [budget.take("a") for _ in range(4)][3] > 0
    assert budget.take("b") == 0  # another reader: a bucket of their own, full


def test_the_oldest_readers_are_forgotten_past_the_remembered_count(monkeypatch):
    monkeypatch.setattr("bot.web.guard.CLIENTS", 2)
    budget = Budget(rate=0.001, burst=1, clock=Ticks())
    assert budget.take("a") == 0 and budget.take("a") > 0
    budget.take("b")
    budget.take("c")  # a third reader: the oldest ("a") is forgotten …
    assert budget.take("a") == 0  # … and starts again with a full bucket
    assert budget.take("c") > 0  # a recent one is still remembered


# -- through the guard -----------------------------------------------------------------------------

async def test_the_default_budget_answers_429_with_retry_after_once_spent():
    """With the site's defaults (60 at once, then 10 a second), request 61 in the same instant is
    refused with `Retry-After: 1` (the next token is a tenth of a second away: at least 1 is said),
    and a tenth of a second later one more goes through."""
    site = Site()
    defaults = WebOptions()
    assert await site.statuses("203.0.113.5", defaults.burst) == [200] * defaults.burst
    refused = await site.get("203.0.113.5")
    assert refused.status == 429 and refused.headers["Retry-After"] == "1"
    site.ticks.now += 1 / defaults.rate
    assert (await site.get("203.0.113.5")).status == 200
    assert (await site.get("203.0.113.5")).status == 429


async def test_retry_after_says_the_seconds_until_the_next_token():
    site = Site(rate=0.1, burst=1)  # a token every 10 s
    assert await site.statuses("203.0.113.5", 2) == [200, 429]
    site.ticks.now += 4
    refused = await site.get("203.0.113.5")
    assert refused.status == 429 and refused.headers["Retry-After"] == "6"
    site.ticks.now += 6
    assert (await site.get("203.0.113.5")).status == 200


async def test_each_reader_has_a_budget_of_their_own():
    site = Site(rate=0.01, burst=2)
    assert await site.statuses("203.0.113.5", 3) == [200, 200, 429]
    assert await site.statuses("198.51.100.7", 3) == [200, 200, 429]  # not spent by the first reader
    assert await site.statuses("2001:db8::1", 2) == [200, 200]


async def test_a_reader_without_a_known_address_does_not_spend_the_others_budget():
    site = Site(rate=0.01, burst=1)
    assert await site.statuses(None, 2) == [200, 429]  # the unnamed peers share one budget …
    assert await site.statuses("203.0.113.5", 1) == [200]  # … which is not a named reader's


# -- behind a reverse proxy ------------------------------------------------------------------------

def test_the_forwarded_address_is_trusted_only_from_the_proxy_itself():
    chain = "198.51.100.1, 203.0.113.9"  # a reader's own claim, then the address the proxy saw
    assert client_of(request("127.0.0.1", chain), True) == "203.0.113.9"  # from the proxy: the proxy's word
    assert client_of(request("::1", chain), True) == "203.0.113.9"
    assert client_of(request("192.0.2.44", chain), True) == "192.0.2.44"  # straight to the site: its peer
    assert client_of(request("127.0.0.1", chain), False) == "127.0.0.1"  # no proxy configured
    assert client_of(request("127.0.0.1", " , "), True) == "127.0.0.1"  # an empty header: the peer
    assert client_of(request("10.0.0.2", chain), True, ("10.0.0.2",)) == "203.0.113.9"  # a proxy elsewhere
    assert client_of(request("127.0.0.1", chain), True, ("10.0.0.2",)) == "127.0.0.1"


async def test_a_reader_reaching_the_site_directly_cannot_pick_a_new_budget_with_the_header():
    site = Site(rate=0.01, burst=2, forwarded=True)
    claims = [f"192.0.2.{n}" for n in range(5)]
    assert [(await site.get("203.0.113.66", claim)).status for claim in claims] == [200, 200, 429, 429, 429]
    # through the proxy, each forwarded reader has their own budget
    assert await site.statuses("127.0.0.1", 3, "198.51.100.1") == [200, 200, 429]
    assert await site.statuses("127.0.0.1", 2, "198.51.100.2") == [200, 200]


async def test_without_a_proxy_the_header_is_never_believed():
    site = Site(rate=0.01, burst=2)  # `forwarded` off: even a request from this host is its own reader
    claims = [f"192.0.2.{n}" for n in range(4)]
    assert [(await site.get("127.0.0.1", claim)).status for claim in claims] == [200, 200, 429, 429]


async def test_a_proxy_on_another_address_is_believed_and_only_it():
    site = Site(rate=0.01, burst=1, forwarded=True, proxies=("10.0.0.2",))
    assert await site.statuses("10.0.0.2", 1, "198.51.100.1") == [200]
    assert await site.statuses("10.0.0.2", 1, "198.51.100.2") == [200]  # another reader behind it
    claims = [f"192.0.2.{n}" for n in range(3)]
    assert [(await site.get("127.0.0.1", claim)).status for claim in claims] == [200, 429, 429]


def test_without_the_header_a_request_from_the_proxy_counts_on_the_proxy():
    assert client_of(request("127.0.0.1"), True) == "127.0.0.1"


async def test_requests_from_the_proxy_without_the_header_share_the_proxys_budget():
    site = Site(rate=0.01, burst=1, forwarded=True)
    assert await site.statuses("127.0.0.1", 2) == [200, 429]
    assert await site.statuses("127.0.0.1", 1, "198.51.100.3") == [200]  # a forwarded reader: their own


# -- what aiohttp refuses before the site: one log line ----------------------------------------------

def record_of(exc: BaseException | None) -> logging.LogRecord:
    info = (type(exc), exc, None) if exc is not None else None
    return logging.LogRecord("aiohttp.server", logging.ERROR, __file__, 1, "Error handling request", (), info)


@pytest.mark.parametrize(("exc", "line"), [
    (BadHttpMessage("bad"), "refused a malformed request (400 BadHttpMessage)"),
    (LineTooLong("line", 8190, 9000), "refused a malformed request (400 LineTooLong)"),
    (HttpProcessingError(), "refused a malformed request (0 HttpProcessingError)"),  # no code: the client's
])
def test_a_request_the_parser_refuses_is_one_info_line_without_a_traceback(exc, line):
    record = record_of(exc)
    assert RefusedRequests().filter(record)
    assert record.getMessage() == line and record.exc_info is None and record.exc_text is None
    assert (record.levelno, record.levelname) == (logging.INFO, "INFO")


@pytest.mark.parametrize("exc", [None, ValueError("a bug"), HttpProcessingError(code=500, message="server")])
def test_anything_else_on_the_servers_log_passes_as_it_is(exc):
    record = record_of(exc)
    before = (record.getMessage(), record.exc_info, record.levelno, record.levelname)
    assert RefusedRequests().filter(record)
    assert (record.getMessage(), record.exc_info, record.levelno, record.levelname) == before


def test_the_filter_is_put_on_aiohttps_server_log_once():
    server_log = logging.getLogger("aiohttp.server")
    kept = list(server_log.filters)
    try:
        for existing in kept:
            server_log.removeFilter(existing)
        quiet_refusals()
        quiet_refusals()
        assert [type(f) for f in server_log.filters] == [RefusedRequests]
    finally:
        for added in list(server_log.filters):
            server_log.removeFilter(added)
        for existing in kept:
            server_log.addFilter(existing)


# -- the request checks ----------------------------------------------------------------------------

async def checked(options: WebOptions | None = None, page=page, **asked) -> web.StreamResponse:
    """One request through the guard (a fresh budget) to `page`."""
    middleware = guard(options or WebOptions(ticks=Ticks()), error_page)
    return await middleware(request("203.0.113.5", **asked), page)


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
async def test_only_get_and_head_reach_a_page(method):
    refused = await checked(method=method)
    assert refused.status == 405 and refused.headers["Allow"] == "GET, HEAD"
    assert (await checked(method="HEAD")).status == 200


async def test_a_body_over_the_limit_is_refused_one_at_the_limit_is_not():
    limit = WebOptions().max_body
    assert (await checked(headers={"Content-Length": str(limit)})).status == 200
    assert (await checked(headers={"Content-Length": str(limit + 1)})).status == 413


async def test_a_site_that_takes_no_body_still_answers_every_request_that_sends_none():
    """The body limit counts a body that is sent: with none allowed, a request without a body (no
    Content-Length, or 0) is answered, one with a single byte is refused."""
    options = WebOptions(ticks=Ticks(), max_body=0)
    assert (await checked(options)).status == 200
    assert (await checked(options, headers={"Content-Length": "0"})).status == 200
    assert (await checked(options, headers={"Content-Length": "1"})).status == 413


async def test_a_query_or_an_address_over_its_limit_is_refused_one_at_the_limit_is_not():
    limit = WebOptions().max_query
    assert (await checked(path="/?q=" + "a" * (limit - 2))).status == 200  # `q=` and its value: the limit
    assert (await checked(path="/?q=" + "a" * (limit - 1))).status == 414
    assert (await checked(path="/" + "a" * (2 * limit - 1))).status == 200  # the path: twice the query's
    assert (await checked(path="/" + "a" * (2 * limit))).status == 414


async def test_an_error_a_page_raises_is_a_short_page_of_its_status_with_its_retry_after():
    async def missing(request: web.Request) -> web.Response:
        raise web.HTTPNotFound()

    async def busy(request: web.Request) -> web.Response:
        raise web.HTTPServiceUnavailable(headers={"Retry-After": "5"})

    async def moved(request: web.Request) -> web.Response:
        raise web.HTTPFound("/elsewhere")

    async def unreadable(request: web.Request) -> web.Response:
        raise web.HTTPBadRequest()

    bad = await checked(page=unreadable)
    assert (bad.status, bad.text) == (400, "400")
    gone = await checked(page=missing)
    assert (gone.status, gone.text, "Retry-After" in gone.headers) == (404, "404", False)
    later = await checked(page=busy)
    assert (later.status, later.text, later.headers["Retry-After"]) == (503, "503", "5")
    with pytest.raises(web.HTTPFound):  # not an error: aiohttp answers it as it is
        await checked(page=moved)
