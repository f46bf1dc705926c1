"""A Discord that fails each step of posting, through the real command tree and the real sender.

Every test drives the bot as users would (`Harness`: raw interaction payloads into the real
command tree, the real outbox sender with `await h.bot.sender.flush()`), makes the fake Discord
answer a posting step with an error (`h.http.fail(...)`: 5xx, 429, 413, 403, 404, timeouts,
or a failing interaction answer), then moves the bot's clock (`FakeClock`; the outbox's retry
times and the turn deadlines are compared with it) and checks what a user would notice: the move
is kept exactly once, the channel gets each post exactly once and in order, nobody is told
"nothing was changed" about a saved command, the turn clock starts only when the prompt reached
the channel, a channel the bot cannot post in pauses its rally, a deleted channel abandons it.
"""


from __future__ import annotations

import logging
from datetime import timedelta

import aiohttp
import pytest

from bot.engine.core.text import from_json
from bot.engine.rallyman.action_codec import Start
from bot.engine.rallyman.actions import Roll
from bot.i18n import t
from tests.discord.fakes import (
    CHANNEL,
    FakeClock,
    Harness,
    attachment_edits,
    buttons_of,
    channel_posts,
    http_error,
    private_answers,
)
from tests.discord.fault_helpers import (
    ALICE,
    BOB,
    DAY_S,
    NOTHING_CHANGED,
    OTHER_CHANNEL,
    BrokenRenderer,
    Killed,
    command,
    delivered,
    fail_interaction,
    lobby,
    log_of,
    pinged,
    rally_in,
    started,
    tries,
    turn_ends_text,
)

# -- 1. 5xx on the turn post -----------------------------------------------------------------------

@pytest.mark.parametrize("status", [503, 500])
async def test_a_start_whose_turn_post_discord_fails_is_kept_and_posted_once_when_discord_recovers(
        tmp_path, status):
    """`/rally start` while Discord answers the channel post with a 5xx (twice): the start is
    saved once and the host is not told anything failed; no post yet and Bob's clock does not
    run (he was not told it is his turn); after each retry time passes the sender tries again,
    never before; once Discord recovers the prompt is posted exactly once, with its ping, its
    buttons and its board, and Bob's 24 h count from that moment."""
    async with Harness(tmp_path / "start5xx.sqlite3") as h:
        rally = await lobby(h)
        h.http.fail(http_error(status), times=2, path=f"/channels/{CHANNEL}/messages")
        calls = await command(h, BOB, "rally", "start")
        assert private_answers(calls) == []  # the "thinking…" answer is removed, no error shown
        assert not any(NOTHING_CHANGED in c.content for c in calls)
        assert [a for a, _ in await log_of(h, rally.id)].count(Start(("1002", "1001"))) == 1
        assert (await rally_in(h)).status == "running"
        assert len(tries(h)) == 4 and tries(h)[-1].error is not None  # 3 lobby posts + the failure
        assert delivered(h)[-1].content.startswith("Alice joins")  # no prompt in the channel yet
        assert await h.bot.deadlines.resync() == 0  # the scheduler's start-up does not start it either
        assert await h.bot.deadlines.pending(rally.id) == []

        h.clock.advance(seconds=1)  # before the first retry time (2 s)
        await h.bot.sender.flush()
        assert len(tries(h)) == 4
        h.clock.advance(seconds=2)
        await h.bot.sender.flush()  # the second failure: retried later again
        assert len(tries(h)) == 5 and tries(h)[-1].error is not None
        assert await h.bot.deadlines.pending(rally.id) == []

        h.clock.advance(seconds=60)
        await h.bot.sender.flush()
        await h.bot.sender.flush()  # nothing more to send
        prompts = [c for c in delivered(h) if "The rally starts" in c.content]
        assert len(prompts) == 1 and len(tries(h)) == 6
        (post,) = prompts
        assert pinged(post) == [str(BOB[0])] and f"<@{BOB[0]}>" in post.content
        assert buttons_of(post.body) == [f"rally:{rally.id}:1:1"] and post.files == ["board.png"]
        # the failed attempts drew nothing that reached Discord: one board, added to the delivered post
        assert attachment_edits(h.sent) == attachment_edits(h.sent, post) and len(attachment_edits(h.sent)) == 1
        ends = h.clock() + timedelta(seconds=DAY_S)
        assert await h.bot.deadlines.due_at(rally.id) == ends
        assert turn_ends_text(ends) in post.content
        assert [a for a, _ in await log_of(h, rally.id)].count(Start(("1002", "1001"))) == 1


