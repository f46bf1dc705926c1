"""The Rules+ modules through the services: switched on at creation, posted, commanded.

RULES A20 (weather and tires) and A21 (split times) as a driver meets them: the weather of SS1 is
posted before the first car starts, `/tires` chooses tires before the first die, a refusal
changes nothing, and a rally without the module refuses `/tires` with the reason."""

from __future__ import annotations

import pytest

from bot.engine.errors import RallyError
from bot.services import RallyService
from bot.services.replay import replay_snapshot
from tests.services.conftest import ALICE, BOB, HERE, snapshot_of


async def _started(service: RallyService, modules: str) -> list[str]:
    await service.create(HERE, BOB, "pinewood-sprint", drivers=2, modules=modules)
    for actor in (BOB, ALICE):
        await service.join(HERE, actor)
    return (await service.start(HERE, BOB)).lines


async def test_A20_1_the_weather_of_ss1_is_posted_with_the_start(service, store):
    lines = await _started(service, "weather,splits")
    assert any(line.startswith("Weather for SS1") for line in lines), lines
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert rally.modules["weather"] is True and rally.modules["splits"] is True
    assert (await store.check(replay_snapshot)).ok


async def test_A20_2_tires_are_chosen_before_the_first_die_and_refused_after(service, store):
    await _started(service, "weather")
    reply = await service.tires(HERE, BOB, "snow")
    assert "fits snow tires" in reply.text
    await service.roll(HERE, BOB, "1")
    before = await snapshot_of(store)
    with pytest.raises(RallyError, match="before your first die"):
        await service.tires(HERE, BOB, "asphalt")
    assert await snapshot_of(store) == before
    assert (await store.check(replay_snapshot)).ok


async def test_without_the_module_tires_are_refused_with_the_reason_and_nothing_changes(service, store):
    await _started(service, "")
    before = await snapshot_of(store)
    with pytest.raises(RallyError, match="module \\(RULES A20\\), which is off"):
        await service.tires(HERE, BOB, "snow")
    assert await snapshot_of(store) == before
