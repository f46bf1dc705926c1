"""The site in a real browser: Playwright driving the system Chromium (`/usr/bin/chromium`, or
`RALLYBOT_CHROMIUM`; as root it needs `--no-sandbox`) against the site on loopback, over a store
filled through the real services. What a reader sees: the league's standings table, the switch
to French, a running rally's board and log changing without a reload (server-sent events and
static/live.js, under the strict CSP), a result card downloaded and verified, and a screenshot of
every page, 412 px wide like a phone, kept in `tmp_path` (and in `$RALLYBOT_ARTIFACTS` when set).

Playwright's own browser download is never used. Without Chromium (or Playwright) the tests skip
with the reason, except in CI (`CI` set), where they fail: CI cannot skip them silently. They run
on SQLite only: the pages' data on both backends is tests/web's other suites' work.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from bot.console import PLACE
from bot.i18n import render, t
from bot.services.images import PillowRenderer
from bot.services.world.card_check import verify_bytes
from bot.store.clock import from_text
from bot.web import create_app
from bot.web.app import SITE
from bot.web.league_page import ROUND_COLUMNS, league_page
from tests.league.conftest import Posts
from tests.league.league_helpers import until
from tests.web.live_helpers import running_public_rally
from tests.web.test_web_rally import PublicGuard, one_move
from tests.web.web_helpers import ALICE, SCRIPT, season

pytestmark = pytest.mark.parametrize("db_target", ["sqlite"], indirect=True)

PHONE = {"width": 412, "height": 915}
HEADER = ("league.col_pos", "league.col_driver", "league.col_points")  # the standings' first columns
WAIT_MS = 15_000  # what a step waits at most in the browser (never reached when it works)


class ThreadRenderer(PillowRenderer):
    """The bot's real pictures, drawn in the render thread (no worker processes in a test)."""


def chromium() -> str:
    """The system Chromium's path; skips (or, in CI, fails) when it or Playwright is missing."""
    path = os.environ.get("RALLYBOT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    missing = None
    if not Path(path).is_file():
        missing = f"no Chromium at {path} (Debian: apt-get install --no-install-recommends chromium)"
    else:
        try:
            import playwright.async_api  # noqa: F401 - only whether it is there
        except ImportError:
            missing = "Playwright is not installed (pip install -e '.[test]')"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(missing)
    return path


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = tmp_path / "screenshots"
    folder.mkdir()
    return folder


async def screenshot(page, shots: Path, name: str) -> Path:
    """The whole page as a PNG in `shots`, copied to `$RALLYBOT_ARTIFACTS` when set."""
    path = shots / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    kept = os.environ.get("RALLYBOT_ARTIFACTS")
    if kept:
        Path(kept).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(kept) / path.name)
    return path


@pytest.fixture
async def site(store, options):
    """The site on a free loopback port, drawing real pictures; its base address."""
    fast = replace(options, live_poll=0.1)
    server = TestServer(create_app(store, fast, renderer=ThreadRenderer()), host="127.0.0.1")
    await server.start_server()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def browser():
    executable = chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            await launched.close()


class Reader:
    """A phone-sized page of the browser, with what went wrong on it: console errors (a CSP
    violation is one), failed requests, dialogs (a script that ran), loads (a reload is one)."""

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.loads = 0
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("dialog", lambda d: self.dialogs.append(d.message))
        page.on("load", lambda _: setattr(self, "loads", self.loads + 1))
        page.on("response", lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"{message.text} ({message.location.get('url')})")

    async def open(self, url: str) -> None:
        response = await self.page.goto(url)
        assert response is not None and response.status == 200, url


async def reader(browser, **options) -> Reader:
    context = await browser.new_context(viewport=PHONE, **options)
    context.set_default_timeout(WAIT_MS)
    return Reader(await context.new_page())


async def cells(page, selector: str) -> list[list[str]]:
    """The table's rows as the reader sees them (each cell's rendered text)."""
    rows = page.locator(selector)
    return [[c.strip() for c in await rows.nth(i).locator("th, td").all_inner_texts()]
            for i in range(await rows.count())]


