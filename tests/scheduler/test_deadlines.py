"""Turn deadlines with a fake clock: reminder, stop / AI / wait at the deadline, missed turns,
stale jobs, and a restart in between (the overdue job runs once, late, with a note)."""

from __future__ import annotations

from datetime import timedelta

from bot.services import RallyService
from bot.services.deadlines import KIND_DEADLINE, KIND_REMIND, DeadlineService, job_ref
from bot.services.replay import replay_snapshot
from bot.store import Store
from bot.store.clock import from_text
from tests.scheduler.conftest import BOB, HERE, HOURS, start_rally
from tests.services.conftest import snapshot_of


async def rally_now(store):
    return await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)


async def jobs_of(deadlines, rally_id):
    return sorted((j.kind, j.ref, from_text(j.due_at)) for j in await deadlines.pending(rally_id))


async def test_a_turn_gets_a_reminder_at_half_time_and_a_deadline(store, deadlines, service, clock):
    reply = await start_rally(service, deadlines)
    start = clock.now
    ref = job_ref(reply.turn.rally_id, reply.turn.version)
    assert await jobs_of(deadlines, reply.turn.rally_id) == [
        (KIND_DEADLINE, ref, start + timedelta(hours=HOURS)), (KIND_REMIND, ref, start + timedelta(hours=HOURS / 2))]


async def test_rolling_on_keeps_the_deadline_and_a_new_turn_restarts_it(store, deadlines, service, clock):
    reply = await start_rally(service, deadlines)
    first_due = clock.now + timedelta(hours=HOURS)
    clock.advance(minutes=10)
    reply = await service.act(HERE, BOB, "1")
    assert await deadlines.track(reply, BOB.user_id) == first_due  # same turn: same deadline
    assert {ref for _, ref, _ in await jobs_of(deadlines, reply.turn.rally_id)} == {
        job_ref(reply.turn.rally_id, reply.turn.version)}  # moved to the new version
    clock.advance(minutes=10)
    reply = await service.stop(HERE, BOB)
    assert await deadlines.track(reply, BOB.user_id) == clock.now + timedelta(hours=HOURS)


async def test_the_reminder_pings_the_driver_and_changes_nothing(store, deadlines, service, clock):
    await start_rally(service, deadlines)
    assert await deadlines.run_due() == []  # nothing due yet
    before = await snapshot_of(store)
    clock.advance(hours=HOURS / 2, minutes=1)
    (notice,) = await deadlines.run_due()
    assert notice.channel_id == HERE.channel_id and notice.reply.ping == (BOB.user_id,)
    assert "Bob, half of your time for this turn is gone" in notice.reply.text
    assert await snapshot_of(store) == before
    assert await deadlines.run_due() == []  # a job runs once


async def test_at_the_deadline_a_driver_who_rolled_is_stopped(store, deadlines, service, clock):
    await start_rally(service, deadlines)
    await deadlines.track(await service.act(HERE, BOB, "1"), BOB.user_id)
    clock.advance(hours=HOURS, minutes=1)
    notices = await deadlines.run_due()
    text = notices[-1].reply.text
    assert "Time is up for Bob: the turn ends here" in text and "**Bob** stops in gear 1" in text
    rally = await rally_now(store)
    log = await store.actions.list(rally.id)
    assert (log[-1].action, log[-1].actor) == ("stop", None)  # the bot's own action
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 1
    assert {ref for _, ref, _ in await jobs_of(deadlines, rally.id)} == {job_ref(rally.id, rally.version)}
    assert (await store.check(replay_snapshot)).ok  # the log replays the bot's action too


async def test_a_turn_not_begun_is_driven_by_the_ai(store, deadlines, service, clock):
    await start_rally(service, deadlines)
    clock.advance(hours=HOURS, minutes=1)
    text = (await deadlines.run_due())[-1].reply.text
    assert "the AI drives this turn" in text and "**Bob** rolls 1" in text
    rally = await rally_now(store)
    bot_actions = [a.action for a in await store.actions.list(rally.id) if a.actor is None]
    assert bot_actions[0].startswith("roll 1")
    assert service.state_of(rally).turn.used == []  # the AI finished the turn: a fresh one is open
    assert (await store.check(replay_snapshot)).ok


