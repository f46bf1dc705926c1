"""`/league web public|private` (organisers; refusals change nothing), the console's command and
`--web`, the settings `RALLYBOT_WEB_PORT` / `RALLYBOT_PUBLIC_URL`, the links the league's posts
carry when the bot knows its public address, and the server on a real loopback port."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import aiohttp
import pytest

from bot.config import ConfigError, Settings
from bot.console import Console
from bot.i18n import catalogue
from bot.services.errors import ServiceError
from bot.web import WebOptions, WebServer, create_app
from bot.web.templates import FOLDER
from tests.discord.fakes import FakeRenderer
from tests.league.conftest import Posts, deliver
from tests.league.league_helpers import ALICE, LEAGUE_CHANNEL, ORGANISER
from tests.web.web_helpers import season

LEAGUE_ROWS = "SELECT id, web_public FROM leagues ORDER BY id"


async def test_only_an_organiser_makes_a_league_public_and_a_bad_choice_changes_nothing(service):
    leagues = service.championships.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Cup", "UTC")
    before = await service.store.db.fetch_all(LEAGUE_ROWS)
    with pytest.raises(ServiceError) as refused:
        await leagues.web(LEAGUE_CHANNEL, ALICE, "public")
    assert refused.value.key == "league.not_organiser"
    with pytest.raises(ServiceError) as bad:
        await leagues.web(LEAGUE_CHANNEL, ORGANISER, "everyone")
    assert bad.value.key == "league.bad_web" and bad.value.params == {"value": "everyone"}
    assert await service.store.db.fetch_all(LEAGUE_ROWS) == before
    assert [tuple(r) for r in before] == [(1, 0)]  # every league starts private
    reply = await leagues.web(LEAGUE_CHANNEL, ORGANISER, "PUBLIC")
    assert "is now public" in "\n".join(reply.lines)
    assert [tuple(r) for r in await service.store.db.fetch_all(LEAGUE_ROWS)] == [(1, 1)]
    log = await service.store.db.fetch_all("SELECT action, actor_id FROM league_log ORDER BY id")
    assert [tuple(r) for r in log][-1] == ("web_public", ORGANISER.user_id)


async def test_the_console_makes_a_league_public(service):
    out = io.StringIO()
    console = Console(service, out=out, admins=["mod"])
    await console.run_line("mod: /league create name:Cup timezone:UTC")
    await console.run_line("alice: /league web public")
    assert "organisers" in out.getvalue().lower()
    await console.run_line("mod: /league web public")
    assert "Cup is now public" in out.getvalue()
    await console.run_line("mod: /league web visibility:private")
    assert "Cup is now private" in out.getvalue()
    assert [tuple(r) for r in await service.store.db.fetch_all(LEAGUE_ROWS)] == [(1, 0)]


async def test_posts_link_to_the_pages_only_with_a_public_address_and_a_public_league(service, deadlines, clock):
    service.work.public_url = "https://rally.example.org/"
    posts = Posts()
    await season(service, deadlines, clock)
    await deliver(service, posts)
    reply = await service.championships.standings(LEAGUE_CHANNEL, ORGANISER)
    assert "Standings on the web: https://rally.example.org/league/1" in "\n".join(reply.lines)
    reply = await service.championships.results(LEAGUE_CHANNEL, ORGANISER, "1")
    assert "Results on the web: https://rally.example.org/round/1" in "\n".join(reply.lines)
    await service.championships.leagues.web(LEAGUE_CHANNEL, ORGANISER, "private")
    assert "on the web" not in "\n".join((await service.championships.standings(LEAGUE_CHANNEL, ORGANISER)).lines)
    service.work.public_url = None
    await service.championships.leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
    assert "on the web" not in "\n".join((await service.championships.standings(LEAGUE_CHANNEL, ORGANISER)).lines)


async def test_a_closing_round_links_its_results_when_the_league_is_public(service, deadlines, clock):
    service.work.public_url = "https://rally.example.org"
    posts = Posts()
    await season(service, deadlines, clock, posts=posts)
    text = posts.text(LEAGUE_CHANNEL.channel_id)
    assert text.count("Results on the web: https://rally.example.org/round/1") == 1
    assert "Standings on the web: https://rally.example.org/league/1" in text


def test_settings_read_the_web_port_and_the_public_address():
    assert Settings.from_env({}).web_port is None and Settings.from_env({}).public_url is None
    on = Settings.from_env({"RALLYBOT_WEB_PORT": "8080", "RALLYBOT_PUBLIC_URL": "https://rally.example.org/"})
    assert (on.web_port, on.web_host, on.public_url) == (8080, "127.0.0.1", "https://rally.example.org")
    assert Settings.from_env({"RALLYBOT_WEB_PORT": "80", "RALLYBOT_WEB_HOST": "0.0.0.0"}).web_host == "0.0.0.0"
    for bad in ("0", "65536", "http", "-1", "80 81"):
        with pytest.raises(ConfigError, match="RALLYBOT_WEB_PORT"):
            Settings.from_env({"RALLYBOT_WEB_PORT": bad})
    for bad in ("rally.example.org", "ftp://x", "https://a b"):
        with pytest.raises(ConfigError, match="RALLYBOT_PUBLIC_URL"):
            Settings.from_env({"RALLYBOT_PUBLIC_URL": bad})


async def test_the_server_listens_on_loopback_and_stops(store, clock):
    server = WebServer(create_app(store, WebOptions(clock=clock), renderer=FakeRenderer()))
    address = await server.start(0)
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", address) and server.port > 0
    try:
        async with aiohttp.ClientSession() as session, session.get(address + "static/site.css") as response:
            assert response.status == 200 and response.headers["X-Content-Type-Options"] == "nosniff"
    finally:
        await server.stop()
        await server.stop()  # twice is harmless
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(address)


#: keys the templates build from a value (`"web.lang_" ~ code` …), with every value they may take
BUILT = {"web.lang_": ("en", "fr", "de"), "league.status_": ("scheduled", "open", "closed", "cancelled"),
         "web.run_": ("running", "finished", "dnf"), "web.rally_": ("lobby", "running", "finished", "abandoned")}


def test_every_key_the_templates_read_exists_in_every_language():
    used: set[str] = set()
    for path in Path(FOLDER).glob("*.html"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_.0-9]+)["'](?!\s*~)""", text))
        used |= set(re.findall(r"""\bt\(\s*["'][a-z_.0-9]+["']\s+if\s+[^)]*?else\s+["']([a-z_.0-9]+)["']""", text))
        for prefix in re.findall(r"""\bt\(\s*["']([a-z_.0-9]+_)["']\s*~""", text):
            assert prefix in BUILT, f"{path.name}: a key built from {prefix!r}: list its values in BUILT"
            used |= {prefix + value for value in BUILT[prefix]}
    assert len(used) > 40
    for lang in ("en", "fr", "de"):
        missing = sorted(k for k in used if k not in catalogue(lang))
        assert not missing, (lang, missing)


