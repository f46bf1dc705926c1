"""Turn commands through the services: refusals change nothing, concurrency, restart, replay."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.engine.core.errors import RallyError
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store
from tests.services.conftest import ALICE, BOB, HERE, running_rally, snapshot_of


async def test_driver_rolls_and_stops_and_the_turn_passes(service, store):
    await running_rally(service)
    reply = await service.act(HERE, BOB, "1 white")
    assert "**Bob** rolls 1" in reply.text and "→ space 2" in reply.text
    row = await store.outbox.get(reply.outbox[0])
    assert row.body["image"] is None and reply.ping == ()  # same turn: no board yet, nobody pinged
    reply = await service.verb(HERE, BOB, "stop", {})
    assert "stops in gear 1 (+50 s" in reply.text
    assert "Bob, your turn" in reply.text  # round 2: Bob (on the road) plays first (A4.3)


@pytest.mark.parametrize("who, text, needle", [
    ("alice", "1", "not your turn: Bob is driving"),
    ("bob", "2", "you may roll 1"),
    ("bob", "white", "No white die in neutral"),
    ("bob", "stop", "Roll at least one die"),
    ("bob", "banana", "I don't understand `banana`"),
    ("bob", "s", "could mean"),
    ("bob", "spare", "no flat tire"),
])
async def test_refused_commands_leave_the_stored_rally_byte_identical(service, store, who, text, needle):
    await running_rally(service)
    before = await snapshot_of(store)
    actor = {"alice": ALICE, "bob": BOB}[who]
    with pytest.raises(RallyError) as err:
        await service.act(HERE, actor, text)
    assert needle in str(err.value)
    assert await snapshot_of(store) == before


async def test_odds_are_private_and_change_nothing(service, store):
    await running_rally(service)
    before = await snapshot_of(store)
    reply = await service.verb(HERE, BOB, "odds", {"dice": "1 w"})
    assert reply.ephemeral and "0.0% chance of losing control" in reply.text
    assert await snapshot_of(store) == before


async def test_one_driver_twice_at_the_same_instant_exactly_one_succeeds(service, store):
    await running_rally(service)
    results = await asyncio.gather(service.act(HERE, BOB, "1"), service.act(HERE, BOB, "1"),
                                   return_exceptions=True)
    ok = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, RallyError)]
    assert len(ok) == 1 and len(refused) == 1
    if store.db.dialect == "sqlite":
        assert "already played" in str(refused[0])  # bound to the version it arrived at
    else:  # its arrival read runs on a pooled connection of its own: it may see the first roll already
        assert "already played" in str(refused[0]) or "Die 1 is already used this turn" in str(refused[0])
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert rally.version == 2 and len(await store.actions.list(rally.id)) == 2


async def test_two_drivers_at_the_same_instant_exactly_one_succeeds(service, store):
    await running_rally(service)
    results = await asyncio.gather(service.act(HERE, ALICE, "1"), service.act(HERE, BOB, "1"),
                                   return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert "not your turn" in str(results[0])


async def test_a_stale_button_is_refused(service, store):
    started = await running_rally(service)
    version = started.turn.version
    await service.act(HERE, BOB, "1", expected_version=version)
    before = await snapshot_of(store)
    with pytest.raises(RallyError) as err:
        await service.act(HERE, BOB, "white", expected_version=version)
    assert "turn is over" in str(err.value)
    assert await snapshot_of(store) == before


async def _play_to_the_end(service: RallyService, limit: int = 2000) -> str:
    """Drive the running rally with the engine's AI through the services; the last reply text."""
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.protocol import GAME as RALLYMAN

    text = ""
    for _ in range(limit):
        rally = await service.store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
        if rally is None:
            return text
        state = service.work.state_of(rally)
        car = state.cars[state.turn.car]
        actor = {ALICE.user_id: ALICE, BOB.user_id: BOB}[int(car.id)]
        text = (await service.act(HERE, actor, RALLYMAN.commands.label(choose_action(state)))).text
    raise AssertionError("the rally did not finish")


async def test_restart_mid_rally_then_finish(tmp_path):
    path = tmp_path / "restart.sqlite3"
    store = await Store.open(path)
    try:
        service = RallyService(store, seed_source=lambda: 5)
        await running_rally(service)
        await service.act(HERE, BOB, "1 w 2 stop")
    finally:
        await store.close()
    store = await Store.open(path)  # a new process: nothing cached
    try:
        service = RallyService(store, seed_source=lambda: 5)
        assert "Bob: space 3," in (await service.status(HERE, ALICE)).text
        last = await _play_to_the_end(service)
        assert "Results" in last
        report = await store.check(replay_snapshot, log_problem)
        assert report.ok and report.rallies == 1 and report.actions > 10
    finally:
        await store.close()


async def test_every_snapshot_equals_the_replay_of_its_log(service, store):
    await running_rally(service)
    for text in ("1", "w", "2", "stop"):
        await service.act(HERE, BOB, text)
    report = await store.check(replay_snapshot, log_problem)
    assert report.ok, [str(m) for m in report.mismatches]
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    tampered = json.loads(rally.snapshot)
    tampered["cars"][0]["lost_black"] = 3
    await store.db.write(lambda tx: tx.execute("UPDATE rallies SET snapshot = ? WHERE id = ?",
                                               (json.dumps(tampered), rally.id)))
    assert not (await store.check(replay_snapshot, log_problem)).ok
