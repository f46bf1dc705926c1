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

from datetime import datetime, timedelta
from typing import Any

import aiohttp
import pytest

from bot.i18n import t
from bot.services.replay import replay_snapshot
from bot.store import Rally
from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    FakeClock,
    Harness,
    Sent,
    buttons_of,
    channel_posts,
    command_payload,
    http_error,
    option,
    private_answers,
)

BOB = (1002, "Bob")  # the host, and the first driver
ALICE = (1001, "Alice")
OTHER_CHANNEL = 21
DAY_S = 24 * 3600  # the default turn deadline
NOTHING_CHANGED = "nothing was changed"


class Killed(BaseException):
    """The process dies here (not an error the bot could catch and handle)."""


class BrokenRenderer:
    """A renderer whose every drawing fails (a missing font, a corrupt stage file...)."""

    def board(self, stage, view) -> bytes:
        raise RuntimeError("cannot draw the board")

    def preview(self, stage) -> bytes:
        raise RuntimeError("cannot draw the preview")

    def results(self, state) -> bytes:
        raise RuntimeError("cannot draw the results")


# -- driving the bot -----------------------------------------------------------------------------

def in_channel(payload: dict, channel_id: int) -> dict:
    """The same interaction, sent from another channel of the guild."""
    payload["channel_id"] = str(channel_id)
    payload["channel"] = dict(payload["channel"], id=str(channel_id))
    return payload


async def command(h: Harness, user, name: str, sub: str | None = None, *, channel: int = CHANNEL,
                  **values: Any) -> list[Sent]:
    options = [option(k, v) for k, v in values.items()]
    return await h.dispatch(in_channel(command_payload(user, name, sub, options), channel))


async def lobby(h: Harness, channel: int = CHANNEL) -> Rally:
    """Bob opens a two-driver rally in `channel`; Bob and Alice join. Every post is delivered."""
    await command(h, BOB, "rally", "create", channel=channel, stage="pinewood-sprint", drivers=2)
    await command(h, BOB, "rally", "join", channel=channel)
    await command(h, ALICE, "rally", "join", channel=channel)
    return await rally_in(h, channel)


async def started(h: Harness) -> Rally:
    """A running rally whose first prompt reached the channel: Bob drives, his clock runs."""
    await lobby(h)
    calls = await command(h, BOB, "rally", "start")
    assert len(channel_posts(calls)) == 1
    rally = await rally_in(h)
    assert await h.bot.deadlines.due_at(rally.id) is not None
    return rally


async def rally_in(h: Harness, channel: int = CHANNEL) -> Rally:
    rally = await h.bot.store.rallies.get_active_in_channel(GUILD, channel)
    assert rally is not None
    return rally


# -- what Discord saw ----------------------------------------------------------------------------

def tries(h: Harness, channel: int = CHANNEL) -> list[Sent]:
    """Every attempt to post a message in `channel`, failed or not."""
    return [c for c in h.sent if c.via == "http" and c.method == "POST"
            and c.url.endswith(f"/channels/{channel}/messages")]


def delivered(h: Harness, channel: int = CHANNEL) -> list[Sent]:
    """The messages that reached `channel`."""
    return [c for c in channel_posts(h.sent) if c.url.endswith(f"/channels/{channel}/messages")]


def dm_channels(h: Harness, user_id: int) -> set[str]:
    return {c.reply["id"] for c in h.sent if c.url.endswith("/users/@me/channels") and c.reply
            and str((c.body or {}).get("recipient_id")) == str(user_id)}


def dm_tries(h: Harness, user_id: int) -> list[Sent]:
    channels = dm_channels(h, user_id)
    return [c for c in h.sent if c.via == "http" and c.method == "POST"
            and any(c.url.endswith(f"/channels/{d}/messages") for d in channels)]


def dms(h: Harness, user_id: int) -> list[Sent]:
    """The direct messages that reached `user_id`."""
    return [c for c in dm_tries(h, user_id) if c.error is None]