def test_the_web_catalogue_has_the_same_keys_in_every_language():
    files = {lang: json.loads((FOLDER.parents[2] / "data" / "i18n" / lang / "web.json").read_text(encoding="utf-8"))
             for lang in ("en", "fr", "de")}
    assert set(files["en"]) == set(files["fr"]) == set(files["de"])


async def test_the_bot_serves_the_page_from_its_setup_and_stops_it_on_close(tmp_path):
    from bot.client import RallyBot
    from tests.discord.fakes import FakeClock

    settings = Settings(db=tmp_path / "bot.sqlite3", web_port=0, public_url="https://rally.example.org")
    bot = RallyBot(settings, clock=FakeClock(), renderer=FakeRenderer(), start_loops=False, sync=False)
    await bot._async_setup_hook()  # what login() does first
    await bot.setup_hook()
    try:
        assert bot.rallies.work.public_url == "https://rally.example.org"
        assert bot.web is not None and bot.web.port > 0
        async with aiohttp.ClientSession() as session, session.get(bot.web.address) as response:
            assert response.status == 200 and "Rallybot" in await response.text()
    finally:
        address = bot.web.address if bot.web else ""
        await bot.close()
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(address)


def test_behind_a_proxy_the_budget_is_counted_per_forwarded_address():
    assert Settings.from_env({"RALLYBOT_WEB_PROXY": "1"}).web_proxy
    assert not Settings.from_env({}).web_proxy
