"""The web page's pictures are drawn by the bot's render workers, lent over a socket pair
(bot/web/draw_link.py), so the page's process never draws. The lender draws only the spectators'
pictures (boards, previews), one at a time, answers `busy` past its queue, and a closed or
malformed link is a 503 for the reader, never a hang; the bot's child really is served by it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import games
from bot.engine.core.errors import RallyError
from bot.services.images import board_spec, preview_spec
from bot.store import Store
from bot.web import create_app
from bot.web.child import WebChild
from bot.web.draw_link import (
    HEADER,
    MAX_REQUEST,
    DrawLender,
    DrawRefused,
    DrawUnavailable,
    LinkedDrawer,
    frame,
)
from tests.discord.fakes import FakeRenderer

LENT = b"\x89PNG\r\n\x1a\nlent by the bot"
LANGS = frozenset({"en", "fr", "de"})


class Recorder:
    """A stand-in for the bot's `draw_async`: records what it is asked and how many at once."""

    def __init__(self, delay: float = 0.0, fail: Exception | None = None) -> None:
        self.asked: list[tuple[dict, str]] = []
        self.delay = delay
        self.fail = fail
        self.now = 0
        self.most = 0

    async def __call__(self, spec: dict, lang: str) -> bytes:
        self.asked.append((spec, lang))
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            await asyncio.sleep(self.delay)
            if self.fail is not None:
                raise self.fail
            return LENT + json.dumps([spec.get("stage"), lang]).encode()
        finally:
            self.now -= 1


@contextlib.asynccontextmanager
async def linked(draw: Recorder, **lender_options):
    """A lender and a drawer joined by a socket pair, as the bot and its page's process are; the
    drawer closed at the end, and the lender then stops serving."""
    ours, theirs = socket.socketpair()
    lender = DrawLender(draw, LANGS, **lender_options)
    task = asyncio.create_task(lender.serve(ours))
    reader, writer = await asyncio.open_connection(sock=theirs)
    drawer = LinkedDrawer(reader, writer, timeout=5.0)
    try:
        yield lender, drawer
    finally:
        await drawer.close()
        await asyncio.wait_for(task, 5.0)


async def test_a_preview_and_a_board_are_drawn_by_the_lender_in_the_reader_s_language():
    draw = Recorder()
    async with linked(draw) as (lender, drawer):
        assert await drawer.draw(preview_spec("pinewood-sprint"), "fr") == LENT + b'["pinewood-sprint", "fr"]'
        board = {"kind": "board", "game": "rallyman", "view": {"round": 1}}
        assert (await drawer.draw(board, "de")).startswith(LENT)
        assert draw.asked == [(preview_spec("pinewood-sprint"), "fr"), (board, "de")] and lender.drawn == 2


@pytest.mark.parametrize("spec, lang", [
    ({"kind": "career", "card": {}}, "en"),  # a driver's private card: never a page's
    ({"kind": "replay", "rally_id": 1, "version": 3}, "en"),  # the lender would read the store
    ({"kind": "results", "view": {}}, "en"),
    ({"stage": "pinewood-sprint"}, "en"),  # no kind
    (preview_spec("pinewood-sprint"), "xx"),  # a language the bot does not speak
    (preview_spec("pinewood-sprint"), 3),
])
async def test_anything_but_a_spectator_picture_is_refused_and_never_drawn(spec, lang):
    draw = Recorder()
    async with linked(draw) as (lender, drawer):
        with pytest.raises(DrawUnavailable, match=r"could not draw it \(refused\)"):
            await drawer.draw(spec, lang)
        assert draw.asked == [] and lender.drawn == 0
        assert (await drawer.draw(preview_spec("gen-1"), "en")).startswith(LENT)  # the link still works


