"""The turn clock belongs to what the channel was actually told (issue "Nothing lost between the
bot and Discord"): a prompt that never reached the channel starts no clock, a paused rally runs
no deadline, a deadline job that two workers hold acts once, and a rally's jobs are found by its
id, never by listing everyone's pending jobs."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Timeout
from bot.services.delivery import Failure
from bot.services.play.deadlines import DEADLINE_KINDS, KIND_DEADLINE, KIND_REMIND
from bot.store.clock import from_text
from tests.scheduler.conftest import ALICE, BOB, CAROL, HERE, HOURS, THERE, deliver, start_rally, text_of
from tests.services.conftest import snapshot_of


async def rally_in(store, place=HERE):
    return await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)


async def test_a_prompt_never_delivered_starts_no_clock_and_charges_no_missed_turn(store, deadlines, service,
                                                                                  clock):
    """Discord is down when the rally starts: Bob was never told it is his turn, so the time
    that passes is not his; the clock starts when the prompt finally reaches the channel."""
    reply = await start_rally(service, fail=Failure.RETRY)  # 5xx: the prompt did not reach the channel
    rally_id = reply.turn.rally_id
    (owed,) = await store.outbox.owed(rally_id=rally_id)
    assert owed.attempts == 1 and owed.body["turn"]["driver_id"] == BOB.user_id  # tried, still owed
    assert await deadlines.pending(rally_id) == []  # so no clock
    before = await snapshot_of(store)
    clock.advance(hours=HOURS * 3)  # long past the deadline Bob would have had
    assert await deadlines.run_due() == 0
    assert await snapshot_of(store) == before  # no AI turn, no stop, no missed turn
    assert (await store.drivers.get(rally_id, BOB.user_id)).missed_turns == 0
    assert await deadlines.resync() == 0  # the owed prompt will start the clock, not the resync
    clock.advance(minutes=5)  # Discord is back; the sender retries
    delivered_at = clock.now
    (prompt,) = await deliver(service)
    assert prompt.ping == (BOB.user_id,) and "your turn" in text_of([prompt])
    assert prompt.due == delivered_at + timedelta(hours=HOURS)  # what Bob reads
    assert await deadlines.due_at(rally_id) == delivered_at + timedelta(hours=HOURS)
    clock.advance(hours=HOURS, minutes=-1)
    assert await deadlines.run_due() == 1 and "half of your time" in text_of(await deliver(service))
    assert await snapshot_of(store) == before  # a minute before his deadline, Bob still has his turn
    clock.advance(minutes=2)
    assert await deadlines.run_due() == 1
    assert "Time is up for Bob" in text_of(await deliver(service))
    assert (await store.drivers.get(rally_id, BOB.user_id)).missed_turns == 1


async def test_a_paused_rally_runs_no_deadline_and_its_clock_restarts_when_posting_works(store, deadlines,
                                                                                         service, clock):
    """The bot loses the right to post (403) while Bob's clock runs: the rally is paused, the
    host is told by DM, and however long it lasts no AI turn is played; the first post that
    gets through resumes the rally and gives Bob a whole new turn's time from then."""
    reply = await start_rally(service)
    rally_id = reply.turn.rally_id
    assert await deadlines.due_at(rally_id) is not None  # Bob's clock runs
    clock.advance(minutes=20)
    await service.board(HERE, BOB)  # something to post ...
    (dm,) = await deliver(service, fail=Failure.FORBIDDEN)  # ... in a channel that refuses it
    assert dm.is_dm and dm.row.user_id == BOB.user_id and "is paused" in text_of([dm])
    rally = await rally_in(store)
    assert rally.paused_at is not None and await deadlines.pending(rally_id) == []
    before = await snapshot_of(store)
    clock.advance(hours=HOURS * 10)
    assert await deadlines.run_due() == 0
    assert await snapshot_of(store) == before  # no AI turn, no missed turn
    assert (await store.drivers.get(rally_id, BOB.user_id)).missed_turns == 0
    assert await deadlines.resync() == 0  # a paused rally gets no clock either
    assert await deliver(service, fail=Failure.FORBIDDEN) == []  # still refused: still paused
    assert (await rally_in(store)).paused_at is not None
    clock.advance(hours=1)  # the admin fixed the permissions; the sender tries again
    resumed_at = clock.now
    (board,) = await deliver(service)
    assert board.image["kind"] == "board"  # the post that waited, delivered at last
    assert (await rally_in(store)).paused_at is None
    assert await deadlines.due_at(rally_id) == resumed_at + timedelta(hours=HOURS)
    clock.advance(hours=HOURS, minutes=1)
    assert await deadlines.run_due() == 1
    assert "Time is up for Bob: the AI drives this turn" in text_of(await deliver(service))


