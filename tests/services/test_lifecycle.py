"""Rally lifecycle through the services: create, join, start, authorisation, one per channel."""

from __future__ import annotations

import pytest

from bot.engine.core.errors import RallyError
from bot.services import Place, RallyService
from tests.services.conftest import ALICE, BOB, CAROL, HERE, MOD, running_rally, snapshot_of


async def test_create_join_start_names_the_first_driver(service, store):
    reply = await service.create(HERE, ALICE, "pinewood-sprint", drivers=2)
    assert "Pinewood Sprint" in reply.text and not reply.ephemeral
    await service.join(HERE, BOB)
    await service.join(HERE, ALICE)
    started = await service.start(HERE, ALICE)
    assert "Bob, your turn: you may roll 1" in started.text  # joined first, starts first (A3, A4.1)
    assert started.ping == (BOB.user_id,)
    assert started.turn is not None and started.turn.options == ("1",)
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert rally.status == "running" and rally.version == 1


@pytest.mark.parametrize("stage, drivers, hours, needle", [
    ("no-such-stage", 2, 24, "no stage called `no-such-stage`"),
    ("pinewood-sprint", 5, 24, "`drivers` must be a number from 1 to 4, not `5`"),
    ("pinewood-sprint", 0, 24, "`drivers` must be a number from 1 to 4, not `0`"),
    ("pinewood-sprint", 2, 0.5, "`deadline_hours` must be a number from 1 to 168, not `0.5`"),
])
async def test_bad_create_options_are_refused_and_nothing_is_written(service, store, stage, drivers, hours, needle):
    with pytest.raises(RallyError) as err:
        await service.create(HERE, ALICE, stage, drivers=drivers, deadline_hours=hours)
    assert needle in str(err.value)
    assert await snapshot_of(store) is None


async def test_one_rally_per_channel(service, store):
    await service.create(HERE, ALICE, "pinewood-sprint")
    before = await snapshot_of(store)
    with pytest.raises(RallyError) as err:
        await service.create(HERE, BOB, "frozen-lakes")
    assert "already" in str(err.value).lower()
    assert await snapshot_of(store) == before
    other = Place(HERE.guild_id, HERE.channel_id + 1)
    assert "Frozen" in (await service.create(other, BOB, "frozen-lakes")).text


async def test_only_host_or_manager_starts_kicks_abandons(service, store):
    await service.create(HERE, ALICE, "pinewood-sprint")
    await service.join(HERE, BOB)
    before = await snapshot_of(store)
    for call in (service.start(HERE, BOB), service.abandon(HERE, BOB), service.kick(HERE, BOB, ALICE.user_id)):
        with pytest.raises(RallyError) as err:
            await call
        assert "Only the host" in str(err.value)
    assert await snapshot_of(store) == before
    assert "Bob, your turn" in (await service.start(HERE, MOD)).text  # Manage Server may start


async def test_join_twice_full_and_after_start_are_refused_unchanged(service, store):
    await service.create(HERE, ALICE, "pinewood-sprint", drivers=2)
    await service.join(HERE, ALICE)
    before = await snapshot_of(store)
    with pytest.raises(RallyError):
        await service.join(HERE, ALICE)
    assert await snapshot_of(store) == before
    await service.join(HERE, BOB)
    before = await snapshot_of(store)
    with pytest.raises(RallyError):
        await service.join(HERE, CAROL)
    assert await snapshot_of(store) == before
    await service.start(HERE, ALICE)
    before = await snapshot_of(store)
    with pytest.raises(RallyError) as err:
        await service.join(HERE, CAROL)
    assert "already started" in str(err.value)
    assert await snapshot_of(store) == before


async def test_start_without_drivers_is_refused(service, store):
    await service.create(HERE, ALICE, "pinewood-sprint")
    before = await snapshot_of(store)
    with pytest.raises(RallyError) as err:
        await service.start(HERE, ALICE)
    assert "at least one driver" in str(err.value)
    assert await snapshot_of(store) == before


async def test_no_rally_here_is_a_clear_refusal(service):
    for call in (service.join(HERE, ALICE), service.status(HERE, ALICE), service.act(HERE, ALICE, "1")):
        with pytest.raises(RallyError) as err:
            await call
        assert "no rally in this channel" in str(err.value)


async def test_leaving_a_running_rally_retires_the_car(service, store):
    await running_rally(service)
    reply = await service.leave(HERE, BOB)
    assert "Bob leaves the rally and retires" in reply.text
    assert "Alice, your turn" in reply.text
    status = await service.status(HERE, ALICE)
    assert status.ephemeral and "Bob: out" in status.text


async def test_abandon_frees_the_channel(service, store):
    await service.create(HERE, ALICE, "pinewood-sprint")
    await service.abandon(HERE, ALICE)
    assert await snapshot_of(store) is None
    assert "Pinewood" in (await service.create(HERE, BOB, "pinewood-sprint")).text


async def test_A3_a_random_start_order_is_drawn_from_the_rally_seed_logged_and_replayed(store):
    """RULES A3: SS1's start order is the host's (the join order) or random; random is drawn from
    the rally's seed, so it is reproducible, and logged with the start, so the log replays it."""
    from bot.services.play.replay import log_problem, replay_snapshot

    orders = set()
    for seed in range(6):
        place = Place(guild_id=10, channel_id=100 + seed)
        service = RallyService(store, seed_source=lambda seed=seed: seed)
        await service.create(place, ALICE, "pinewood-sprint", drivers=3, order="random")
        for actor in (ALICE, BOB, CAROL):
            await service.join(place, actor)
        started = await service.start(place, ALICE)
        orders.add(started.lines[0].split("Start order: ")[1])
    assert len(orders) > 1  # not always the join order
    assert (await store.check(replay_snapshot, log_problem)).ok
    with pytest.raises(RallyError, match="`order` is `joined`"):
        await RallyService(store).create(Place(10, 999), ALICE, "pinewood-sprint", order="fastest")


@pytest.mark.parametrize("modules", ["turbo", "attack,turbo", "x" * 80])
async def test_an_unknown_rules_plus_module_is_refused_and_nothing_is_created(service, store, modules):
    with pytest.raises(RallyError) as refused:
        await service.create(HERE, ALICE, "pinewood-sprint", modules=modules)
    assert "module" in str(refused.value)
    assert await snapshot_of(store) is None
