"""The web page in its own process ("Fast"; bot/web/process.py, bot/web/child.py): the
child starts and serves the pages from the bot's database, 404 for a private league, reads through
a store the database keeps from writing, is started again when killed, stops with the bot, and a
bad port (out of range, taken) is a clear error that leaves the bot running without its page."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import subprocess
import sys

import aiohttp
import pytest

from bot.config import Settings
from bot.paths import ROOT
from bot.services import Place
from bot.store import Store
from bot.web.child import WebChild
from bot.web.process import WebStartError
from tests.discord.fakes import PNG as FAKE_PNG
from tests.discord.fakes import FakeClock, FakeRenderer
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER
from tests.web.web_helpers import season

WAIT = 30.0  # seconds a test waits for the child (never reached when it works)
OTHER_CHANNEL = Place(guild_id=LEAGUE_CHANNEL.guild_id, channel_id=LEAGUE_CHANNEL.channel_id + 1)


async def fetch(address: str, path: str = "") -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(address + path.lstrip("/")) as response:
        return response.status, await response.text()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_the_child_serves_the_pages_from_the_bots_database_and_hides_a_private_league(
        service, deadlines, clock, db_target):
    await season(service, deadlines, clock)
    await service.championships.leagues.create(OTHER_CHANNEL, ORGANISER, "Hidden Cup", "UTC")  # league 2: private
    child = WebChild(db_target, 0)
    try:
        address = await child.start()
        assert address.startswith("http://127.0.0.1:") and child.port > 0 and child.pid is not None
        assert child.pid != os.getpid() and os.getpriority(os.PRIO_PROCESS, child.pid) >= 10  # low priority
        status, body = await fetch(address, "/league/1")
        assert status == 200 and "Sunday Cup" in body
        status, body = await fetch(address, "/league/2")
        assert status == 404 and "Hidden Cup" not in body
        assert (await fetch(address, "/"))[0] == 200
    finally:
        await child.stop()
    assert child.pid is None and child.exit_status == 0  # it stopped cleanly on SIGTERM


async def test_the_web_store_is_read_only(service, deadlines, clock, db_target):
    await season(service, deadlines, clock)
    before = [tuple(r) for r in await service.store.db.fetch_all("SELECT id, web_public, name FROM leagues")]
    reader = await Store.open(db_target, read_only=True)
    try:
        assert [tuple(r) for r in await reader.db.fetch_all("SELECT id, web_public, name FROM leagues")] == before
        with pytest.raises(Exception, match=r"(?i)read.?only"):  # sqlite3.OperationalError, asyncpg's ReadOnly…
            await reader.db.write(lambda tx: tx.execute("UPDATE leagues SET web_public = 0, name = 'x'"))
    finally:
        await reader.close()
    assert [tuple(r) for r in await service.store.db.fetch_all("SELECT id, web_public, name FROM leagues")] == before


async def test_a_read_only_store_never_creates_a_missing_file(tmp_path):
    missing = tmp_path / "nowhere" / "bot.sqlite3"
    with pytest.raises(Exception, match="unable to open"):
        await Store.open(missing, read_only=True)
    assert not missing.parent.exists()


async def test_the_child_is_started_again_after_being_killed(tmp_path, caplog):
    target = tmp_path / "bot.sqlite3"
    await (await Store.open(target)).close()
    child = WebChild(target, 0, backoff_first=0.1)
    caplog.set_level(logging.INFO, logger="bot.web.child")
    try:
        address = await child.start()
        first = child.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        for _ in range(int(WAIT * 10)):
            if child.restarts == 1 and child.pid is not None:
                break
            await asyncio.sleep(0.1)
        assert child.restarts == 1 and child.pid not in (None, first)
        assert child.address == address  # the same port again
        assert (await fetch(address, "/static/site.css"))[0] == 200
        said = [r.getMessage() for r in caplog.records if r.name == "bot.web.child"]
        assert any(f"process {first} ended (exit status -9): starting it again in 0.1 s" in text for text in said), said
        assert any(f"is back at {address}" in text for text in said), said
    finally:
        await child.stop()


class Stubborn(WebChild):
    """A child that says its address, then ignores SIGTERM."""

    def _command(self) -> list[str]:
        return [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
                                      "print('web page: http://127.0.0.1:9/', flush=True); time.sleep(60)"]


class Silent(WebChild):
    """A child that never says its address."""

    def _command(self) -> list[str]:
        return [sys.executable, "-c", "import time; time.sleep(60)"]


async def test_a_child_that_never_says_its_address_is_a_clear_error_and_is_stopped(tmp_path):
    child = Silent(tmp_path / "bot.sqlite3", 8123, start_timeout=0.5, stop_timeout=0.5)
    with pytest.raises(WebStartError, match=r"could not start on port 8123: it did not say its address within 0\.5 s"):
        await child.start()
    assert child.pid is None and child.exit_status is not None  # ended, not left running


async def test_a_child_that_ignores_sigterm_is_killed_after_the_timeout(tmp_path):
    child = Stubborn(tmp_path / "bot.sqlite3", 0, stop_timeout=0.5)
    assert await child.start() == "http://127.0.0.1:9/" and child.port == 9
    pid = child.pid
    await child.stop()
    assert child.exit_status == -signal.SIGKILL and pid is not None and not alive(pid)


async def test_the_bot_starts_the_child_at_setup_and_stops_it_at_close(tmp_path):
    from bot.client import RallyBot

    settings = Settings(db=tmp_path / "bot.sqlite3", web_port=0)
    bot = RallyBot(settings, clock=FakeClock(), renderer=FakeRenderer(), start_loops=False, sync=False)
    await bot._async_setup_hook()  # what login() does first
    await bot.setup_hook()
    pid = None
    try:
        assert bot.web is not None and bot.web.pid is not None
        pid = bot.web.pid
        assert (await fetch(bot.web.address))[0] == 200
        # its pictures are drawn by the bot (its renderer, here a stand-in), lent over the drawing link
        async with aiohttp.ClientSession() as session:
            async with session.get(bot.web.address + "stage/rallyman/pinewood-sprint/preview.png") as response:
                assert response.status == 200 and await response.read() == FAKE_PNG
        assert bot.web.lender is not None and bot.web.lender.drawn == 1
    finally:
        await bot.close()
    assert pid is not None and not alive(pid)


def test_a_port_out_of_range_or_a_database_no_child_can_read_is_refused(tmp_path):
    with pytest.raises(WebStartError, match="from 0 to 65535, not 70000"):
        WebChild(tmp_path / "bot.sqlite3", 70000)
    with pytest.raises(WebStartError, match="cannot read an in-memory database"):
        WebChild(":memory:", 8080)
    done = subprocess.run([sys.executable, "-m", "bot", "web", "--port", "70000"], cwd=ROOT, capture_output=True,
                          text=True, timeout=WAIT)
    assert done.returncode == 2 and "from 0 to 65535, not 70000" in done.stderr and done.stdout == ""


async def test_a_taken_port_is_a_clear_error_and_the_bot_goes_on_without_its_page(tmp_path, caplog):
    from bot.client import RallyBot

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    target = tmp_path / "bot.sqlite3"
    try:
        await (await Store.open(target)).close()
        with pytest.raises(WebStartError, match=f"could not start on port {port}: .*(?i:in use)"):
            await WebChild(target, port).start()
        settings = Settings(db=target, web_port=port)
        bot = RallyBot(settings, clock=FakeClock(), renderer=FakeRenderer(), start_loops=False, sync=False)
        await bot._async_setup_hook()
        with caplog.at_level(logging.ERROR, logger="bot.client"):
            await bot.setup_hook()
        try:
            assert bot.web is None
            said = [r.getMessage() for r in caplog.records if r.name == "bot.client"]
            assert any(f"port {port}" in text and "goes on without its web page" in text for text in said), said
            assert await bot.store.rallies.get_active_in_channel(1, 2) is None  # the bot's store still works
        finally:
            await bot.close()
    finally:
        taken.close()