async def test_a_turn_played_while_paused_gets_its_clock_when_the_rally_resumes(store, deadlines, service, clock):
    await start_rally(service)
    rally_id = (await rally_in(store)).id
    await service.act(HERE, BOB, "1 stop")
    await deliver(service, fail=Failure.FORBIDDEN)  # the next turn's prompt is refused: paused
    clock.advance(hours=HOURS * 4)
    assert await deadlines.run_due() == 0
    next_driver = int(service.work.state_of(await rally_in(store)).active.id)
    (prompt,) = [out for out in await deliver(service) if not out.is_dm]
    assert prompt.ping == (next_driver,) and prompt.due == clock.now + timedelta(hours=HOURS)
    assert await deadlines.due_at(rally_id) == clock.now + timedelta(hours=HOURS)


async def test_a_deadline_job_held_by_two_workers_acts_once(store, deadlines, service, clock):
    """A worker claimed the deadline and stalled past its lease; another claims it again. Both
    run it: Bob's turn must be ended once (one set of logged actions, one missed turn, one post)."""
    reply = await start_rally(service)
    rally_id = reply.turn.rally_id
    log_before = len(await store.actions.list(rally_id))
    clock.advance(hours=HOURS, minutes=1)
    held = [j for j in await store.jobs.claim_due(clock.now) if j.kind == KIND_DEADLINE]  # the stalled worker
    assert len(held) == 1
    clock.advance(minutes=10)  # its lease ran out
    acted = await asyncio.gather(deadlines.handle(held[0], clock.now), deadlines.run_due(), deadlines.run_due())
    assert sum(acted) == 1
    posts = await deliver(service)
    assert len(posts) == 1 and text_of(posts).count("Time is up for Bob") == 1
    assert all(a.actor is None for a in (await store.actions.list(rally_id))[log_before:])  # only the bot's turn
    missed = {d.user_id: d.missed_turns for d in await store.drivers.list(rally_id)}
    assert missed == {BOB.user_id: 1, ALICE.user_id: 0}  # Bob charged once, nobody else driven by the AI
    assert service.work.state_of(await rally_in(store)).turn.used == []  # a fresh turn waits for its driver
    assert await deadlines.run_due() == 0


async def test_two_concurrent_runs_of_the_same_due_jobs_act_once(store, deadlines, service, clock):
    reply = await start_rally(service, ai_on_timeout=False)
    rally_id = reply.turn.rally_id
    clock.advance(hours=HOURS, minutes=1)
    acted = await asyncio.gather(deadlines.run_due(), deadlines.run_due())
    assert sum(acted) == 1
    posts = await deliver(service)
    assert len(posts) == 1 and "the turn ends without a move (1 of 3" in text_of(posts)
    assert [a.action for a in await store.actions.list(rally_id)].count(log_text(Timeout())) == 1


