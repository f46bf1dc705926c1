"""The scheduler loop on a real bot (network recorded; the loops are not started, the tests call
`tick()` and then `sender.flush()` as the running loops would): what a deadline job does reaches
the channel through the outbox as a normal message, pinging only the next driver, with fresh
buttons, and the old buttons go; a turn's clock starts only when its prompt reached Discord; a
channel that refuses the bot pauses its own rally and nobody else's; a failure never stops the loop."""

from __future__ import annotations

from datetime import timedelta
from unittest.mock import AsyncMock

from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    Harness,
    buttons_of,
    channel_posts,
    command_payload,
    http_error,
    option,
    posts,
)

BOB = (1002, "Bob")
ALICE = (1001, "Alice")
CAROL = (1003, "Carol")
OTHER = 21  # a second channel of the same server
HOURS = 4


async def command_in(h: Harness, channel_id: int, user, name: str, sub: str | None = None, **values):
    """A slash command typed in `channel_id` (the fakes type in CHANNEL by default)."""
    payload = command_payload(user, name, sub, [option(k, v) for k, v in values.items()])
    payload["channel_id"] = str(channel_id)
    payload["channel"]["id"] = str(channel_id)
    return await h.dispatch(payload)


async def started(h: Harness, channel_id: int = CHANNEL, *users) -> None:
    users = users or (BOB, ALICE)
    await command_in(h, channel_id, users[0], "rally", "create", stage="pinewood-sprint", drivers=len(users),
                     deadline_hours=HOURS)
    for user in users:
        await command_in(h, channel_id, user, "rally", "join")
    await command_in(h, channel_id, users[0], "rally", "start")


async def rally_in(h: Harness, channel_id: int = CHANNEL):
    return await h.bot.store.rallies.get_active_in_channel(GUILD, channel_id)


def in_channel(calls, channel_id: int):
    return [c for c in channel_posts(calls) if f"/channels/{channel_id}/messages" in c.url]


async def test_the_tick_posts_the_reminder_and_the_turn_the_bot_ended(tmp_path):
    async with Harness(tmp_path / "loop.sqlite3") as h:
        await started(h)
        await h.command(BOB, "roll", dice="1")
        current = h.last_turn_message()  # the turn message of Bob's roll, with its buttons
        h.clock.advance(hours=HOURS / 2, minutes=1)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 1
        await h.bot.sender.flush()
        (reminder,) = posts(h.sent[before:])
        assert reminder.via == "http" and reminder.url.endswith(f"/channels/{CHANNEL}/messages")
        assert "Bob, half of your time" in reminder.content and "<t:" in reminder.content  # Discord timestamp
        assert reminder.body["allowed_mentions"] == {"parse": [], "users": [BOB[0]]}
        h.clock.advance(hours=HOURS / 2)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 1
        await h.bot.sender.flush()
        (post,) = posts(h.sent[before:])
        assert "Time is up for Bob" in post.content and "**Bob** stops in gear 1" in post.content
        assert post.files == ["board.png"] and buttons_of(post.body)  # the next turn, with its buttons
        next_driver = int(h.bot.rallies.work.state_of(await rally_in(h)).active.id)
        assert post.body["allowed_mentions"] == {"parse": [], "users": [next_driver]}
        edits = [c for c in h.sent[before:] if c.method == "PATCH" and "attachments" not in c.body]  # not the board
        assert len(edits) == 1 and edits[0].body["components"] == []
        assert edits[0].url.endswith(f"/messages/{current['id']}")
        assert await h.bot.scheduler.tick() == 0