def pinged(post: Sent) -> list[str]:
    return [str(u) for u in post.body["allowed_mentions"].get("users", [])]


def turn_ends_text(moment: datetime) -> str:
    """How the turn message shows its deadline (a Discord timestamp)."""
    return f"<t:{int(moment.timestamp())}:f>"


async def log_of(h: Harness, rally_id: int) -> list[tuple[str, int | None]]:
    return [(a.action, a.actor) for a in await h.bot.store.actions.list(rally_id)]


def fail_interaction(h: Harness, exc: BaseException, methods: tuple[str, ...], times: int = 1) -> None:
    """The interaction's own answers (webhook calls other than the first callback) fail with `exc`:
    `methods` e.g. ("DELETE",) for the removal of the "thinking…" answer, ("DELETE", "POST") for it
    and every followup. Failed calls are recorded with `error` set, like `RecordingHTTP.fail`."""
    real = h.webhooks.request
    left = [times]

    async def request(route, *args: Any, **kwargs: Any) -> Any:
        if left[0] > 0 and route.method in methods and "/webhooks/" in route.url:
            left[0] -= 1
            h.sent.append(Sent(route.method, route.url, kwargs.get("payload"), error=exc))
            raise exc
        return await real(route, *args, **kwargs)

    h.webhooks.request = request


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
        assert [a for a, _ in await log_of(h, rally.id)].count("start 1002,1001") == 1
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
        ends = h.clock() + timedelta(seconds=DAY_S)
        assert await h.bot.deadlines.due_at(rally.id) == ends
        assert turn_ends_text(ends) in post.content
        assert [a for a, _ in await log_of(h, rally.id)].count("start 1002,1001") == 1


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
        assert after[-1][1] == BOB[0] and after[-1][0].startswith("roll 1")
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
    """A 413 on the turn prompt with its board: the same text with its buttons and ping is posted
    at once (same flush, no clock change), without the picture."""
    async with Harness(tmp_path / "413.sqlite3") as h:
        rally = await lobby(h)
        h.http.fail(http_error(413, 40005), times=1, path=f"/channels/{CHANNEL}/messages")
        await command(h, BOB, "rally", "start")
        refused, posted = tries(h)[-2:]
        assert refused.error is not None and refused.files == ["board.png"]
        assert posted.error is None and posted.files == []
        assert posted.content == refused.content and "The rally starts" in posted.content
        assert buttons_of(posted.body) == [f"rally:{rally.id}:1:1"] and pinged(posted) == [str(BOB[0])]
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
        (row,) = [r for r in await h.bot.store.outbox.all() if "joins" in " ".join(r.body["lines"])]
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
        assert [a for a, _ in moves[-2:]] == ["roll 1", "stop"]
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
        assert moves[-2:] == [("roll 1", BOB[0]), ("status abandoned", None)]
        report = await h.bot.store.check(replay_snapshot)
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


async def test_an_interaction_discord_cannot_answer_at_all_still_gets_its_channel_post(tmp_path):
    """Every answer to the interaction after its first acknowledgement fails (the removal and
    the followup): nothing can be said to the user, but the saved roll is posted once."""
    async with Harness(tmp_path / "hook-all.sqlite3") as h:
        rally = await started(h)
        fail_interaction(h, http_error(503), ("DELETE", "POST", "PATCH"), times=10)
        calls = await command(h, BOB, "roll", dice="1")
        assert sorted(c.method for c in calls if c.error is not None) == ["DELETE", "POST"]
        assert private_answers(calls) == []
        (post,) = channel_posts(calls)
        assert "**Bob** rolls 1" in post.content and post.body["nonce"].startswith("rb")
        assert (await log_of(h, rally.id))[-1] == ("roll 1", BOB[0])


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

        async def broken(out, image):
            if "Bob joins" in " ".join(out.lines):
                calls["n"] += 1
                raise ValueError("a bug")
            return await original(out, image)

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