async def test_jobs_are_found_by_rally(store, deadlines, service, clock, monkeypatch):
    """Two rallies run in two channels: each one's jobs are its own, found through the index;
    nothing in delivering and running deadlines lists every pending job."""

    async def listing_everything(*args, **kwargs):
        raise AssertionError("listed every pending job")

    monkeypatch.setattr(store.jobs, "pending", listing_everything)
    here = (await start_rally(service, BOB, ALICE)).turn.rally_id
    clock.advance(minutes=30)
    there = (await start_rally(service, CAROL, place=THERE)).turn.rally_id
    assert here != there
    for rally_id, started in ((here, clock.now - timedelta(minutes=30)), (there, clock.now)):
        jobs = await store.jobs.for_rally(rally_id, DEADLINE_KINDS)
        assert {j.rally_id for j in jobs} == {rally_id} and sorted(j.kind for j in jobs) == [KIND_DEADLINE,
                                                                                             KIND_REMIND]
        (deadline,) = await store.jobs.for_rally(rally_id, (KIND_DEADLINE,))
        assert from_text(deadline.due_at) == started + timedelta(hours=HOURS)
    there_due = clock.now + timedelta(hours=HOURS)
    clock.advance(hours=HOURS - 0.5, minutes=1)  # past the first rally's deadline only
    assert await deadlines.run_due() == 2  # the first rally's deadline, the second one's reminder
    posts = await deliver(service)
    assert {p.row.channel_id for p in posts if "Time is up" in text_of([p])} == {HERE.channel_id}
    (reminder,) = [p for p in posts if p.row.channel_id == THERE.channel_id]
    assert "Carol, half of your time" in text_of([reminder]) and reminder.ping == (CAROL.user_id,)
    assert (await store.drivers.get(there, CAROL.user_id)).missed_turns == 0
    assert await deadlines.due_at(there) == there_due  # Carol's clock untouched


async def test_after_a_pause_the_clock_waits_for_the_drivers_own_prompt(store, deadlines, service, clock):
    """Paused by a 403 on a board post; meanwhile Bob ends his turn, so the next driver's prompt
    is owed behind the board. When Discord takes the board but not yet the prompt (503), the next
    driver still has not been told it is their turn: no clock may run for them yet."""
    reply = await start_rally(service)
    rally_id = reply.turn.rally_id
    await service.board(HERE, BOB)
    await deliver(service, fail=Failure.FORBIDDEN)  # paused
    await service.act(HERE, BOB, "1 stop")  # played while paused: the next prompt waits behind the board
    clock.advance(hours=1)
    (board,) = await service.delivery.claim()
    assert board.turn is None
    await service.delivery.sent(board, 1)  # the board gets through: the rally resumes ...
    (prompt,) = await service.delivery.claim()
    assert prompt.turn is not None
    await service.delivery.failed(prompt, Failure.RETRY)  # ... but the turn prompt does not
    assert (await rally_in(store)).paused_at is None
    assert await deadlines.due_at(rally_id) is None  # nobody was told whose turn it is
    clock.advance(hours=HOURS * 2)
    before = await snapshot_of(store)
    assert await deadlines.run_due() == 0 and await snapshot_of(store) == before
    delivered_at = clock.now
    (prompt,) = [out for out in await deliver(service) if out.turn is not None]
    assert prompt.due == delivered_at + timedelta(hours=HOURS)
    assert await deadlines.due_at(rally_id) == delivered_at + timedelta(hours=HOURS)


async def test_old_delivered_posts_and_done_jobs_are_forgotten_but_owed_ones_stay(store, service, deadlines, clock):
    """Housekeeping: the outbox and the jobs table keep what is owed or pending; what was
    delivered or done more than a week ago goes (the action log keeps the history)."""
    await start_rally(service)
    delivered = [r for r in await store.outbox.all() if r.done_at is not None]
    assert delivered
    clock.advance(days=8)
    # a new post, owed, and the first turn's jobs cancelled
    await service.verb(HERE, BOB, "roll", {"dice": "1", "end": True})
    owed_before = await store.outbox.owed()
    removed = await deadlines.prune()
    assert removed >= len(delivered)
    assert [r.id for r in await store.outbox.owed()] == [r.id for r in owed_before]
    assert all(r.done_at is None for r in await store.outbox.all())
