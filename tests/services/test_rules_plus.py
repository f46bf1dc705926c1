"""The Rules+ modules through the services: switched on at creation, posted, commanded.

RULES A20 (weather and tires) and A21 (split times) as a driver meets them: the weather of SS1 is
posted before the first car starts, `/tires` chooses tires before the first die, a refusal
changes nothing, and a rally without the module refuses `/tires` with the reason."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import RallyError
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot
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
    assert (await store.check(replay_snapshot, log_problem)).ok


async def test_A20_2_tires_are_chosen_before_the_first_die_and_refused_after(service, store):
    await _started(service, "weather")
    reply = await service.verb(HERE, BOB, "tires", {"tires": "snow"})
    assert "fits snow tires" in reply.text
    await service.verb(HERE, BOB, "roll", {"dice": "1"})
    before = await snapshot_of(store)
    with pytest.raises(RallyError, match="before your first die"):
        await service.verb(HERE, BOB, "tires", {"tires": "asphalt"})
    assert await snapshot_of(store) == before
    assert (await store.check(replay_snapshot, log_problem)).ok


async def test_without_the_module_tires_are_refused_with_the_reason_and_nothing_changes(service, store):
    await _started(service, "")
    before = await snapshot_of(store)
    with pytest.raises(RallyError, match=r"module \(rulebook ART\.15\), which is off"):
        await service.verb(HERE, BOB, "tires", {"tires": "snow"})
    assert await snapshot_of(store) == before


@pytest.mark.parametrize("modules, call, needle", [
    ("", ("attack", {"dice": "1 2"}), "time attack"),
    ("attack", ("attack", {"dice": "1"}), "at least 2"),
    ("attack", ("order", {"order": "1 2"}), ""),
    ("", ("place", {"die": "1"}), "second markers"),
    ("seconds", ("place", {"die": "1"}), ""),
])
async def test_a_refused_rules_plus_command_changes_nothing(service, store, modules, call, needle):
    """A18/A19 commands refused (module off, A18.1 one die, no attack to order, no marker yet):
    a specific message, and the stored rally, log and outbox are byte-identical."""
    await _started(service, modules)
    before = (await snapshot_of(store), [r.as_dict() for r in await store.outbox.all()])
    name, options = call
    with pytest.raises(RallyError) as refused:
        await service.verb(HERE, BOB, name, options)
    assert needle.lower() in str(refused.value).lower() and "went wrong" not in str(refused.value)
    assert (await snapshot_of(store), [r.as_dict() for r in await store.outbox.all()]) == before


async def test_A18_a_time_attack_then_its_order_through_the_services_and_its_odds(service, store):
    await _started(service, "attack")
    odds = await service.verb(HERE, BOB, "odds", {"dice": "attack 1 2"})
    assert odds.ephemeral and "chance of losing control" in odds.text
    rolled = await service.verb(HERE, BOB, "attack", {"dice": "1 2"})
    assert rolled.turn is not None and any(o.startswith("order ") for o in rolled.turn.options)
    ordered = await service.verb(HERE, BOB, "order", {"order": "best"})
    assert ordered.text and (await store.check(replay_snapshot, log_problem)).ok


async def test_status_shows_markers_held_and_tires_when_the_modules_are_on(service, store):
    """A18.4 markers (taken off the time shown) and A20 tires appear in `/rally status`."""
    await _started(service, "attack,weather")
    await service.verb(HERE, BOB, "tires", {"tires": "snow"})
    await service.verb(HERE, BOB, "attack", {"dice": "1 2"})
    await service.verb(HERE, BOB, "order", {"order": "best"})
    status = await service.status(HERE, ALICE)
    bob = next(line for line in status.lines if line.startswith("Bob:"))
    assert "2 second markers" in bob and "snow tires" in bob
    plain = RallyService(store, seed_source=lambda: 42)
    await plain.abandon(HERE, BOB)
    await _started(plain, "")
    assert not any("tires" in line for line in (await plain.status(HERE, ALICE)).lines)
