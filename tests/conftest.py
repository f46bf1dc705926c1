"""Shared test set-up: tests never touch the network and never use the real database file."""

from __future__ import annotations

import sys

import pytest
from pg_server import PgServer

from tests.discord import referee


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path, monkeypatch):
    """Point RALLYBOT_DB at a temp file so no test can write the developer's database."""
    monkeypatch.setenv("RALLYBOT_DB", str(tmp_path / "rallybot-test.sqlite3"))
    monkeypatch.setenv("RALLYBOT_CACHE", str(tmp_path / "render-cache"))  # nor the checkout's image cache
    # A test's PostgreSQL store opens one connection, the others when needed: the bot's eight
    # opened at once (bot/store/postgres.py) would add ~30 ms to each of the suite's ~450 stores.
    monkeypatch.setenv("RALLYBOT_DB_POOL_OPEN", "1")


@pytest.fixture(autouse=True)
def _discord_referee():
    """Every request a test makes through the fake Discord (tests/discord/fakes.py) is judged by
    Discord's API spec and documented limits (tests/discord/referee.py). The fake raises at the
    request, but the bot may swallow that: the test fails here, at teardown, with what was wrong."""
    referee.LEDGER.violations.clear()
    yield
    found = list(referee.LEDGER.violations)
    referee.LEDGER.violations.clear()
    if found:
        pytest.fail("Discord would refuse requests this test made:\n" + "\n".join(found), pytrace=False)


def pytest_sessionfinish(session):
    """Run by each worker of a parallel run (pytest-xdist): its referee figures go to the
    controller, which prints the run's total."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["referee"] = {"requests": referee.LEDGER.requests, "operations": dict(referee.LEDGER.operations),
                             "violations": referee.LEDGER.total_violations}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """The controller of a parallel run adds up what each worker's referee judged."""
    figures = getattr(node, "workeroutput", {}).get("referee")
    if figures:
        referee.LEDGER.requests += figures["requests"]
        referee.LEDGER.operations.update(figures["operations"])
        referee.LEDGER.total_violations += figures["violations"]


def pytest_terminal_summary(terminalreporter):
    """The referee's figures for the run: requests judged, by operation."""
    if referee.LEDGER.requests:
        terminalreporter.write_line(referee.summary())


@pytest.fixture(scope="module", autouse=True)
def _no_render_pool_left():
    """A test file that started the render workers (a drawing through `draw_async`) stops them at
    its end: the next file, on whichever worker of a parallel run, starts without them, as it
    would in a run of its own."""
    yield
    images = sys.modules.get("bot.services.images")
    if images is not None:
        images.shutdown_pool()


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL server for the session (tests/pg_server.py), started by the first test that asks.

    A plain sync fixture: start and stop are subprocesses, so no event loop outlives a test.
    """
    server = PgServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server):
    """The URL of a fresh empty database on the session's server, dropped after the test."""
    url = await pg_server.create_database()
    yield url
    await pg_server.drop_database(url)


BACKENDS = ("sqlite", "postgresql")


@pytest.fixture(params=BACKENDS)
def db_target(request, tmp_path):
    """The database of a test that runs on both backends: a temp SQLite file, or a fresh empty
    PostgreSQL database on the session's throwaway server (the test's id shows which)."""
    if request.param == "sqlite":
        return tmp_path / "store" / "rallybot.sqlite3"
    return request.getfixturevalue("pg_url")


async def _opened(target):
    from bot.store import Store

    store = await Store.open(target)
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
async def store(db_target):
    """The store on each backend (`db_target`), opened and always closed; a suite that needs
    another store (tests/cogs) defines its own."""
    async for opened in _opened(db_target):
        yield opened