async def test_without_ai_on_timeout_the_bot_ends_the_turn_with_the_no_move_card(store, deadlines, service, clock):
    await start_rally(service, deadlines, ai_on_timeout=False)
    clock.advance(hours=HOURS, minutes=1)
    (notice,) = await deadlines.run_due()
    assert "Time is up for Bob: the turn ends without a move (1 of 3 missed turns allowed)" in notice.reply.text
    rally, drivers, log = await snapshot_of(store)
    assert log[-1]["action"] == "timeout" and log[-1]["actor"] is None
    state = service.state_of(await store.rallies.get(rally["id"]))
    bob = state.car_by_id(str(BOB.user_id))
    assert bob.position == -1 and [c.kind for c in bob.pile] == ["nomove"]  # stood still (A13.5)
    assert bob.pile[0].seconds == 60  # no card yet: 60 s in neutral (OPEN-12)
    assert [d["missed_turns"] for d in drivers if d["user_id"] == BOB.user_id] == [1]
    assert (await store.check(replay_snapshot)).ok


async def test_three_missed_turns_in_a_row_retire_the_driver(store, deadlines, service, clock):
    await start_rally(service, deadlines, BOB)  # alone: every turn is Bob's
    rally = await rally_now(store)
    texts = []
    for _ in range(3):
        clock.advance(hours=HOURS, minutes=1)
        texts.append("\n".join(n.reply.text for n in await deadlines.run_due()))
    assert "the AI drives" in texts[0] and "the AI drives" in texts[1]
    assert "Bob missed 3 turns in a row and retires" in texts[2] and "Results" in texts[2]
    assert (await store.rallies.get(rally.id)).status == "finished"
    assert (await store.actions.list(rally.id))[-1].action == f"retire {BOB.user_id}"
    assert (await store.check(replay_snapshot)).ok


async def test_playing_resets_the_missed_turn_count(store, deadlines, service, clock):
    await start_rally(service, deadlines, BOB)
    clock.advance(hours=HOURS, minutes=1)
    await deadlines.run_due()
    rally = await rally_now(store)
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 1
    reply = await service.act(HERE, BOB, (await service.options(HERE, BOB))[0])
    await deadlines.track(reply, BOB.user_id)
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 0


async def test_a_stale_job_does_nothing(store, deadlines, service, clock):
    reply = await start_rally(service, deadlines)
    old = reply.turn
    await store.jobs.schedule(KIND_DEADLINE, job_ref(old.rally_id, old.version), clock.now)  # a leftover
    await deadlines.track(await service.act(HERE, BOB, "1"), BOB.user_id)  # the turn moved on
    before = await snapshot_of(store)
    assert await deadlines.run_due() == []
    assert await snapshot_of(store) == before
    assert all(j.ref != job_ref(old.rally_id, old.version) for j in await store.jobs.pending())


async def test_after_a_restart_the_overdue_deadline_runs_once_late_with_a_note(db_path, clock):
    store = await Store.open(db_path)
    try:
        service = RallyService(store, seed_source=lambda: 42)
        deadlines = DeadlineService(service, clock=clock)
        await start_rally(service, deadlines)
        await deadlines.track(await service.act(HERE, BOB, "1"), BOB.user_id)
        due = clock.now + timedelta(hours=HOURS)
    finally:
        await store.close()  # the bot goes down before the deadline
    clock.advance(hours=HOURS * 5)  # ... and comes back long after it
    store = await Store.open(db_path)
    try:
        deadlines = DeadlineService(RallyService(store, seed_source=lambda: 42), clock=clock,
                                    when=lambda moment: moment.isoformat())
        notices = await deadlines.run_due()
        assert len(notices) == 1  # the overdue reminder is skipped: the deadline itself is due
        text = notices[0].reply.text
        assert f"This was due {due.isoformat()}, while I was offline" in text and "**Bob** stops" in text
        assert await deadlines.run_due() == []  # once
        rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
        assert [a.action for a in await store.actions.list(rally.id)].count("stop") == 1
        assert await deadlines.due_at(rally.id) == clock.now + timedelta(hours=HOURS)  # next turn
    finally:
        await store.close()


async def test_resync_gives_a_deadline_to_a_rally_that_lost_it(store, deadlines, service, clock):
    reply = await service.create(HERE, BOB, "pinewood-sprint", drivers=1, deadline_hours=HOURS)
    assert reply
    await service.join(HERE, BOB)
    await service.start(HERE, BOB)  # the bot crashed before `track`
    assert await deadlines.resync() == 1
    assert await deadlines.resync() == 0
    rally = await rally_now(store)
    assert await deadlines.due_at(rally.id) == clock.now + timedelta(hours=HOURS)