async def test_the_league_page_shows_its_standings_and_switches_to_french(service, deadlines, clock, store, site,
                                                                          browser, shots):
    league_id, _ = await season(service, deadlines, clock)
    data = await league_page(store, league_id)
    me = await reader(browser, locale="en-GB")
    await me.open(str(site.make_url(f"/league/{league_id}")))
    assert await me.page.locator("h1").inner_text() == "Sunday Cup"
    table = "main table >> nth=0"
    (header,) = await cells(me.page, f"{table} >> thead tr")
    assert header[:3] == [render(t(k, "en"), "en") for k in HEADER]
    body = await cells(me.page, f"{table} >> tbody tr")
    assert [(r[1], r[2]) for r in body] == [(row.standing.name, str(row.standing.points)) for row in data.rows]
    assert SCRIPT in [r[1] for r in body] and not me.dialogs  # the name is text, no script ran
    await screenshot(me.page, shots, "league-en")

    await me.page.get_by_role("link", name="Français").click()
    await me.page.wait_for_load_state()
    assert await me.page.locator("html").get_attribute("lang") == "fr"
    assert "lang=fr" in me.page.url
    (header,) = await cells(me.page, f"{table} >> thead tr")
    assert header[:3] == [render(t(k, "fr"), "fr") for k in HEADER]
    assert header[1] == "Pilote"
    assert render(t("web.standings", "fr"), "fr") in await me.page.locator("h2").all_inner_texts()
    await screenshot(me.page, shots, "league-fr")
    assert not me.errors, me.errors


async def test_a_running_rally_changes_its_board_and_log_without_a_reload(store, site, browser, shots):
    guard, rally = await running_public_rally(store)
    me = await reader(browser)
    await me.open(str(site.make_url(f"/rally/{rally.id}?lang=en")))
    board = me.page.locator("#live .board img")
    before = await board.get_attribute("src")
    turns = await me.page.locator("#live ol.log > li").count()
    await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=await board.element_handle())
    await screenshot(me.page, shots, "rally-before")
    hub = site.app[SITE].live
    for _ in range(500):  # the page's script opened its stream
        if hub.total == 1:
            break
        await asyncio.sleep(0.02)
    assert hub.total == 1, "the page did not open its live stream"

    await one_move(guard, store)  # a move, through the services, while the page is open
    now = (await store.rallies.get(rally.id)).version
    await me.page.wait_for_function("old => document.querySelector('#live .board img').getAttribute('src') !== old",
                                    arg=before)
    after = await board.get_attribute("src")
    assert after.endswith(f"v={now}") and not before.endswith(f"v={now}")
    assert await me.page.locator("#live ol.log > li").count() > turns
    assert me.loads == 1  # the same page: no reload
    await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=await board.element_handle())
    await screenshot(me.page, shots, "rally-after")
    assert not me.errors, me.errors


async def test_a_result_card_downloaded_from_the_round_page_verifies(service, deadlines, clock, site, browser, shots):
    _, (closed, _) = await season(service, deadlines, clock)
    me = await reader(browser, accept_downloads=True)
    await me.open(str(site.make_url(f"/round/{closed.id}?lang=en")))
    await screenshot(me.page, shots, "round-closed")
    async with me.page.expect_download() as started:
        await me.page.locator(f"a[download][href$='/card/{ALICE.user_id}.json']").click()
    download = await started.value
    assert download.suggested_filename == f"round-{closed.id}-card-{ALICE.user_id}.json"
    report = verify_bytes(Path(await download.path()).read_bytes())
    assert report.ok, report.lines
    async with me.page.expect_download() as started:
        await me.page.locator("a[download][href$='/cards.json']").click()
    whole = verify_bytes(Path(await (await started.value).path()).read_bytes())
    assert whole.ok and len(whole.results) >= 2, whole.lines
    assert not me.errors, me.errors


async def test_every_page_draws_on_a_phone_without_an_error(service, deadlines, clock, site, browser, shots):
    league_id, (closed, open_) = await season(service, deadlines, clock)
    pages = {"home": "/", "league-de": f"/league/{league_id}?lang=de", "round-open": f"/round/{open_.id}",
             "rally-finished": "/rally/1", "stage": "/stage/rallyman/pinewood-sprint"}
    me = await reader(browser)
    for name, path in pages.items():
        await me.open(str(site.make_url(path)))
        for image in await me.page.locator("img").element_handles():
            await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image)
        width = await me.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"] + 1, (name, width)  # nothing wider than the phone
        shot = await screenshot(me.page, shots, name)
        assert shot.stat().st_size > 1000
    assert not me.errors and not me.dialogs, (me.errors, me.dialogs)