@pytest.mark.parametrize("status", [503, 500])
async def test_a_roll_whose_turn_post_discord_fails_is_kept_and_the_next_clock_starts_at_delivery(
        tmp_path, status):
    """A `/roll … end` that passes the turn while Discord answers 5xx: the roll is stored once,
    the roller is not told to send it again; the old turn's clock is over and the next driver's
    does not start before the prompt is delivered (once, with ping and buttons) after the retry."""
    async with Harness(tmp_path / "roll5xx.sqlite3") as h:
        rally = await started(h)
        h.clock.advance(hours=1)
        before = await log_of(h, rally.id)
        h.http.fail(http_error(status), times=2, path=f"/channels/{CHANNEL}/messages")
        calls = await command(h, BOB, "roll", dice="1", end=True)
        assert private_answers(calls) == []
        assert not any(NOTHING_CHANGED in c.content for c in calls)
        after = await log_of(h, rally.id)
        assert after[: len(before)] == before and len(after) == len(before) + 1
        assert after[-1][1] == BOB[0] and after[-1][0] == Roll(("1",), end=True)
        assert len(delivered(h)) == 4  # lobby + start prompt only
        assert await h.bot.deadlines.pending(rally.id) == []  # no one is on the clock

        h.clock.advance(seconds=3)  # past the first retry time (2 s): fails again
        await h.bot.sender.flush()
        assert len(tries(h)) == 6 and tries(h)[-1].error is not None and len(delivered(h)) == 4
        assert await h.bot.deadlines.pending(rally.id) == []
        h.clock.advance(seconds=5)  # past the second (4 s): Discord is back
        await h.bot.sender.flush()
        delivered_at = h.clock()
        h.clock.advance(seconds=30)
        await h.bot.sender.flush()
        assert len(delivered(h)) == 5 and len(tries(h)) == 7 and await log_of(h, rally.id) == after
        post = delivered(h)[-1]
        assert "**Bob** rolls 1" in post.content and "your turn" in post.content
        driver = h.bot.rallies.work.state_of(await rally_in(h)).active.id
        assert pinged(post) == [driver] and f"<@{driver}>" in post.content
        assert buttons_of(post.body) and post.files == ["board.png"]
        assert await h.bot.deadlines.due_at(rally.id) == delivered_at + timedelta(seconds=DAY_S)
        assert turn_ends_text(delivered_at + timedelta(seconds=DAY_S)) in post.content


# -- 2. 429 -------------------------------------------------------------------------------------

async def test_a_rate_limited_post_waits_for_retry_after_then_is_posted_once(tmp_path):
    """A 429 with Retry-After 30 s: the sender does not try again before 30 s (its own backoff
    would be 2 s), then the post goes exactly once."""
    async with Harness(tmp_path / "429.sqlite3") as h:
        rally = await lobby(h)
        h.http.fail(http_error(429, retry_after=30), times=1, path=f"/channels/{CHANNEL}/messages")
        await command(h, BOB, "rally", "start")
        assert len(tries(h)) == 4 and tries(h)[-1].error is not None
        for _ in range(29):
            h.clock.advance(seconds=1)
            await h.bot.sender.flush()
        assert len(tries(h)) == 4  # 29 s later: not tried again
        h.clock.advance(seconds=2)
        await h.bot.sender.flush()
        await h.bot.sender.flush()
        assert len(tries(h)) == 5
        assert [c.content.startswith("The rally starts") for c in delivered(h)] == [False] * 3 + [True]
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)


# -- 3. 413 -------------------------------------------------------------------------------------

