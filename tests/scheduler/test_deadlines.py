"""Turn deadlines with a fake clock: the clock starts when the turn prompt is delivered, a
reminder at half time, stop / AI / no-move card at the deadline, missed turns, stale jobs, and
a restart in between (the overdue job runs once, late, with a note). What the bot says is read
from the outbox as a sender delivers it (`deliver`)."""

from __future__ import annotations

from datetime import timedelta

from bot.engine.rallyman.action_codec import from_text as entry_of
from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Retire, Roll, Stop, Timeout
from bot.services import RallyService
from bot.services.delivery import Failure
from bot.services.play.deadlines import KIND_DEADLINE, KIND_REMIND, DeadlineService, job_ref
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store
from bot.store.clock import from_text
from tests.scheduler.conftest import BOB, HERE, HOURS, deliver, start_rally, text_of
from tests.services.conftest import snapshot_of


async def rally_now(store):
    return await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)


async def active_driver(service, store) -> int:
    """Whose turn it is now (the order follows the cars' positions, not the seats)."""
    return int(service.work.state_of(await rally_now(store)).active.id)


async def jobs_of(deadlines, rally_id):
    return sorted((j.kind, j.ref, from_text(j.due_at)) for j in await deadlines.pending(rally_id))


async def test_a_delivered_turn_gets_a_reminder_at_half_time_and_a_deadline(store, deadlines, service, clock):
    reply = await start_rally(service, fail=Failure.RETRY)  # Discord hiccups ...
    clock.advance(minutes=7)  # ... the prompt reaches the channel a little later
    (prompt,) = await deliver(service)
    delivered_at = clock.now
    rally_id = reply.turn.rally_id
    ref = job_ref(rally_id)
    assert await jobs_of(deadlines, rally_id) == [
        (KIND_DEADLINE, ref, delivered_at + timedelta(hours=HOURS)),
        (KIND_REMIND, ref, delivered_at + timedelta(hours=HOURS / 2))]
    assert prompt.turn is not None and prompt.due == delivered_at + timedelta(hours=HOURS)  # shown to Bob


async def test_rolling_on_keeps_the_deadline_and_a_new_turn_restarts_it(store, deadlines, service, clock):
    reply = await start_rally(service)
    rally_id = reply.turn.rally_id
    first_due = clock.now + timedelta(hours=HOURS)
    clock.advance(minutes=10)
    await service.act(HERE, BOB, "1")
    (go_on,) = await deliver(service)
    assert go_on.due == first_due and await deadlines.due_at(rally_id) == first_due  # same turn: same deadline
    clock.advance(minutes=10)
    await service.verb(HERE, BOB, "stop", {})
    (next_turn,) = await deliver(service)
    assert next_turn.ping == (await active_driver(service, store),)
    assert next_turn.due == clock.now + timedelta(hours=HOURS)
    assert await deadlines.due_at(rally_id) == clock.now + timedelta(hours=HOURS)
    assert [kind for kind, _, _ in await jobs_of(deadlines, rally_id)] == [KIND_DEADLINE, KIND_REMIND]  # one pair


async def test_the_reminder_pings_the_driver_and_changes_nothing(store, deadlines, service, clock):
    await start_rally(service)
    assert await deadlines.run_due() == 0  # nothing due yet
    before = await snapshot_of(store)
    clock.advance(hours=HOURS / 2, minutes=1)
    assert await deadlines.run_due() == 1
    (reminder,) = await deliver(service)
    assert reminder.row.channel_id == HERE.channel_id and reminder.ping == (BOB.user_id,)
    assert "Bob, half of your time for this turn is gone" in text_of([reminder])
    assert await snapshot_of(store) == before
    assert await deadlines.run_due() == 0  # a job runs once
    assert await deliver(service) == []


