"""Bad input on the web page: each a proper status, nothing changed, no traceback in the logs
(bad input): unknown and malformed ids, huge query strings, unknown filters and
languages, methods other than GET and HEAD, too many requests from one client."""

from __future__ import annotations

import logging

from aiohttp.test_utils import TestClient, TestServer
from yarl import URL

from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeRenderer
from tests.web.web_helpers import season


def quiet(caplog) -> None:
    troubles = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not troubles, [r.getMessage() for r in troubles]


async def test_unknown_and_malformed_addresses_answer_404_or_400_without_a_traceback(service, deadlines, clock,
                                                                                    client, caplog):
    caplog.set_level(logging.DEBUG)
    await season(service, deadlines, clock)
    refused = {"/league/999": 404, "/league/abc": 404, "/league/-1": 404, "/league/1.5": 404,
               "/league/" + "9" * 18: 404, "/league/" + "9" * 40: 404, "/round/999": 404, "/round/999/cards.json": 404,
               "/round/1/card/abc.json": 404, "/rally/999": 404, "/rally/999/board.png": 404,
               "/stage/rallyman/no-such-stage": 404, "/stage/nogame/pinewood-sprint": 404,
               "/stage/rallyman/..%2F..%2Fetc%2Fpasswd": 404, "/static/../bot/config.py": 404,
               "/static/nothing.css": 404, "/static/site.css.map": 404, "/nothing": 404,
               "/?game=nogame": 404, "/?game=roadrally": 404, "/?week=2026-48": 400, "/?week=%00": 400,
               "/?week=2026-W99": 400}
    for path, status in refused.items():
        response = await client.get(path)
        assert response.status == status, path
        assert response.headers.get("X-Content-Type-Options") == "nosniff", path
        assert "Traceback" not in await response.text()
    quiet(caplog)


async def test_only_get_and_head_are_answered(service, deadlines, clock, client, caplog):
    caplog.set_level(logging.DEBUG)
    await season(service, deadlines, clock)
    before = await service.store.db.fetch_all("SELECT id, web_public, name FROM leagues")
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        response = await client.request(method, "/league/1", data=b"x" * 10_000)
        assert response.status == 405, method
        assert response.headers["Allow"] == "GET, HEAD"
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    head = await client.head("/league/1")
    assert head.status == 200 and head.headers.get("ETag") and await head.read() == b""
    assert await service.store.db.fetch_all("SELECT id, web_public, name FROM leagues") == before
    quiet(caplog)


async def test_huge_query_strings_are_refused(client, caplog):
    caplog.set_level(logging.DEBUG)
    response = await client.get("/?week=" + "W" * 4000)
    assert response.status == 414
    assert (await client.get("/?" + "&".join(f"a{i}=1" for i in range(500)))).status == 414
    quiet(caplog)


async def test_a_range_request_on_an_image_gets_the_whole_image(service, deadlines, clock, client):
    await season(service, deadlines, clock)
    response = await client.get("/stage/rallyman/pinewood-sprint/preview.png", headers={"Range": "bytes=0-3"})
    assert response.status == 200 and response.headers["Accept-Ranges"] == "none"
    assert (await response.read()).startswith(b"\x89PNG")


async def test_too_many_requests_from_one_client_get_429(store, clock, caplog):
    caplog.set_level(logging.DEBUG)
    options = WebOptions(clock=clock, burst=3, rate=0.01)
    async with TestClient(TestServer(create_app(store, options, renderer=FakeRenderer()))) as client:
        answers = [(await client.get("/static/site.css")).status for _ in range(5)]
        assert answers == [200, 200, 200, 429, 429]
        limited = await client.get("/")
        assert limited.status == 429 and int(limited.headers["Retry-After"]) >= 1
        assert limited.headers.get("X-Content-Type-Options") == "nosniff"
    quiet(caplog)


async def test_a_request_with_a_body_over_the_limit_gets_413(client, caplog):
    caplog.set_level(logging.DEBUG)
    response = await client.get("/", data=b"x" * 5000)
    assert response.status == 413
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    quiet(caplog)


async def test_behind_a_proxy_each_forwarded_address_has_its_own_budget(store, clock):
    options = WebOptions(clock=clock, burst=2, rate=0.01, forwarded=True)
    async with TestClient(TestServer(create_app(store, options, renderer=FakeRenderer()))) as client:
        ann = {"X-Forwarded-For": "203.0.113.7"}
        ben = {"X-Forwarded-For": "198.51.100.1, 203.0.113.9"}  # the proxy's own hop is the last
        assert [(await client.get("/static/site.css", headers=ann)).status for _ in range(3)] == [200, 200, 429]
        assert (await client.get("/static/site.css", headers=ben)).status == 200


async def test_a_request_over_aiohttps_own_limits_is_refused_without_a_traceback(client, caplog):
    caplog.set_level(logging.DEBUG)
    assert (await client.get("/?week=" + "W" * 9000)).status == 400
    assert (await client.get("/", headers={"X-Big": "b" * 9000})).status == 400
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert any("refused a malformed request" in r.getMessage() for r in caplog.records)


async def test_an_error_pages_links_never_leave_the_site(client):
    """The language links of a 404 at an address a reader typed (`//evil.example/x`, a backslash,
    encoded slashes) stay on the site: no link is protocol-relative, absolute or backslashed."""
    import re

    for path in ("//evil.example/x", "/\\evil.example", "/%2F%2Fevil.example", "/%5Cevil.example",
                 "///evil.example", "/nothing//evil.example", "/x/%2F/evil.example"):
        root = str(client.make_url("/")).rstrip("/")
        response = await client.session.get(URL(root + path, encoded=True))
        assert response.status == 404, path
        links = re.findall(r'(?:href|src|action)="([^"]*)"', await response.text())
        assert links, path
        for link in links:
            assert "evil.example" not in link, (path, link)
            assert not link.startswith("//") and "\\" not in link and "://" not in link, (path, link)
    page = await (await client.get("/nothing?lang=fr")).text()  # a site-shaped path keeps its path
    assert 'href="/nothing?lang=de"' in page