async def test_a_turn_prompt_discord_never_took_has_no_deadline_until_it_is_delivered(tmp_path):
    """Discord answers 503 to every post from the start of the rally on: Bob never saw his turn,
    so long past the deadline he would have had, the bot neither plays for him nor counts a
    missed turn. When Discord works again, the prompt goes out and his time starts then."""
    async with Harness(tmp_path / "down.sqlite3") as h:
        await command_in(h, CHANNEL, BOB, "rally", "create", stage="pinewood-sprint", drivers=2,
                         deadline_hours=HOURS)
        await h.command(BOB, "rally", "join")
        await h.command(ALICE, "rally", "join")
        h.http.fail(http_error(503), times=100)
        calls = await h.command(BOB, "rally", "start")
        assert channel_posts(calls) == [] and any(c.error is not None for c in calls)  # it was tried
        rally = await rally_in(h)
        assert await h.bot.deadlines.pending(rally.id) == []
        h.clock.advance(hours=HOURS * 3)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 0
        await h.bot.sender.flush()
        assert channel_posts(h.sent[before:]) == []
        assert [a.actor for a in await h.bot.store.actions.list(rally.id)][-1] == BOB[0]  # the start, nothing after
        assert (await h.bot.store.drivers.get(rally.id, BOB[0])).missed_turns == 0
        h.http.failures.clear()  # Discord is back
        h.clock.advance(minutes=10)  # past the retry time
        delivered_at = h.clock.now
        before = len(h.sent)
        await h.bot.sender.flush()
        (prompt,) = channel_posts(h.sent[before:])
        assert "your turn" in prompt.content and buttons_of(prompt.body)
        due = delivered_at + timedelta(hours=HOURS)
        assert f"<t:{int(due.timestamp())}:f>" in prompt.content  # Bob reads a whole turn's time
        assert await h.bot.deadlines.due_at(rally.id) == due
        h.clock.advance(hours=HOURS, minutes=-1)
        assert await h.bot.scheduler.tick() == 1  # the reminder; the deadline is a minute away
        h.clock.advance(minutes=2)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 1
        await h.bot.sender.flush()
        assert any("Time is up for Bob" in p.content for p in channel_posts(h.sent[before:]))


async def test_a_channel_that_refuses_the_bot_pauses_its_rally_and_not_the_others(tmp_path):
    async with Harness(tmp_path / "refuse.sqlite3") as h:
        await started(h, CHANNEL, BOB, ALICE)
        await started(h, OTHER, CAROL)
        here, there = await rally_in(h, CHANNEL), await rally_in(h, OTHER)
        h.http.fail(http_error(403, code=50001), times=100, path=f"/channels/{CHANNEL}/messages")
        h.clock.advance(hours=HOURS / 2, minutes=1)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 2  # both reminders
        await h.bot.sender.flush()
        calls = h.sent[before:]
        assert in_channel(calls, CHANNEL) == []
        (reminder,) = in_channel(calls, OTHER)
        assert "Carol, half of your time" in reminder.content
        (dm,) = [c for c in channel_posts(calls) if "is paused" in c.content]  # the host is told
        assert f"<#{CHANNEL}>" in dm.content
        assert (await rally_in(h, CHANNEL)).paused_at is not None and (await rally_in(h, OTHER)).paused_at is None
        h.clock.advance(hours=HOURS / 2)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 1  # Carol's deadline; Bob's rally is paused
        await h.bot.sender.flush()
        (post,) = in_channel(h.sent[before:], OTHER)
        assert "Time is up for Carol" in post.content
        assert all(a.actor is not None for a in await h.bot.store.actions.list(here.id))  # nothing played for Bob
        assert (await h.bot.store.drivers.get(here.id, BOB[0])).missed_turns == 0
        assert (await h.bot.store.drivers.get(there.id, CAROL[0])).missed_turns == 1
        assert await h.bot.scheduler.tick() == 0


async def test_a_failing_run_is_logged_and_the_loop_goes_on(tmp_path, caplog):
    async with Harness(tmp_path / "fail.sqlite3") as h:
        h.bot.deadlines.run_due = AsyncMock(side_effect=RuntimeError("disk on fire"))
        assert await h.bot.scheduler.tick() == 0
        assert "could not run the due jobs" in caplog.text


async def test_closing_the_bot_stops_the_loop_and_closes_the_database(tmp_path):
    async with Harness(tmp_path / "close.sqlite3") as h:
        h.bot.scheduler.start()
        assert h.bot.scheduler.loop.is_running()
        await h.bot.close()
        assert not h.bot.scheduler.loop.is_running() and h.bot.store.db.closed
