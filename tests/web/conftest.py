"""Web page fixtures: the league suite's real services on each backend (`store`), fake clock and
scheduler (tests/league/conftest.py), a stand-in renderer (a few fixed PNG bytes: the pictures
themselves are the renderer's tests), and aiohttp's test client on loopback."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeRenderer
from tests.league.conftest import clock, deadlines, service  # noqa: F401 - the same fixtures as the league suite


@pytest.fixture
def options(clock) -> WebOptions:  # noqa: F811 - the fixture `clock`
    return WebOptions(clock=clock, burst=1000, rate=1000.0)


@pytest.fixture
async def client(store, options):
    async with TestClient(TestServer(create_app(store, options, renderer=FakeRenderer()))) as test_client:
        yield test_client