async def test_at_the_deadline_a_driver_who_rolled_is_stopped(store, deadlines, service, clock):
    await start_rally(service)
    await service.act(HERE, BOB, "1")
    await deliver(service)
    clock.advance(hours=HOURS, minutes=1)
    assert await deadlines.run_due() == 1
    (post,) = await deliver(service)
    text = text_of([post])
    assert "Time is up for Bob: the turn ends here" in text and "**Bob** stops in gear 1" in text
    assert post.ping == (await active_driver(service, store),)  # the next driver is told
    rally = await rally_now(store)
    log = await store.actions.list(rally.id)
    assert (entry_of(log[-1].action), log[-1].actor) == (Stop(), None)  # the bot's own action
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 1
    assert await deadlines.due_at(rally.id) == clock.now + timedelta(hours=HOURS)  # Alice's clock, from delivery
    assert (await store.check(replay_snapshot, log_problem)).ok  # the log replays the bot's action too


async def test_a_turn_not_begun_is_driven_by_the_ai(store, deadlines, service, clock):
    await start_rally(service)
    clock.advance(hours=HOURS, minutes=1)
    assert await deadlines.run_due() == 1
    text = text_of(await deliver(service))
    assert "the AI drives this turn" in text and "**Bob** rolls 1" in text
    rally = await rally_now(store)
    bot_actions = [entry_of(a.action) for a in await store.actions.list(rally.id) if a.actor is None]
    assert isinstance(bot_actions[0], Roll) and bot_actions[0].dice == ("1",)
    state = service.work.state_of(rally)
    assert state.turn.used == []  # the AI finished Bob's turn: a fresh one is open
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 1
    assert (await store.check(replay_snapshot, log_problem)).ok


async def test_without_ai_on_timeout_the_bot_ends_the_turn_with_the_no_move_card(store, deadlines, service, clock):
    await start_rally(service, ai_on_timeout=False)
    clock.advance(hours=HOURS, minutes=1)
    assert await deadlines.run_due() == 1
    (post,) = await deliver(service)
    assert "Time is up for Bob: the turn ends without a move (1 of 3 missed turns allowed)" in text_of([post])
    rally, drivers, log = await snapshot_of(store)
    assert entry_of(log[-1]["action"]) == Timeout() and log[-1]["actor"] is None
    state = service.work.state_of(await store.rallies.get(rally["id"]))
    bob = state.car_by_id(str(BOB.user_id))
    assert bob.position == -1 and [c.kind for c in bob.pile] == ["nomove"]  # stood still (A13.5)
    assert bob.pile[0].seconds == 60  # no card yet: 60 s in neutral (OPEN-12)
    assert [d["missed_turns"] for d in drivers if d["user_id"] == BOB.user_id] == [1]
    assert (await store.check(replay_snapshot, log_problem)).ok


async def test_three_missed_turns_in_a_row_retire_the_driver(store, deadlines, service, clock):
    await start_rally(service, BOB)  # alone: every turn is Bob's
    rally = await rally_now(store)
    texts = []
    for _ in range(3):
        clock.advance(hours=HOURS, minutes=1)
        assert await deadlines.run_due() == 1
        texts.append(text_of(await deliver(service)))  # delivering starts the next turn's clock
    assert "the AI drives" in texts[0] and "the AI drives" in texts[1]
    assert "Bob missed 3 turns in a row and retires" in texts[2] and "Results" in texts[2]
    assert (await store.rallies.get(rally.id)).status == "finished"
    assert (await store.actions.list(rally.id))[-1].action == log_text(Retire(str(BOB.user_id)))
    assert await deadlines.pending(rally.id) == []  # no clock after the results
    assert (await store.check(replay_snapshot, log_problem)).ok


async def test_playing_resets_the_missed_turn_count(store, deadlines, service, clock):
    await start_rally(service, BOB)
    clock.advance(hours=HOURS, minutes=1)
    await deadlines.run_due()
    await deliver(service)
    rally = await rally_now(store)
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 1
    await service.act(HERE, BOB, (await service.options(HERE, BOB))[0])
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 0