async def test_pictures_are_drawn_one_at_a_time_and_the_same_one_asked_twice_is_drawn_once():
    draw = Recorder(delay=0.05)
    async with linked(draw) as (lender, drawer):
        names = ["gen-1", "gen-2", "gen-3", "gen-1", "gen-1"]
        got = await asyncio.gather(*(drawer.draw(preview_spec(n), "en") for n in names))
        assert [json.loads(g[len(LENT):])[0] for g in got] == names
        assert draw.most == 1  # the bot's workers are lent one picture at a time
        assert sorted(spec["stage"] for spec, _ in draw.asked) == ["gen-1", "gen-2", "gen-3"]


async def test_past_its_queue_the_lender_answers_busy_at_once():
    draw = Recorder(delay=0.2)
    async with linked(draw, queued=2) as (lender, drawer):
        results = await asyncio.gather(*(drawer.draw(preview_spec(f"gen-{n}"), "en") for n in range(5)),
                                       return_exceptions=True)
        busy = [r for r in results if isinstance(r, DrawUnavailable)]
        assert len(busy) == 3 and all("busy" in str(r) for r in busy)
        assert sum(isinstance(r, bytes) for r in results) == 2 and len(draw.asked) == 2


async def test_a_rules_error_is_a_refusal_and_a_crash_is_unavailable():
    async with linked(Recorder(fail=RallyError("a preset, not a course"))) as (lender, drawer):
        with pytest.raises(DrawRefused):
            await drawer.draw(preview_spec("standard", "roadrally"), "en")
    async with linked(Recorder(fail=MemoryError())) as (lender, drawer):
        with pytest.raises(DrawUnavailable, match="failed"):
            await drawer.draw(preview_spec("gen-1"), "en")


async def test_a_slow_drawing_is_unavailable_after_the_timeout():
    draw = Recorder(delay=2.0)
    async with linked(draw) as (lender, drawer):
        drawer.timeout = 0.1
        with pytest.raises(DrawUnavailable, match=r"within 0\.1 s"):
            await drawer.draw(preview_spec("gen-1"), "en")


async def test_an_oversized_request_closes_the_link_and_waiting_readers_are_answered():
    draw = Recorder(delay=0.3)
    ours, theirs = socket.socketpair()
    lender = DrawLender(draw, LANGS)
    task = asyncio.create_task(lender.serve(ours))
    reader, writer = await asyncio.open_connection(sock=theirs)
    drawer = LinkedDrawer(reader, writer, timeout=5.0)
    try:
        waiting = asyncio.create_task(drawer.draw(preview_spec("gen-1"), "en"))
        await asyncio.sleep(0.05)
        writer.write(HEADER.pack(MAX_REQUEST + 1))  # a frame longer than any request
        await writer.drain()
        await asyncio.wait_for(task, 5.0)  # the lender stops serving
        with pytest.raises(DrawUnavailable, match="closed"):
            await asyncio.wait_for(waiting, 5.0)
        with pytest.raises(DrawUnavailable, match="closed"):
            await drawer.draw(preview_spec("gen-2"), "en")
    finally:
        await drawer.close()


async def test_garbage_from_the_page_is_refused_without_drawing():
    draw = Recorder()
    ours, theirs = socket.socketpair()
    lender = DrawLender(draw, LANGS)
    task = asyncio.create_task(lender.serve(ours))
    reader, writer = await asyncio.open_connection(sock=theirs)
    try:
        for payload in (b"not json", b"[1, 2]", json.dumps({"id": "7", "spec": preview_spec("gen-1"),
                                                             "lang": "en"}).encode()):
            writer.write(frame(payload))
            await writer.drain()
            size = HEADER.unpack(await reader.readexactly(HEADER.size))[0]
            assert json.loads(await reader.readexactly(size)) == {"id": None, "error": "refused"}
        assert draw.asked == []
    finally:
        writer.close()
        await asyncio.wait_for(task, 5.0)


def served(store, options, drawer):
    """The site on `store`, its pictures drawn through `drawer`, behind aiohttp's test client."""
    return TestClient(TestServer(create_app(store, options, renderer=FakeRenderer(), drawer=drawer)))


