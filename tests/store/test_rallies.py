"""Rallies: one active rally per channel, lookups, and versioned lifecycle changes."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import dump, new_rally

from bot.store import ChannelBusy, NotFound, StaleVersion, WrongStatus


async def test_create_stores_every_setting(store):
    rally = await new_rally(
        store, channel_id=7, max_drivers=3, modules={"weather": True}, turn_deadline_s=86400, seed=2**63 - 1
    )
    again = await store.rallies.get(rally.id)
    assert again == rally
    assert (again.status, again.version, again.max_drivers) == ("lobby", 0, 3)
    assert again.modules == {"weather": True} and again.seed == 2**63 - 1
    assert again.turn_deadline_s == 86400


async def test_second_rally_in_a_channel_is_refused_and_nothing_written(store):
    first = await new_rally(store, channel_id=7)
    before = await dump(store)
    with pytest.raises(ChannelBusy) as refused:
        await new_rally(store, channel_id=7, host_id=99)
    assert str(refused.value).startswith("This channel already has a rally: ")
    assert f"#{first.id}" in str(refused.value)
    assert refused.value.rally_id == first.id
    assert await dump(store) == before


async def test_two_hosts_creating_at_once_one_wins(store):
    results = await asyncio.gather(
        new_rally(store, channel_id=7, host_id=1), new_rally(store, channel_id=7, host_id=2), return_exceptions=True
    )
    assert sum(isinstance(r, ChannelBusy) for r in results) == 1
    assert len(await store.rallies.list_by_status(("lobby",))) == 1


async def test_same_channel_id_in_another_guild_or_after_the_end_is_free(store):
    first = await new_rally(store, channel_id=7)
    await new_rally(store, channel_id=7, guild_id=2)
    await store.rallies.set_status(first.id, 0, "abandoned")
    again = await new_rally(store, channel_id=7)
    assert again.id != first.id
    assert (await store.rallies.get_active_in_channel(1, 7)).id == again.id
    assert await store.rallies.get_active_in_channel(1, 8) is None


async def test_get_missing_rally_is_not_found(store):
    with pytest.raises(NotFound, match="There is no rally #404"):
        await store.rallies.get(404)
    assert await store.rallies.find(404) is None


async def test_list_by_status(store):
    a = await new_rally(store, channel_id=1)
    b = await new_rally(store, channel_id=2)
    c = await new_rally(store, channel_id=3, guild_id=2)
    await store.rallies.set_status(b.id, 0, "running")
    assert [r.id for r in await store.rallies.list_by_status()] == [a.id, b.id, c.id]
    assert [r.id for r in await store.rallies.list_by_status(("running",))] == [b.id]
    assert [r.id for r in await store.rallies.list_by_status(("lobby",), guild_id=1)] == [a.id]
    with pytest.raises(ValueError):
        await store.rallies.list_by_status(("paused",))


async def test_set_snapshot_is_a_versioned_logged_change(store):
    rally = await new_rally(store)
    version = await store.set_snapshot(rally.id, 0, '{"round": 1}', "running", actor=10, action="start")
    after = await store.rallies.get(rally.id)
    assert (version, after.version, after.status, after.snapshot) == (1, 1, "running", '{"round": 1}')
    [logged] = await store.actions.list(rally.id)
    assert (logged.seq, logged.actor, logged.action) == (1, 10, "start")


async def test_set_status_keeps_the_snapshot_and_logs_a_default_action(store):
    rally = await new_rally(store)
    await store.append_action(rally.id, 0, 10, "start", '{"s": 1}', status="running")
    assert await store.rallies.set_status(rally.id, 1, "abandoned") == 2
    after = await store.rallies.get(rally.id)
    assert (after.status, after.snapshot) == ("abandoned", '{"s": 1}')
    assert [a.action for a in await store.actions.list(rally.id)] == [
        "start", '{"status":"abandoned","type":"status","v":1}']  # the canonical entry (action_codec)


async def test_stale_lifecycle_change_is_refused_and_changes_nothing(store):
    rally = await new_rally(store)
    await store.set_snapshot(rally.id, 0, "{}", "running", action="start")
    before = await dump(store)
    with pytest.raises(StaleVersion):
        await store.rallies.set_status(rally.id, 0, "abandoned")
    assert await dump(store) == before


@pytest.mark.parametrize(
    ("path", "target"),
    [(("running",), "lobby"), (("finished",), "running"), (("abandoned",), "lobby"), (("finished",), "abandoned")],
)
async def test_forbidden_status_changes_are_refused_and_change_nothing(store, path, target):
    rally = await new_rally(store)
    version = 0
    for status in path:
        version = await store.rallies.set_status(rally.id, version, status)
    before = await dump(store)
    with pytest.raises(WrongStatus):
        await store.rallies.set_status(rally.id, version, target)
    assert await dump(store) == before


@pytest.mark.parametrize(
    "overrides",
    # (a rally's maximum of seats is its game's: the lobby refuses 5 for classic, tests/services/test_games_in_lobby.py)
    [dict(max_drivers=0), dict(max_drivers=-1), dict(seed=-1), dict(seed=2**63), dict(turn_deadline_s=0)],
)
async def test_invalid_settings_are_refused_and_nothing_written(store, overrides):
    before = await dump(store)
    with pytest.raises(ValueError):
        await new_rally(store, **overrides)
    assert await dump(store) == before


async def test_delete_cascades_to_drivers_actions_and_messages(store):
    rally = await new_rally(store)
    await store.drivers.join(rally.id, 1, "Ann")
    await store.append_action(rally.id, 0, 1, "start", "{}")
    await store.messages.put(rally.id, "turn", 500, 9000)
    await store.rallies.delete(rally.id)
    assert await store.rallies.find(rally.id) is None
    assert await store.drivers.list(rally.id) == []
    assert await store.actions.count() == 0
    assert await store.messages.list(rally.id) == []
    with pytest.raises(NotFound):
        await store.rallies.delete(rally.id)
