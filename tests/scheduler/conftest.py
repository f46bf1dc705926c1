"""Deadline tests: the real services on a temp SQLite file, a fake clock, no Discord."""

from __future__ import annotations

import pytest

from bot.services import Actor, Place, RallyService
from bot.services.deadlines import DeadlineService
from bot.store import Store
from tests.discord.fakes import FakeClock

HERE = Place(guild_id=10, channel_id=20)
BOB = Actor(1002, "Bob")
ALICE = Actor(1001, "Alice")
HOURS = 2  # the rallies here give 2 h per turn: reminder after 1 h


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "deadlines.sqlite3"


@pytest.fixture
async def store(db_path):
    s = await Store.open(db_path)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def service(store) -> RallyService:
    return RallyService(store, seed_source=lambda: 42)


@pytest.fixture
def deadlines(service, clock) -> DeadlineService:
    return DeadlineService(service, clock=clock)


async def start_rally(service: RallyService, deadlines: DeadlineService, *actors: Actor, ai_on_timeout=True):
    """Create, join, start (Bob first, A3) and track the first turn as the bot does."""
    actors = actors or (BOB, ALICE)
    await service.create(HERE, actors[0], "pinewood-sprint", drivers=len(actors), deadline_hours=HOURS,
                         ai_on_timeout=ai_on_timeout)
    for actor in actors:
        await service.join(HERE, actor)
    reply = await service.start(HERE, actors[0])
    await deadlines.track(reply)
    return reply
