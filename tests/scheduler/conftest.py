"""Deadline tests: the real services on a temp SQLite file, a fake clock, no Discord.

A turn's clock starts when its prompt is DELIVERED, so these tests deliver the outbox the way the
console does (`deliver` below): claim what is owed, "send" it, report it sent. `deliver(service,
fail=Failure.X)` plays a Discord that refuses every channel post with that failure instead (DMs to
the host still go through), so the tests can keep a prompt undelivered or pause a rally.
"""

from __future__ import annotations

import itertools

import pytest

from bot.services import Actor, Place, RallyService, Reply
from bot.services.delivery import Failure, Outgoing
from bot.services.play.deadlines import DeadlineService
from tests.discord.fakes import FakeClock

HERE = Place(guild_id=10, channel_id=20)
THERE = Place(guild_id=10, channel_id=21)  # a second channel, for a second rally
BOB = Actor(1002, "Bob")
ALICE = Actor(1001, "Alice")
CAROL = Actor(1003, "Carol")
HOURS = 2  # the rallies here give 2 h per turn: reminder after 1 h

_message_ids = itertools.count(700_000)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(db_target):
    return db_target


@pytest.fixture
def service(store, clock) -> RallyService:
    return RallyService(store, seed_source=lambda: 42, clock=clock)


@pytest.fixture
def deadlines(service, clock) -> DeadlineService:
    return DeadlineService(service.work, clock=clock)


async def deliver(service: RallyService, fail: Failure | None = None) -> list[Outgoing]:
    """Drain the outbox like the console does; returns what reached its readers, in order.

    With `fail`, every channel post is refused with that failure (a Discord that is down, or a
    channel the bot lost access to) and is not returned; DMs are delivered all the same."""
    delivered: list[Outgoing] = []
    while batch := await service.delivery.claim():
        for out in batch:
            if fail is not None and not out.is_dm:
                await service.delivery.failed(out, fail, error=f"test: {fail.value}")
                continue
            await service.delivery.sent(out, next(_message_ids))
            delivered.append(out)
    return delivered


def text_of(delivered: list[Outgoing]) -> str:
    """All the lines the channel (and DM readers) read, one string."""
    return "\n".join(line for out in delivered for line in out.lines)


async def start_rally(service: RallyService, *actors: Actor, ai_on_timeout: bool = True,
                      place: Place = HERE, fail: Failure | None = None) -> Reply:
    """Create, join, start (the first actor drives first, A3); the lobby posts are delivered, and
    so is the first turn prompt (the turn's clock runs from now) unless Discord refuses it with
    `fail` (then it stays owed, or the rally is paused, and no clock runs)."""
    actors = actors or (BOB, ALICE)
    await service.create(place, actors[0], "pinewood-sprint", drivers=len(actors), deadline_hours=HOURS,
                         ai_on_timeout=ai_on_timeout)
    for actor in actors:
        await service.join(place, actor)
    await deliver(service)
    reply = await service.start(place, actors[0])
    await deliver(service, fail=fail)
    return reply
