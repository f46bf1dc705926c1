"""Channels the bot loses: a 403 pauses the rally until posting works, a deleted channel (404
Unknown Channel) abandons it, a bare 404 is retried, a DM the host refuses is dropped, and a row
that keeps failing inside the bot is given up so its channel moves on. Through the real command
tree and the real outbox sender (see test_discord_faults.py)."""

from __future__ import annotations

from datetime import timedelta

from bot.engine.rallyman.action_codec import Status
from bot.engine.rallyman.actions import Roll, Stop
from bot.i18n import t
from bot.services.play.replay import log_problem, replay_snapshot
from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    Harness,
    channel_posts,
    http_error,
    private_answers,
)
from tests.discord.fault_helpers import (
    ALICE,
    BOB,
    DAY_S,
    command,
    delivered,
    dm_tries,
    dms,
    log_of,
    rally_in,
    started,
    tries,
    turn_ends_text,
)

# -- 7. 403: the bot lost its permissions mid-rally -------------------------------------------------

async def test_a_channel_the_bot_cannot_post_in_pauses_the_rally_and_it_resumes_when_it_can(tmp_path):
    """403 Missing Permissions (50013) mid-rally: the move is kept; the rally is paused: Bob's
    running clock is cancelled and no AI turn is played even days later; later moves are saved
    (and their authors told the rally is paused) and their posts wait; the host is told once by
    DM. When the permissions come back, every owed post reaches the channel once, in order, and
    the turn gets a fresh 24 h from then."""
    async with Harness(tmp_path / "403.sqlite3") as h:
        rally = await started(h)
        h.clock.advance(hours=2)
        h.http.fail(http_error(403, 50013), times=10_000, path=f"/channels/{CHANNEL}/messages")
        calls = await command(h, BOB, "roll", dice="1")  # keeps Bob's turn (and its clock)
        assert private_answers(calls) == []  # saved before the bot knew: the thinking answer goes
        paused = await rally_in(h)
        assert paused.paused_at is not None and paused.status == "running"
        assert await h.bot.deadlines.pending(rally.id) == []
        (dm,) = dms(h, BOB[0])
        assert channel_posts(calls) == [dm]  # the host's DM is all that got through
        head, tail = t("rally.paused_host", channel=CHANNEL, reason="\0").split("\0")
        assert dm.content.startswith(head) and dm.content.endswith(tail)
        assert delivered(h)[-1].content.startswith("The rally starts")  # nothing new in the channel

        calls = await command(h, BOB, "stop")  # a later move in the paused rally: saved, told why
        assert private_answers(calls) == [t("rally.paused_note")]
        moves = await log_of(h, rally.id)
        assert [a for a, _ in moves[-2:]] == [Roll(("1",)), Stop()]
        owed = await h.bot.store.outbox.owed(lane=f"channel:{CHANNEL}")
        assert len(owed) == 2

        for _ in range(8):  # three days and more, the scheduler and the sender running
            h.clock.advance(hours=10)
            assert await h.bot.deadlines.run_due() == 0
            await h.bot.deadlines.resync()
            await h.bot.sender.flush()
        assert await log_of(h, rally.id) == moves  # no AI turn, no timeout
        assert await h.bot.deadlines.pending(rally.id) == []
        assert len(dms(h, BOB[0])) == 1  # told once
        assert [r.id for r in await h.bot.store.outbox.owed(lane=f"channel:{CHANNEL}")] == [r.id for r in owed]
        failed = len(tries(h))

        h.http.failures.clear()  # the permissions are back
        h.clock.advance(minutes=5)
        await h.bot.sender.flush()
        await h.bot.sender.flush()
        new = delivered(h)[4:]
        assert len(new) == 2 and len(tries(h)) == failed + 2
        assert "**Bob** rolls 1" in new[0].content and "**Bob** stops" in new[1].content
        assert [c.body["nonce"] for c in new] == [f"rb{r.id}" for r in owed]
        assert await h.bot.store.outbox.owed() == []
        resumed = await rally_in(h)
        assert resumed.paused_at is None
        ends = h.clock() + timedelta(seconds=DAY_S)
        assert await h.bot.deadlines.due_at(rally.id) == ends
        assert turn_ends_text(ends) in new[1].content
        assert len(dms(h, BOB[0])) == 1


# -- 8. 404: the channel is gone ------------------------------------------------------------------

