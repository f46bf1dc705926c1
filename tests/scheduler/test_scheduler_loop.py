"""The scheduler loop on a real bot (network recorded): a deadline that passes is posted in the
channel as a normal message, pinging only the next driver, with fresh buttons; old buttons go;
a failure never stops the loop."""

from __future__ import annotations

from unittest.mock import AsyncMock

from tests.discord.fakes import CHANNEL, Harness, buttons_of, posts

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


async def started(h: Harness) -> dict:
    await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2, deadline_hours=4)
    await h.command(BOB, "rally", "join")
    await h.command(ALICE, "rally", "join")
    await h.command(BOB, "rally", "start")
    return h.last_turn_message()


async def test_the_tick_posts_the_reminder_and_the_turn_the_bot_ended(tmp_path):
    async with Harness(tmp_path / "loop.sqlite3") as h:
        await started(h)
        await h.command(BOB, "roll", dice="1")
        current = h.last_turn_message()  # the turn message of Bob's roll, with its buttons
        h.clock.advance(hours=2, minutes=1)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 1
        (reminder,) = posts(h.sent[before:])
        assert reminder.via == "http" and reminder.url.endswith(f"/channels/{CHANNEL}/messages")
        assert "Bob, half of your time" in reminder.content and "<t:" in reminder.content  # Discord timestamp
        assert reminder.body["allowed_mentions"] == {"parse": [], "users": [BOB[0]]}
        h.clock.advance(hours=2)
        before = len(h.sent)
        assert await h.bot.scheduler.tick() == 1
        (post,) = posts(h.sent[before:])
        assert "Time is up for Bob" in post.content and "**Bob** stops in gear 1" in post.content
        assert post.files == ["board.png"] and buttons_of(post.body)  # the next turn, with its buttons
        edits = [c for c in h.sent[before:] if c.method == "PATCH"]
        assert len(edits) == 1 and edits[0].body["components"] == []
        assert edits[0].url.endswith(f"/messages/{current['id']}")
        assert await h.bot.scheduler.tick() == 0


async def test_a_failing_run_is_logged_and_the_loop_goes_on(tmp_path, caplog):
    async with Harness(tmp_path / "fail.sqlite3") as h:
        h.bot.deadlines.run_due = AsyncMock(side_effect=RuntimeError("disk on fire"))
        assert await h.bot.scheduler.tick() == 0
        assert "could not run the due jobs" in caplog.text


async def test_a_channel_that_refuses_the_post_does_not_stop_the_others(tmp_path, caplog):
    async with Harness(tmp_path / "refuse.sqlite3") as h:
        await started(h)
        h.clock.advance(hours=2, minutes=1)

        async def forbidden(route, **kwargs):
            raise RuntimeError("403 Missing Access")

        h.bot.http.request = forbidden
        assert await h.bot.scheduler.tick() == 0
        assert "could not post a deadline notice" in caplog.text
        assert await h.bot.scheduler.tick() == 0  # the job itself ran once and is done


async def test_closing_the_bot_stops_the_loop_and_closes_the_database(tmp_path):
    async with Harness(tmp_path / "close.sqlite3") as h:
        h.bot.scheduler.start()
        assert h.bot.scheduler.loop.is_running()
        await h.bot.close()
        assert not h.bot.scheduler.loop.is_running() and h.bot.store.db.closed