async def test_a_post_too_large_for_discord_goes_at_once_without_its_image(tmp_path):
    """A 413 on the turn prompt (its text goes first, without its board): the same text with its
    buttons and ping is posted at once (same flush, no clock change); its picture is given up
    with the 413, so no edit follows. (A 413 on the edit that adds the board: see
    test_discord_text_first.py.)"""
    async with Harness(tmp_path / "413.sqlite3") as h:
        rally = await lobby(h)
        h.http.fail(http_error(413, 40005), times=1, path=f"/channels/{CHANNEL}/messages")
        calls = await command(h, BOB, "rally", "start")
        refused, posted = tries(h)[-2:]
        assert refused.error is not None and refused.files == []
        assert posted.error is None and posted.files == []
        assert posted.content == refused.content and "The rally starts" in posted.content
        assert buttons_of(posted.body) == [f"rally:{rally.id}:1:1"] and pinged(posted) == [str(BOB[0])]
        assert attachment_edits(calls) == []
        assert len(delivered(h)) == 4
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)


async def test_a_text_post_discord_calls_too_large_is_given_up_not_resent_in_a_loop(tmp_path):
    """A 413 on a post that has no image (nothing left to take off; its text is capped at
    Discord's limit): the very same request cannot succeed, so it is dropped with the reason, not
    re-sent at once again and again (that would spin the sender for as long as Discord says so
    and get the whole bot rate-limited); the channel's later posts are not held behind it."""
    async with Harness(tmp_path / "413-text.sqlite3") as h:
        await command(h, BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        h.http.fail(http_error(413, 40005), times=50, path=f"/channels/{CHANNEL}/messages")
        await command(h, BOB, "rally", "join")  # a text-only post
        assert len(tries(h)) == 2 and tries(h)[-1].error is not None
        (row,) = [r for r in await h.bot.store.outbox.all()
                  if "joins" in " ".join(map(str, from_json(r.body["lines"])))]  # lines kept as messages
        assert row.outcome.startswith("dropped") and "413" in row.outcome
        h.http.failures.clear()
        h.clock.advance(minutes=10)
        await command(h, ALICE, "rally", "join")
        assert len(tries(h)) == 3 and delivered(h)[-1].content.startswith("Alice joins")


# -- 4. the image cannot be drawn ---------------------------------------------------------------------

async def test_a_board_that_cannot_be_drawn_does_not_hold_back_the_turn_post(tmp_path):
    """The renderer raises: the prompt still reaches the channel at once, once, with its text,
    ping and buttons (no file), and the driver's clock starts."""
    async with Harness(tmp_path / "draw.sqlite3") as h:
        rally = await lobby(h)
        h.bot.sender.renderer = BrokenRenderer()
        calls = await command(h, BOB, "rally", "start")
        assert private_answers(calls) == []
        (post,) = channel_posts(calls)
        assert "The rally starts" in post.content and post.files == []
        assert buttons_of(post.body) == [f"rally:{rally.id}:1:1"] and pinged(post) == [str(BOB[0])]
        assert len(tries(h)) == 4  # no failed attempt, nothing to retry
        assert [c for c in calls if c.method == "PATCH" and c.via == "http"] == []  # no picture to add
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)


# -- 5. timeouts and connection errors ----------------------------------------------------------

# TimeoutError is asyncio.TimeoutError (the same class since Python 3.11).
@pytest.mark.parametrize("error", [TimeoutError(), aiohttp.ClientConnectionError("reset by peer"),
                                   aiohttp.ServerDisconnectedError()], ids=["timeout", "connection", "disconnected"])
async def test_a_post_lost_to_a_timeout_or_connection_error_is_retried_and_posted_once(tmp_path, error):
    """The network fails while posting the start prompt: the start is kept, the post is retried
    after the backoff and reaches the channel once; the clock starts then."""
    async with Harness(tmp_path / "net.sqlite3") as h:
        rally = await lobby(h)
        h.http.fail(error, times=1, path=f"/channels/{CHANNEL}/messages")
        calls = await command(h, BOB, "rally", "start")
        assert private_answers(calls) == []
        assert channel_posts(calls) == [] and tries(h)[-1].error is error
        assert (await rally_in(h)).status == "running"
        assert await h.bot.deadlines.pending(rally.id) == []
        h.clock.advance(seconds=5)
        await h.bot.sender.flush()
        await h.bot.sender.flush()
        assert [c.content.startswith("The rally starts") for c in delivered(h)] == [False] * 3 + [True]
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)


