"""Fixtures for service tests: a real store on each backend (a temp SQLite file, a fresh PostgreSQL
database) and a service on it."""

from __future__ import annotations

import pytest

from bot.services import Actor, Place, RallyService
from bot.store import Store

HERE = Place(guild_id=10, channel_id=20)
ALICE = Actor(1001, "Alice")
BOB = Actor(1002, "Bob")
CAROL = Actor(1003, "Carol")
MOD = Actor(1004, "Mod", can_manage=True)


@pytest.fixture
async def service(store):
    return RallyService(store, seed_source=lambda: 42)


async def snapshot_of(store: Store, place: Place = HERE):
    """Everything a refusal must leave unchanged: rally row, drivers and log, byte for byte."""
    rally = await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
    if rally is None:
        return None
    drivers = [d.as_dict() for d in await store.drivers.list(rally.id)]
    actions = [a.as_dict() for a in await store.actions.list(rally.id)]
    return rally.as_dict(), drivers, actions


async def running_rally(service: RallyService, stage: str = "pinewood-sprint", *actors: Actor):
    actors = actors or (BOB, ALICE)  # Bob hosts and joins first, so Bob drives first (A3)
    await service.create(HERE, actors[0], stage, drivers=len(actors))
    for a in actors:
        await service.join(HERE, a)
    return await service.start(HERE, actors[0])
