"""Web page fixtures: the real services on each backend (`store`), a fake clock, a stand-in
renderer (a few fixed PNG bytes: the pictures themselves are the renderer's tests), and aiohttp's
test client on loopback."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.services import RallyService
from bot.services.deadlines import DeadlineService
from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeClock, FakeRenderer
from tests.league.conftest import START


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def service(store, clock) -> RallyService:
    seeds = iter(f"{n:064x}" for n in range(1, 10_000))
    svc = RallyService(store, seed_source=lambda: 42, clock=clock)
    champs = svc.championships
    champs.rounds.seed_source = champs.jobs.seed_source = champs.scratch.seed_source = lambda: next(seeds)
    return svc


@pytest.fixture
def deadlines(service, clock) -> DeadlineService:
    return DeadlineService(service.work, clock=clock)


@pytest.fixture
def options(clock) -> WebOptions:
    return WebOptions(clock=clock, burst=1000, rate=1000.0)


@pytest.fixture
async def client(store, options):
    async with TestClient(TestServer(create_app(store, options, renderer=FakeRenderer()))) as test_client:
        yield test_client