# -- 6. order per channel ---------------------------------------------------------------------------

async def test_a_failed_post_holds_back_later_posts_of_its_channel_but_not_other_channels(tmp_path):
    """Channel 20's first post fails: its second post waits behind it (a channel never reads its
    posts out of order), while channel 21's rally is posted at once; after the retry time both
    posts of channel 20 arrive, once each, in order."""
    async with Harness(tmp_path / "order.sqlite3") as h:
        h.http.fail(http_error(503), times=1, path=f"/channels/{CHANNEL}/messages")
        await command(h, BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        await command(h, BOB, "rally", "join")
        assert delivered(h) == [] and len(tries(h)) == 1  # the join post was not tried before the create
        calls = await command(h, ALICE, "rally", "create", channel=OTHER_CHANNEL, stage="pinewood-sprint",
                              drivers=2)
        (other,) = channel_posts(calls)
        assert other.url.endswith(f"/channels/{OTHER_CHANNEL}/messages") and "Alice opens a rally" in other.content
        assert delivered(h) == []

        h.clock.advance(seconds=5)
        await h.bot.sender.flush()
        texts = [c.content for c in delivered(h)]
        assert len(texts) == 2 and texts[0].startswith("Bob opens a rally") and texts[1].startswith("Bob joins")
        assert len(delivered(h, OTHER_CHANNEL)) == 1


# -- 9. a restart between Discord's answer and the bot's bookkeeping -----------------------------

async def test_a_post_discord_took_but_the_bot_did_not_record_is_resent_with_the_same_nonce(tmp_path):
    """Recording a delivery fails once after Discord took the message: the row is sent again
    later with the same nonce (`rb<row id>`), which Discord's enforce_nonce turns into the same
    message, and the turn's clock starts once."""
    async with Harness(tmp_path / "nonce.sqlite3") as h:
        rally = await lobby(h)
        delivery = h.bot.rallies.delivery
        real = delivery.sent
        calls_to_sent = []

        async def sent_fails_once(out, message_id):
            calls_to_sent.append(out.row.id)
            if len(calls_to_sent) == 1:
                raise RuntimeError("database is locked")
            return await real(out, message_id)

        delivery.sent = sent_fails_once
        await command(h, BOB, "rally", "start")
        assert await h.bot.deadlines.pending(rally.id) == []
        h.clock.advance(seconds=5)
        await h.bot.sender.flush()
        first, second = [c for c in tries(h) if "The rally starts" in c.content]
        assert first.error is None and second.error is None
        (row,) = [r for r in await h.bot.store.outbox.all() if r.kind == "turn"]
        assert first.body["nonce"] == second.body["nonce"] == f"rb{row.id}"
        assert first.body["enforce_nonce"] is True
        assert row.outcome == "sent" and calls_to_sent == [row.id, row.id]
        assert len(await h.bot.deadlines.pending(rally.id)) == 2
        # the board follows the delivery that was recorded only: one edit, of that message
        (board,) = attachment_edits(h.sent)
        assert board.url.endswith(f"/messages/{second.reply['id']}") and board.files == ["board.png"]


async def test_after_a_crash_between_send_and_record_the_restarted_bot_resends_with_the_same_nonce(tmp_path):
    """The process dies after Discord took the start prompt and before the bot recorded it. The
    restarted bot (same database) sends it again once the old lease ran out, with the same
    nonce; a third start after everything was delivered sends nothing at all."""
    db = tmp_path / "crash.sqlite3"
    clock = FakeClock()
    async with Harness(db, clock) as first:
        rally = await lobby(first)

        async def killed(out, message_id):
            raise Killed

        first.bot.rallies.delivery.sent = killed
        with pytest.raises(Killed):
            await command(first, BOB, "rally", "start")
        (before,) = [c for c in tries(first) if "The rally starts" in c.content]
        assert before.error is None  # Discord has it
    async with Harness(db, clock) as second:
        clock.advance(seconds=10)  # the dead process's lease still holds: no second sender meanwhile
        assert await second.bot.deadlines.resync() == 0  # start-up: the owed prompt will start the clock
        await second.bot.sender.flush()
        assert second.sent == []
        clock.advance(minutes=3)
        await second.bot.sender.flush()
        (again,) = tries(second)
        (row,) = [r for r in await second.bot.store.outbox.all() if r.kind == "turn"]
        assert again.body["nonce"] == before.body["nonce"] == f"rb{row.id}"
        assert again.body["enforce_nonce"] is True and row.outcome == "sent"
        assert await second.bot.deadlines.due_at(rally.id) == clock() + timedelta(seconds=DAY_S)
    async with Harness(db, clock) as third:  # everything was delivered: a restart sends nothing
        clock.advance(minutes=10)
        assert await third.bot.deadlines.resync() == 0
        assert await third.bot.deadlines.run_due() == 0
        assert await third.bot.sender.flush() == 0
        assert third.sent == []
        assert await third.bot.store.outbox.owed() == []


# -- 10. the interaction's own answer fails ---------------------------------------------------------

@pytest.mark.parametrize("error", [http_error(503), TimeoutError(), aiohttp.ClientConnectionError("reset")],
                         ids=["503", "timeout", "connection"])
async def test_a_failed_interaction_answer_after_the_save_does_not_lose_the_channel_post(tmp_path, error):
    """Discord fails (503, a time-out, a lost connection) when the bot removes the "thinking…"
    answer of a saved `/roll`: the roller is told the command was saved (never "nothing was
    changed"), the roll is stored once and its post reaches the channel once."""
    async with Harness(tmp_path / "hook.sqlite3") as h:
        rally = await started(h)
        before = await log_of(h, rally.id)
        fail_interaction(h, error, ("DELETE",))
        calls = await command(h, BOB, "roll", dice="1")
        assert [c.method for c in calls if c.error is not None] == ["DELETE"]
        assert private_answers(calls) == [t("error.after_commit")]
        assert not any(NOTHING_CHANGED in text for text in private_answers(calls))
        assert len(await log_of(h, rally.id)) == len(before) + 1
        (post,) = channel_posts(calls)
        assert "**Bob** rolls 1" in post.content and buttons_of(post.body)


@pytest.mark.parametrize("status, code", [(400, 50035), (403, 50001), (404, 10015), (429, 0), (500, 0), (503, 0)],
                         ids=str)
async def test_an_interaction_discord_cannot_answer_at_all_still_gets_its_channel_post(tmp_path, caplog, status, code):
    """Every answer to the interaction after its first acknowledgement fails (the removal, 503,
    and the followup saying the roll was saved, whatever Discord answers it): nothing can be said
    to the user, but the saved roll is posted once; the log names both requests and why."""
    caplog.set_level(logging.INFO, logger="bot")
    async with Harness(tmp_path / "hook-all.sqlite3") as h:
        rally = await started(h)
        fail_interaction(h, http_error(503), ("DELETE", "PATCH"), times=10)
        fail_interaction(h, http_error(status, code, retry_after=5 if status == 429 else None), ("POST",), times=10)
        calls = await command(h, BOB, "roll", dice="1")
        assert sorted(c.method for c in calls if c.error is not None) == ["DELETE", "POST"]
        assert private_answers(calls) == []
        (post,) = channel_posts(calls)
        assert "**Bob** rolls 1" in post.content and post.body["nonce"].startswith("rb")
        assert (await log_of(h, rally.id))[-1] == (Roll(("1",)), BOB[0])
        lines = [r.getMessage() for r in caplog.records if "could not answer interaction" in r.getMessage()]
        assert len(lines) == 2 and "DELETE /webhooks/4242/" in lines[0] and "/messages/@original: 503 " in lines[0]
        assert "POST /webhooks/4242/token-" in lines[1] and f": {status} " in lines[1]
        assert f"Discord code {code}" in lines[1]