async def test_a_stale_job_does_nothing(store, deadlines, service, clock):
    """A deadline job taken by the scheduler just as Bob ends his turn himself: the action
    cancelled it, so running it afterwards must neither stop Alice nor post anything."""
    await start_rally(service)
    clock.advance(hours=HOURS, minutes=1)
    (stale, *_) = [j for j in await store.jobs.claim_due(clock.now) if j.kind == KIND_DEADLINE]
    await service.act(HERE, BOB, "1 stop")  # Bob plays first: the turn is over
    await deliver(service)
    before = await snapshot_of(store)
    assert await deadlines.handle(stale, clock.now) == 0
    assert await snapshot_of(store) == before
    assert await deliver(service) == []
    rally = await rally_now(store)
    assert (await store.drivers.get(rally.id, BOB.user_id)).missed_turns == 0


async def test_a_leftover_job_of_an_ended_rally_does_nothing(store, deadlines, service, clock):
    reply = await start_rally(service)
    rally_id = reply.turn.rally_id
    await service.abandon(HERE, BOB)
    await deliver(service)
    await store.jobs.schedule(KIND_DEADLINE, job_ref(rally_id), clock.now, rally_id)  # a leftover
    before = await store.actions.list(rally_id)
    assert await deadlines.run_due() == 0
    assert await store.actions.list(rally_id) == before and await deliver(service) == []
    assert await deadlines.pending(rally_id) == []  # done, not retried


async def test_after_a_restart_the_overdue_deadline_runs_once_late_with_a_note(db_path, clock):
    store = await Store.open(db_path)
    try:
        service = RallyService(store, seed_source=lambda: 42, clock=clock)
        await start_rally(service)
        due = clock.now + timedelta(hours=HOURS)
        await service.act(HERE, BOB, "1")
        await deliver(service)
    finally:
        await store.close()  # the bot goes down before the deadline
    clock.advance(hours=HOURS * 5)  # ... and comes back long after it
    store = await Store.open(db_path)
    try:
        service = RallyService(store, seed_source=lambda: 42, clock=clock)
        deadlines = DeadlineService(service.work, clock=clock, when=lambda moment: moment.isoformat())
        assert await deadlines.run_due() == 1  # the overdue reminder is skipped: the deadline itself is due
        (post,) = await deliver(service)
        text = text_of([post])
        assert f"This was due {due.isoformat()}, while I was offline" in text and "**Bob** stops" in text
        assert await deadlines.run_due() == 0  # once
        rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
        assert [entry_of(a.action) for a in await store.actions.list(rally.id)].count(Stop()) == 1
        assert await deadlines.due_at(rally.id) == clock.now + timedelta(hours=HOURS)  # next turn
    finally:
        await store.close()


async def test_resync_gives_a_clock_to_a_running_rally_that_has_none(store, deadlines, service, clock):
    reply = await start_rally(service, BOB)
    rally_id = reply.turn.rally_id
    for kind in (KIND_REMIND, KIND_DEADLINE):  # a database from before the outbox: no clock
        await store.jobs.cancel(kind, job_ref(rally_id))
    clock.advance(minutes=30)
    assert await deadlines.resync() == 1
    assert await deadlines.resync() == 0
    assert await deadlines.due_at(rally_id) == clock.now + timedelta(hours=HOURS)
    clock.advance(hours=HOURS, minutes=1)
    assert await deadlines.run_due() == 1  # and it runs
    assert "the AI drives this turn" in text_of(await deliver(service))


async def test_resync_starts_no_clock_for_a_prompt_still_owed(store, deadlines, service, clock):
    """The delivery of the owed prompt will start the clock: resync must not charge Bob for a
    turn he has not been told about."""
    reply = await start_rally(service, BOB, fail=Failure.RETRY)
    assert await deadlines.resync() == 0
    assert await deadlines.due_at(reply.turn.rally_id) is None
