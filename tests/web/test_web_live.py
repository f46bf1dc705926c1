"""The rally page's live stream (`GET /rally/N/events`, bot/web/live.py): server-sent events with
the strict headers, an event when the rally moves, 404 where the page is 404, the limits per
client and in all, a stream's bounded life, one shared poller a rally, and the end of the stream
when the rally is over or turns private."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import replace

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import create_app
from bot.web.app import SITE
from tests.discord.fakes import FakeRenderer
from tests.web.live_helpers import running_public_rally
from tests.web.test_web_pages import assert_strict
from tests.web.test_web_rally import PublicGuard, Stop, one_move, rally_here
from tests.web.web_helpers import season

WAIT = 10.0  # seconds a test waits for an event before failing (never reached when it works)


@pytest.fixture
def live_options(options):
    return replace(options, live_poll=0.05, live_keepalive=5.0, forwarded=True)


async def open_client(store, options):
    client = TestClient(TestServer(create_app(store, options, renderer=FakeRenderer())))
    await client.start_server()
    return client


async def next_event(response) -> tuple[str, dict]:
    """The next event of a stream (comments and `retry:` skipped): (name, data)."""
    while True:
        chunk = (await asyncio.wait_for(response.content.readuntil(b"\n\n"), WAIT)).decode()
        fields = dict(line.split(": ", 1) for line in chunk.strip().split("\n") if ": " in line and line[0] != ":")
        if "event" in fields:
            return fields["event"], json.loads(fields["data"])


def page_version(body: str) -> str:
    return re.search(r'id="live"[^>]*data-version="([^"]+)"', body).group(1)


def hub_of(client):
    return client.server.app[SITE].live


async def test_the_stream_is_an_event_stream_with_strict_headers_and_follows_the_rally(store, live_options):
    guard, rally = await running_public_rally(store)
    client = await open_client(store, live_options)
    try:
        page = await client.get(f"/rally/{rally.id}")
        body = await page.text()
        assert '<script src="/static/live.js" defer></script>' in body and "<script>" not in body
        assert f'data-live="/rally/{rally.id}/events"' in body
        shown = page_version(body)
        async with client.get(f"/rally/{rally.id}/events") as stream:
            assert stream.status == 200 and stream.content_type == "text/event-stream"
            assert stream.headers["Cache-Control"] == "no-store"
            assert_strict(stream)
            assert (await next_event(stream)) == ("version", {"version": shown})  # what the page shows
            await one_move(guard, store)
            name, data = await next_event(stream)
            assert name == "version" and data["version"] != shown
            now = await rally_here(store)
            after = await client.get(f"/rally/{rally.id}")
            assert page_version(await after.text()) == data["version"] == f"{now.version}-{now.status}"
    finally:
        await client.close()


async def test_the_script_is_served_from_the_fixed_files_and_the_policy_allows_only_it(client):
    script = await client.get("/static/live.js")
    assert script.status == 200 and script.content_type == "text/javascript"
    text = await script.text()
    assert "EventSource" in text and "eval(" not in text and "innerHTML" not in text
    policy = script.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "unsafe" not in policy
    assert (await client.get("/static/live.jsx")).status == 404
    assert (await client.get("/static/other.js")).status == 404


async def test_an_unknown_or_private_rally_has_no_stream(store, client):
    assert (await client.get("/rally/999/events")).status == 404
    assert (await client.get("/rally/12345678901234567890/events")).status == 404
    guard = PublicGuard(store, stop_at=3)
    try:
        await guard.play()  # no league made public in this channel
    except Stop:
        pass
    rally = await rally_here(store)
    refused = await client.get(f"/rally/{rally.id}/events")
    assert refused.status == 404 and refused.content_type == "text/html"
    assert hub_of(client).feeds == {} and hub_of(client).total == 0


async def test_a_client_has_at_most_its_streams_and_the_site_its_total(store, live_options):
    guard, rally = await running_public_rally(store)
    client = await open_client(store, replace(live_options, live_per_client=2, live_total=3))
    ann, ben, cid = ({"X-Forwarded-For": address} for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"))
    path = f"/rally/{rally.id}/events"
    try:
        first = await client.get(path, headers=ann)
        second = await client.get(path, headers=ann)
        for stream in (first, second):
            assert stream.status == 200 and (await next_event(stream))[0] == "version"
        over = await client.get(path, headers=ann)
        assert over.status == 429 and over.headers["Retry-After"] == "30"
        assert len(hub_of(client).feeds) == 1  # two readers, one poller
        third = await client.get(path, headers=ben)  # another client: its own count …
        assert third.status == 200 and (await next_event(third))[0] == "version"
        full = await client.get(path, headers=cid)  # … but the site's total is reached
        assert full.status == 429
        first.close()
        for _ in range(200):  # the server notices the reader went
            if hub_of(client).total < 3:
                break
            await asyncio.sleep(0.02)
        again = await client.get(path, headers=cid)
        assert again.status == 200 and (await next_event(again))[0] == "version"
        for stream in (second, third, again):
            stream.close()
    finally:
        await client.close()
    assert hub_of(client).feeds == {}


async def test_a_stream_ends_after_its_life_and_its_poller_stops(store, live_options):
    guard, rally = await running_public_rally(store)
    client = await open_client(store, replace(live_options, live_seconds=0.3, live_keepalive=0.1))
    try:
        async with client.get(f"/rally/{rally.id}/events") as stream:
            body = (await asyncio.wait_for(stream.content.read(), WAIT)).decode()  # to the end: it closes
        assert body.startswith("retry: 5000\n\n") and "event: version" in body and ": keep-alive" in body
        for _ in range(100):
            if not hub_of(client).feeds:
                break
            await asyncio.sleep(0.02)
        assert hub_of(client).feeds == {} and hub_of(client).total == 0
    finally:
        await client.close()


async def test_a_finished_rally_says_its_version_then_ends(service, deadlines, clock, store, live_options):
    await season(service, deadlines, clock)  # rally 1: a run of the closed first round, public
    client = await open_client(store, live_options)
    try:
        page = await (await client.get("/rally/1")).text()
        assert "live.js" not in page and "data-live" not in page  # nothing to follow
        async with client.get("/rally/1/events") as stream:
            assert (await next_event(stream)) == ("version", {"version": page_version(page)})
            assert (await next_event(stream))[0] == "end"
            assert await asyncio.wait_for(stream.content.read(), WAIT) == b""
    finally:
        await client.close()


async def test_a_rally_whose_league_turns_private_ends_its_stream(store, live_options):
    guard, rally = await running_public_rally(store)
    client = await open_client(store, live_options)
    try:
        async with client.get(f"/rally/{rally.id}/events") as stream:
            assert (await next_event(stream))[0] == "version"
            await guard.console.run_line("mod: /league web private")
            assert (await next_event(stream)) == ("end", {})
        assert (await client.get(f"/rally/{rally.id}/events")).status == 404
    finally:
        await client.close()


async def test_head_answers_the_headers_without_a_stream(store, live_options):
    guard, rally = await running_public_rally(store)
    client = await open_client(store, live_options)
    try:
        head = await client.head(f"/rally/{rally.id}/events")
        assert head.status == 200 and head.content_type == "text/event-stream"
        assert hub_of(client).total == 0
        assert (await client.post(f"/rally/{rally.id}/events")).status == 405
    finally:
        await client.close()