async def test_a_finished_rally_steps_through_its_replay_and_the_league_draws_its_chart(service, deadlines, clock,
                                                                                       store, site, browser, shots):
    league_id, (_, second) = await season(service, deadlines, clock)
    await until(clock, deadlines, service, Posts(), from_text(second.closes_at) + timedelta(minutes=1))
    me = await reader(browser)
    await me.open(str(site.make_url("/rally/1?lang=en")))
    await me.page.get_by_role("link", name=render(t("web.replay_link", "en"), "en")).click()
    await me.page.wait_for_load_state()
    board = me.page.locator("main .board img")
    turn = me.page.locator("nav.steps .turn")
    total = int((await turn.inner_text()).split()[-1])
    assert await turn.inner_text() == f"Turn 1 of {total}" and total >= 3
    seen = [await board.get_attribute("src")]
    for number in (2, 3):
        await me.page.get_by_role("link", name=render(t("web.replay_next", "en"), "en")).click()
        await me.page.wait_for_load_state()
        assert await turn.inner_text() == f"Turn {number} of {total}"
        seen.append(await board.get_attribute("src"))
        await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=await board.element_handle())
    assert seen == [f"/rally/1/replay/{n}/board.png?lang=en" for n in (1, 2, 3)]
    assert me.loads == 4  # plain links: the rally page, then three pages of the replay
    assert await me.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    await screenshot(me.page, shots, "replay-en")
    await me.page.get_by_role("link", name="Français").click()
    await me.page.wait_for_load_state()
    assert await turn.inner_text() == f"Tour 3 sur {total}"  # the switch keeps the turn
    await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=await board.element_handle())
    await screenshot(me.page, shots, "replay-fr")

    data = await league_page(store, league_id)
    for lang in ("en", "fr"):
        await me.open(str(site.make_url(f"/league/{league_id}?lang={lang}")))
        chart = me.page.locator("figure.chart")
        assert await chart.locator("polyline").count() == len(data.chart.lines) >= 3
        assert [text.strip() for text in await chart.locator("ul.legend li").all_inner_texts()] == [
            f"{line.name} ({line.points[-1]})" for line in data.chart.lines]
        box = await chart.locator("svg.chart").bounding_box()
        assert box is not None and 300 < box["width"] <= PHONE["width"]
        assert await me.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
        await chart.screenshot(path=str(shots / f"chart-{lang}.png"))
        kept = os.environ.get("RALLYBOT_ARTIFACTS")
        if kept:
            shutil.copy(shots / f"chart-{lang}.png", Path(kept) / f"chart-{lang}.png")
        await screenshot(me.page, shots, f"league-chart-{lang}")
    assert not me.errors and not me.dialogs, (me.errors, me.dialogs)


async def test_a_published_channel_s_rallies_on_the_home_page_and_their_breadcrumb(store, site, browser, shots):
    guard = PublicGuard(store)
    await guard.play()  # a Road Rally USA game to its end, in a channel no league publishes
    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    await guard.console.run_line("mod: /rally web public")
    me = await reader(browser)
    await me.open(str(site.make_url("/?lang=en")))
    await me.page.get_by_role("link", name=f"Rally #{rally.id} · Road Rally USA", exact=False).click()
    await me.page.wait_for_load_state()
    assert await me.page.locator("h1").inner_text() == f"Rally #{rally.id}"
    assert await me.page.locator("nav.channel [aria-current=page]").inner_text() == f"#{rally.id}"
    await me.page.get_by_role("link", name=render(t("web.replay_link", "en"), "en")).click()
    await me.page.wait_for_load_state()
    assert (await me.page.locator("nav.steps .turn").inner_text()).startswith("Turn 1 of ")
    for image in await me.page.locator("img").element_handles():
        await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image)
    assert await me.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    await screenshot(me.page, shots, "replay-roadrally")
    await me.open(str(site.make_url("/?lang=de")))
    assert await me.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"] + 1
    await screenshot(me.page, shots, "home-channels-de")
    assert not me.errors and not me.dialogs, (me.errors, me.dialogs)


WIDTHS = (412, 1280)  # a phone, a desktop
LANGUAGES = ("en", "fr", "de")
OVERFLOW = """() => {
  const wide = [...document.querySelectorAll('table')].filter(
    t => t.getBoundingClientRect().width > t.parentElement.clientWidth + 1).length;
  return [document.documentElement.scrollWidth, window.innerWidth, wide];
}"""