async def published_rally(service):
    """A running rally whose channel is published (`/rally web public`)."""
    from bot.services import Actor, Place

    place, ada, seb = Place(5, 6), Actor(1, "Ada"), Actor(2, "Seb")
    await service.channel_web.set(place, Actor(3, "Mod", can_manage=True), "public")
    await service.create(place, ada, "pinewood-sprint", drivers=2)
    await service.join(place, ada)
    await service.join(place, seb)
    await service.start(place, ada)
    return await service.store.rallies.get_active_in_channel(5, 6)


async def test_the_site_answers_503_in_the_reader_s_language_when_the_bot_cannot_draw(store, service, options):
    rally = await published_rally(service)
    async with linked(Recorder(fail=MemoryError())) as (_, drawer), served(store, options, drawer) as client:
        board = await client.get(f"/rally/{rally.id}/board.png?lang=fr")
        assert board.status == 503 and board.headers["Retry-After"] == "5"
        assert "Cette image ne peut pas être dessinée" in await board.text()
        assert (await client.get(f"/rally/{rally.id}")).status == 200  # the page itself is served
        assert (await client.get("/stage/rallyman/pinewood-sprint/preview.png")).status == 503
    async with linked(Recorder(fail=RallyError("a preset"))) as (_, drawer), served(store, options, drawer) as client:
        assert (await client.get("/stage/rallyman/pinewood-sprint/preview.png")).status == 404


async def test_the_site_shows_the_board_the_bot_drew_from_the_spectators_view(store, service, options):
    rally = await published_rally(service)
    draw = Recorder()
    async with linked(draw) as (_, drawer), served(store, options, drawer) as client:
        board = await client.get(f"/rally/{rally.id}/board.png?lang=de")
        assert board.status == 200 and (await board.read()).startswith(LENT)
    game = games.get(rally.game)
    assert draw.asked == [(board_spec(game.rules.from_json(rally.snapshot), game.id), "de")]


async def test_the_bot_s_child_has_its_pictures_drawn_by_the_bot(tmp_path):
    target = tmp_path / "bot.sqlite3"
    await (await Store.open(target)).close()
    draw = Recorder()
    child = WebChild(target, 0, draw=draw, backoff_first=0.1)
    try:
        address = (await child.start()).rstrip("/")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{address}/stage/dirt/dusty-pines/preview.png?lang=fr") as response:
                assert response.status == 200 and await response.read() == LENT + b'["dusty-pines", "fr"]'
        assert draw.asked == [(preview_spec("dusty-pines", "dirt"), "fr")] and child.lender is not None
        assert child.lender.drawn == 1
        first, lender = child.pid, child.lender
        assert first is not None
        os.kill(first, signal.SIGKILL)  # a child started again gets a new link
        for _ in range(300):
            if child.restarts == 1 and child.pid is not None:
                break
            await asyncio.sleep(0.1)
        assert child.restarts == 1 and child.lender is not lender
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{address}/stage/rallyman/pinewood-sprint/preview.png?lang=de") as response:
                assert response.status == 200 and await response.read() == LENT + b'["pinewood-sprint", "de"]'
        assert child.lender is not None and child.lender.drawn == 1
    finally:
        await child.stop()


def test_the_page_s_process_keeps_its_caches_within_what_the_memory_plan_counts(store):
    from bot import sizing
    from bot.web.app import SITE
    from bot.web.options import WebOptions, child_caches

    site = create_app(store, child_caches(WebOptions()))[SITE]  # as bot/web/process.py makes it
    held = [site.pages.max_bytes, site.images.max_bytes, site.replays.max_bytes]
    assert held == [8 << 20, 8 << 20, 4 << 20]
    assert sum(held) < sizing.WEB_MB / 3 * (1 << 20)  # the rest: its interpreter, imports and readers