async def test_a_deleted_channel_abandons_its_rally_and_the_ai_never_plays_in_it(tmp_path):
    """404 Unknown Channel (10003): the rally is abandoned by the bot (logged, so `db check`
    replays it), what it owed the channel is dropped and never tried again, its clock is gone
    and no AI turn is ever played; the host gets one DM."""
    async with Harness(tmp_path / "404.sqlite3") as h:
        rally = await started(h)
        h.http.fail(http_error(404, 10003), times=10_000, path=f"/channels/{CHANNEL}/messages")
        await command(h, BOB, "roll", dice="1")
        gone = await h.bot.store.rallies.get(rally.id)
        assert gone.status == "abandoned"
        moves = await log_of(h, rally.id)
        assert moves[-2:] == [(Roll(("1",)), BOB[0]), (Status("abandoned"), None)]
        report = await h.bot.store.check(replay_snapshot, log_problem)
        assert report.ok, report
        assert await h.bot.store.outbox.owed(lane=f"channel:{CHANNEL}") == []
        assert await h.bot.deadlines.pending(rally.id) == []
        (dm,) = dms(h, BOB[0])
        assert dm.content == t("rally.channel_lost", channel=CHANNEL)
        failed = len(tries(h))

        for _ in range(6):
            h.clock.advance(days=1)
            assert await h.bot.deadlines.run_due() == 0
            await h.bot.deadlines.resync()
            await h.bot.sender.flush()
        assert await log_of(h, rally.id) == moves
        assert len(tries(h)) == failed and len(dms(h, BOB[0])) == 1
        assert await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL) is None


async def test_a_dm_the_host_does_not_accept_is_dropped_not_retried_forever(tmp_path):
    """The host's DMs are closed (403, 50007) when the bot tells them their channel is gone: the
    DM is given up at once (the row is done, with the reason), never tried again."""
    async with Harness(tmp_path / "dm403.sqlite3") as h:
        rally = await started(h)
        h.http.fail(http_error(404, 10003), times=10_000, path=f"/channels/{CHANNEL}/messages")
        h.http.fail(http_error(403, 50007), times=10_000, path="/messages")  # every other channel: DMs
        await command(h, BOB, "roll", dice="1")
        assert (await h.bot.store.rallies.get(rally.id)).status == "abandoned"
        assert len(dm_tries(h, BOB[0])) == 1 and dms(h, BOB[0]) == []
        for _ in range(5):
            h.clock.advance(hours=6)
            await h.bot.sender.flush()
        assert len(dm_tries(h, BOB[0])) == 1
        assert await h.bot.store.outbox.owed() == []
        (row,) = [r for r in await h.bot.store.outbox.all() if r.user_id == BOB[0]]
        assert row.outcome.startswith("dropped") and "50007" in row.outcome


# -- classification of a 404, and a row that keeps failing inside the bot ---------------------------

async def test_a_404_that_is_not_unknown_channel_is_retried_and_does_not_abandon_the_rally(tmp_path):
    """Only Discord's code 10003 (Unknown Channel) means the channel is gone; a bare 404 (an edge
    page, a glitch) must not abandon a rally for good."""
    async with Harness(tmp_path / "404.sqlite3") as h:
        await command(h, BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        h.http.fail(http_error(404, 0), times=1, path=f"/channels/{CHANNEL}/messages")
        await command(h, BOB, "rally", "join")
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        assert rally is not None and rally.status == "lobby"
        assert len(await h.bot.store.outbox.owed()) == 1  # kept, to be tried again
        h.clock.advance(minutes=1)
        await h.bot.sender.flush()
        assert await h.bot.store.outbox.owed() == []


async def test_a_row_that_keeps_failing_inside_the_bot_is_given_up_so_its_channel_moves_on(tmp_path):
    """A bug that makes one post fail every time must not hold back every later post of its
    channel forever: after a few tries the row is dropped with the reason kept."""
    async with Harness(tmp_path / "internal.sqlite3") as h:
        await command(h, BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        original = h.bot.sender.send
        calls = {"n": 0}

        async def broken(out):
            if "Bob joins" in " ".join(out.lines):
                calls["n"] += 1
                raise ValueError("a bug")
            return await original(out)

        h.bot.sender.send = broken
        await command(h, BOB, "rally", "join")
        await command(h, ALICE, "rally", "join")
        for _ in range(10):
            h.clock.advance(minutes=10)
            await h.bot.sender.flush()
        rows = await h.bot.store.outbox.all()
        dropped = [r for r in rows if (r.outcome or "").startswith("dropped")]
        assert len(dropped) == 1 and "internal error" in dropped[0].outcome and calls["n"] <= 6
        assert await h.bot.store.outbox.owed() == []  # the post behind it went out