async def test_every_page_type_fits_a_phone_and_a_desktop_in_every_language(service, deadlines, clock, store, site,
                                                                            browser, shots):
    """Each page type (home and world scratch, league, round closed and open, rally finished and
    live, replay, stage, error page), in EN/FR/DE, at 412 and 1280 px: no sideways scrolling and no
    table wider than its container. One browser, one page per width, reused for every address."""
    league_id, (closed, open_) = await season(service, deadlines, clock)
    await until(clock, deadlines, service, Posts(), from_text(open_.closes_at) + timedelta(minutes=1))
    _, live = await running_public_rally(store)
    week = closed.week if getattr(closed, "week", None) else None
    pages = {"home": "/", "scratch": "/?game=rallyman" + (f"&week={week}" if week else ""),
             "league": f"/league/{league_id}", "round": f"/round/{closed.id}", "round-2": f"/round/{open_.id}",
             "rally-finished": "/rally/1", "rally-live": f"/rally/{live.id}", "replay": "/rally/1/replay?turn=2",
             "replay-end": "/rally/1/replay?turn=999", "stage": "/stage/rallyman/pinewood-sprint",
             "error": "/league/999"}
    misfits: list[tuple[str, str, int, list[int]]] = []
    for width in WIDTHS:
        me = await reader(browser)
        await me.page.set_viewport_size({"width": width, "height": 900})
        for name, path in pages.items():
            for lang in LANGUAGES:
                url = str(site.make_url(path)) + ("&" if "?" in path else "?") + f"lang={lang}"
                response = await me.page.goto(url)
                assert response is not None
                if name == "error" or name == "replay-end":
                    assert response.status == 404, (name, response.status)
                else:
                    assert response.status == 200, (name, lang, response.status)
                measured = await me.page.evaluate(OVERFLOW)
                if measured[0] > measured[1] or measured[2]:
                    misfits.append((name, lang, width, measured))
        asked = (pages["error"], pages["replay-end"])  # the error pages asked for
        me.errors = [e for e in me.errors if "404" not in e or not any(a in e for a in asked)]
        assert not me.errors and not me.dialogs, (me.errors, me.dialogs)
    assert not misfits, misfits  # (page, language, width, [scrollWidth, innerWidth, tables too wide])


async def test_the_phone_pages_look_right_in_french(service, deadlines, clock, store, site, browser, shots):
    """Screenshots at 412 px of a live rally, a league, a round and a replay in French (the
    test's tmp_path, and `$RALLYBOT_ARTIFACTS`): each cell of the round's results is inside the
    screen, under its column's name."""
    league_id, (closed, _) = await season(service, deadlines, clock)
    _, live = await running_public_rally(store)
    me = await reader(browser, locale="fr-FR")
    await me.open(str(site.make_url(f"/round/{closed.id}?lang=fr")))
    points = me.page.locator("main table.stack tbody tr >> nth=0").locator("td >> nth=-1")
    box = await points.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    label = await points.evaluate("td => getComputedStyle(td, '::before').content")
    assert label == '"Points"'  # the column's name beside the value on a phone
    await screenshot(me.page, shots, "phone-round-fr")
    for name, path in (("phone-league-fr", f"/league/{league_id}"), ("phone-rally-live-fr", f"/rally/{live.id}"),
                       ("phone-replay-fr", "/rally/1/replay?turn=2"), ("phone-rally-finished-fr", "/rally/1"),
                       ("phone-home-fr", "/")):
        await me.open(str(site.make_url(path + ("&" if "?" in path else "?") + "lang=fr")))
        for image in await me.page.locator("img").element_handles():
            await me.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image)
        await screenshot(me.page, shots, name)
        if name == "phone-league-fr":  # the per-round columns wait for a wider screen
            assert await me.page.locator("main table td.room").count() > 0
            assert not await me.page.locator("main table td.room").first.is_visible()
    await me.page.set_viewport_size({"width": 1280, "height": 900})  # a desktop: the per-round columns too
    await me.open(str(site.make_url(f"/league/{league_id}?lang=de")))
    assert await me.page.locator("main table th.room").first.is_visible()
    await screenshot(me.page, shots, "desktop-league-de")
    # a long season: as many round columns as the page shows (copies of the one closed round's), wide numbers
    widths = await me.page.evaluate("""n => {
      const table = document.querySelector('main table');
      for (const row of table.rows) {
        const cell = row.querySelector('.room');
        for (let i = 1; i < n; i++) {
          const copy = cell.cloneNode(true);
          copy.textContent = '125';
          row.appendChild(copy);
        }
      }
      return [table.getBoundingClientRect().width, table.parentElement.clientWidth];
    }""", ROUND_COLUMNS)
    assert widths[0] <= widths[1] + 1, widths
    assert not me.errors and not me.dialogs, (me.errors, me.dialogs)
