"""Text first: a post's text, ping and buttons go out at once; its picture follows by an edit.

Through the real command tree and the real outbox sender (`Harness`), with every drawing held
by a `Gate` until the test releases it: the sender's own `_draw` is wrapped, so the picture is
still drawn by `draw_async` and the renderer once released. (The gate holds the drawing in the
bot's event loop rather than inside the renderer: the renderer may run in another thread or
process, where a test cannot hold it safely.) Each released picture ends with `#row<id>`, so an
edit shows which row's picture it carries.

What is checked is what readers see: the text is in the channel (and the turn's clock runs)
while its board is still being drawn; the next driver's ping and other channels do not wait
for a picture; each picture is added to its own message, never as a new post and never with
the text again; a failed edit gives the picture up or tries again as the sender's docstring
says and changes nothing else; the buttons of an edited message still work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import discord
import pytest

from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Roll
from tests.discord.fakes import (
    CHANNEL,
    PNG,
    FakeClock,
    Harness,
    Sent,
    attachment_edits,
    buttons_of,
    channel_posts,
    click_payload,
    command_payload,
    http_error,
    option,
    private_answers,
)
from tests.discord.fault_helpers import (
    ALICE,
    BOB,
    DAY_S,
    OTHER_CHANNEL,
    in_channel,
    lobby,
    pinged,
    rally_in,
    started,
    tries,
)

USERS = {str(BOB[0]): BOB, str(ALICE[0]): ALICE}


class Gate:
    """Holds each drawing of `sender` until `release(row_id)` or `release_all()`; `die()` makes
    the held drawings end as if the process died (cancelled)."""

    def __init__(self, sender: Any) -> None:
        self.real = sender._draw
        self.started: list[int] = []  # the rows whose drawing began, in order
        self.released: set[int] = set()
        self.everything = False
        self.dead = False
        self.changed = asyncio.Condition()
        sender._draw = self.draw

    async def draw(self, out: Any) -> bytes | None:
        self.started.append(out.row.id)
        async with self.changed:
            await self.changed.wait_for(lambda: self.dead or self.everything or out.row.id in self.released)
        if self.dead:
            raise asyncio.CancelledError
        image = await self.real(out)
        return None if image is None else image + f"#row{out.row.id}".encode()

    async def release(self, row_id: int) -> None:
        async with self.changed:
            self.released.add(row_id)
            self.changed.notify_all()

    async def release_all(self) -> None:
        async with self.changed:
            self.everything = True
            self.changed.notify_all()

    async def die(self) -> None:
        async with self.changed:
            self.dead = True
            self.changed.notify_all()


async def until(check: Callable[[], Any], what: str, seconds: float = 5.0) -> None:
    """Wait (the sender runs meanwhile) until `check()` (or the value it awaits) is true."""
    for _ in range(int(seconds / 0.01)):
        value = check()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"still waiting for {what}")


async def owe(h: Harness, user, name: str, sub: str | None = None, *, channel: int = CHANNEL,
              **values: Any) -> list[Sent]:
    """A command, committed, its posts owed and not delivered yet (the sender is not run)."""
    payload = command_payload(user, name, sub, [option(k, v) for k, v in values.items()])
    calls = await h.dispatch(in_channel(payload, channel), deliver=False)
    assert private_answers(calls) == []
    return calls


async def end_turn(h: Harness, channel: int = CHANNEL) -> tuple[int, int]:
    """Whoever drives in `channel` rolls a 1 and ends the turn (owed, not delivered): (who
    played, who drives next)."""
    rally = await rally_in(h, channel)
    driver = USERS[h.bot.rallies.work.state_of(rally).active.id]
    await owe(h, driver, "roll", channel=channel, dice="1", end=True)
    after = h.bot.rallies.work.state_of(await rally_in(h, channel)).active
    return driver[0], int(after.id)


def row_tag(row_id: int) -> bytes:
    return PNG + f"#row{row_id}".encode()


async def turn_rows(h: Harness) -> list[Any]:
    return [r for r in await h.bot.store.outbox.all() if r.kind == "turn"]


def shown(h: Harness, post: Sent) -> dict:
    """The message of `post` as Discord shows it now."""
    return h.http.messages[int(post.reply["id"])]


# -- the text does not wait ---------------------------------------------------------------------

async def test_the_turn_post_goes_out_before_its_board_is_drawn_and_the_board_joins_it(tmp_path):
    """`/rally start` while the board cannot be drawn yet: the prompt is in the channel with its
    ping and buttons, recorded as delivered, and Bob's 24 h run from it; the flush still waits for
    the board. Once drawn, the board is added to that same message by an edit that sends neither
    the text nor the buttons: one message, its text once, its buttons kept, its board attached."""
    async with Harness(tmp_path / "first.sqlite3") as h:
        rally = await lobby(h)
        gate = Gate(h.bot.sender)
        await owe(h, BOB, "rally", "start")
        flushing = asyncio.create_task(h.bot.sender.flush())
        await until(lambda: h.bot.deadlines.due_at(rally.id), "the delivery of the prompt")
        assert len(gate.started) == 1  # the board is being drawn…
        (post,) = tries(h)[3:]  # …while the prompt is already in the channel
        assert post.error is None and post.files == [] and "attachments" not in post.body
        assert "The rally starts" in post.content and pinged(post) == [str(BOB[0])]
        assert buttons_of(post.body) == [f"rally:{rally.id}:1:1"]
        (row,) = await turn_rows(h)
        assert row.outcome == "sent" and row.message_id == int(post.reply["id"]) and gate.started == [row.id]
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)
        assert attachment_edits(h.sent) == [] and not flushing.done()

        await gate.release_all()
        assert await flushing == 1
        (edit,) = attachment_edits(h.sent)
        assert edit.url == f"{post.url}/{post.reply['id']}" and edit.error is None
        assert edit.files == ["board.png"] and edit.data == {"board.png": row_tag(row.id)}
        assert [a["filename"] for a in edit.body["attachments"]] == ["board.png"]
        assert "content" not in edit.body and "components" not in edit.body and "nonce" not in edit.body
        message = shown(h, post)
        assert message["content"] == post.content and buttons_of(message) == [f"rally:{rally.id}:1:1"]
        assert [a["filename"] for a in message["attachments"]] == ["board.png"]
        assert len(tries(h)) == 4  # no second post
        assert await h.bot.sender.flush() == 0 and attachment_edits(h.sent) == [edit]


async def test_the_next_ping_and_other_channels_go_out_while_a_board_is_drawn(tmp_path):
    """Two turns end quickly in one channel, and a rally starts in another, while no board can
    be drawn: all three texts are delivered at once (the channel's two in order, the second
    pinging the next driver, whose clock runs; the first message loses its buttons). Released in
    the other order, each board is added to its own message, never as a new post, and the first
    message keeps no buttons."""
    async with Harness(tmp_path / "lane.sqlite3") as h:
        rally = await started(h)
        await lobby(h, OTHER_CHANNEL)
        first_turn = tries(h)[3]
        gate = Gate(h.bot.sender)
        _, second_driver = await end_turn(h)
        _, third_driver = await end_turn(h)
        await owe(h, BOB, "rally", "start", channel=OTHER_CHANNEL)
        before = len(h.sent)
        flushing = asyncio.create_task(h.bot.sender.flush())
        await until(lambda: len(tries(h)) == 6 and len(tries(h, OTHER_CHANNEL)) == 4, "the three texts")
        await until(lambda: len(gate.started) == 3, "the three drawings")
        a, b = tries(h)[4:]
        other = tries(h, OTHER_CHANNEL)[-1]
        assert pinged(a) == [str(second_driver)] and pinged(b) == [str(third_driver)]
        assert a.files == b.files == other.files == [] and "The rally starts" in other.content
        async def recorded() -> dict[int, int]:  # a text's message id is written once Discord answered it
            return {int(r.message_id): r.id for r in await turn_rows(h) if r.message_id is not None}

        async def all_recorded() -> bool:
            return {int(p.reply["id"]) for p in (a, b, other)} <= set(await recorded())

        await until(all_recorded, "the three texts recorded as sent")
        rows = await recorded()
        row_a, row_b, row_other = (rows[int(p.reply["id"])] for p in (a, b, other))
        assert sorted(gate.started) == sorted([row_a, row_b, row_other])
        assert attachment_edits(h.sent[before:]) == []  # no picture yet
        await until(lambda: buttons_of(shown(h, a)) == [], "the first turn's buttons taken off")
        assert buttons_of(shown(h, b)) != [] and buttons_of(shown(h, first_turn)) == []
        assert await h.bot.deadlines.due_at(rally.id) is not None  # the third driver's clock runs

        await gate.release(row_b)
        await until(lambda: attachment_edits(h.sent[before:]), "the second board")
        (edit_b,) = attachment_edits(h.sent[before:])
        assert edit_b.url.endswith(f"/messages/{b.reply['id']}") and edit_b.data == {"board.png": row_tag(row_b)}
        await gate.release_all()
        await flushing
        edits = attachment_edits(h.sent[before:])
        assert len(edits) == 3 and all(e.error is None for e in edits)
        for post, row_id in ((a, row_a), (b, row_b), (other, row_other)):
            (edit,) = attachment_edits(edits, post)
            assert edit.data == {"board.png": row_tag(row_id)}
            assert [x["filename"] for x in shown(h, post)["attachments"]] == ["board.png"]
        assert buttons_of(shown(h, a)) == [] and buttons_of(shown(h, b)) != []  # the edit put no buttons back
        assert len(tries(h)) == 6 and len(tries(h, OTHER_CHANNEL)) == 4  # pictures never as new posts


async def test_the_stage_preview_in_the_lobby_follows_its_text_too(tmp_path):
    """`/rally board` in the lobby posts the stage preview: its text first, then stage.png."""
    async with Harness(tmp_path / "preview.sqlite3") as h:
        await lobby(h)
        gate = Gate(h.bot.sender)
        await owe(h, ALICE, "rally", "board")
        flushing = asyncio.create_task(h.bot.sender.flush())
        await until(lambda: len(tries(h)) == 4, "the preview's text")
        post = tries(h)[-1]
        assert "has not started yet" in post.content and post.files == [] and attachment_edits(h.sent) == []
        await gate.release_all()
        await flushing
        (edit,) = attachment_edits(h.sent, post)
        assert edit.files == ["stage.png"] and [a["filename"] for a in shown(h, post)["attachments"]] == ["stage.png"]


# -- what a restart does ------------------------------------------------------------------------

async def test_stopping_the_bot_lets_the_boards_in_flight_reach_their_messages(tmp_path):
    async with Harness(tmp_path / "stop.sqlite3") as h:
        await lobby(h)
        gate = Gate(h.bot.sender)
        await owe(h, BOB, "rally", "start")
        # the running loop's step: texts only (it would hang here if a text waited for its picture)
        assert await asyncio.wait_for(h.bot.sender.deliver_due(), 5) == 1
        post = tries(h)[-1]
        assert attachment_edits(h.sent) == []
        stopping = asyncio.create_task(h.bot.sender.stop())
        await asyncio.sleep(0.05)
        assert not stopping.done()
        await gate.release_all()
        await stopping
        (edit,) = attachment_edits(h.sent, post)
        assert edit.error is None and edit.files == ["board.png"]


async def test_a_board_lost_in_a_crash_is_not_made_up_for_and_the_text_is_not_posted_again(tmp_path):
    """The process dies while the board of a delivered prompt is drawn: the picture is lost (it
    was owed in memory only). The restarted bot posts nothing, neither the text again nor a
    picture, now or after the dead process's lease; the prompt counts as delivered."""
    db = tmp_path / "crash.sqlite3"
    clock = FakeClock()
    async with Harness(db, clock) as first:
        rally = await lobby(first)
        gate = Gate(first.bot.sender)
        await owe(first, BOB, "rally", "start")
        await asyncio.wait_for(first.bot.sender.deliver_due(), 5)
        assert len(tries(first)) == 4 and attachment_edits(first.sent) == []
        await gate.die()
        await asyncio.wait_for(first.bot.sender.boards_attached(), 5)
        assert attachment_edits(first.sent) == []
        due = await first.bot.deadlines.due_at(rally.id)
    async with Harness(db, clock) as second:
        await second.bot.sender.flush()
        clock.advance(minutes=5)
        await second.bot.sender.flush()
        assert second.sent == []
        (row,) = await turn_rows(second)
        assert row.outcome == "sent" and await second.bot.store.outbox.owed() == []
        assert await second.bot.deadlines.due_at(rally.id) == due


# -- a failed edit ------------------------------------------------------------------------------

EDIT_FAULTS = [
    # (fault, how many edits fail, edits tried, picture attached, a warning logged)
    pytest.param(http_error(404, 10008), 1, 1, False, False, id="404-message-deleted"),
    pytest.param(http_error(403, 50001), 1, 1, False, True, id="403-no-access"),
    pytest.param(http_error(413, 40005), 1, 1, False, True, id="413-too-large"),
    pytest.param(http_error(400, 50035), 1, 1, False, True, id="400-refused"),
    pytest.param(http_error(429, retry_after=0.01), 2, 3, True, False, id="429-then-ok"),
    pytest.param(discord.RateLimited(0.01), 1, 2, True, False, id="rate-limited-then-ok"),
    pytest.param(http_error(503), 2, 3, True, False, id="503-then-ok"),
    pytest.param(TimeoutError(), 1, 2, True, False, id="timeout-then-ok"),
    pytest.param(http_error(500), 10, 4, False, True, id="500-every-time"),
]


@pytest.mark.parametrize(("fault", "times", "tried", "attached", "warned"), EDIT_FAULTS)
async def test_a_failed_board_edit_gives_up_or_tries_again_and_changes_nothing_else(
        tmp_path, caplog, fault, times, tried, attached, warned):
    """The edit adding the start prompt's board fails: a deleted message (404) is given up
    quietly, a refusal (403, 413, 400) is given up and logged, 429 / 5xx / a time-out are tried
    again a few times. Whatever happens, the text stays posted once with its ping and buttons,
    the row is delivered, Bob's clock runs from the text, and nothing is owed or posted later."""
    caplog.set_level(logging.INFO, logger="bot.views.sender")
    async with Harness(tmp_path / "edit.sqlite3") as h:
        rally = await lobby(h)
        h.bot.sender.board_retries_s = (0.0, 0.0, 0.0)
        h.http.fail(fault, times=times, path=f"/channels/{CHANNEL}/messages/")  # edits only, not posts
        await owe(h, BOB, "rally", "start")
        assert await h.bot.sender.flush() == 1
        post = tries(h)[-1]
        assert len(tries(h)) == 4 and post.error is None and "The rally starts" in post.content
        edits = attachment_edits(h.sent)
        assert len(edits) == tried and all(e.url == f"{post.url}/{post.reply['id']}" for e in edits)
        assert all(e.files == ["board.png"] for e in edits)
        assert [e.error is None for e in edits] == [False] * (tried - 1) + [attached]
        message = shown(h, post)
        assert [a["filename"] for a in message["attachments"]] == (["board.png"] if attached else [])
        assert message["content"] == post.content and buttons_of(message) == [f"rally:{rally.id}:1:1"]
        (row,) = await turn_rows(h)
        assert row.outcome == "sent" and await h.bot.store.outbox.owed() == []
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)
        warnings = [r for r in caplog.records if r.name == "bot.views.sender" and r.levelno >= logging.WARNING]
        assert bool(warnings) == warned
        assert all(r.levelno == logging.WARNING for r in warnings)
        h.clock.advance(minutes=10)
        before = len(h.sent)
        assert await h.bot.sender.flush() == 0 and h.sent[before:] == []  # nothing owed, nothing retried later


async def test_a_failed_text_post_draws_no_picture_for_discord_and_its_retry_gets_one(tmp_path):
    """The prompt's text fails (503) while its board is drawn: no picture reaches Discord for the
    failed attempt; the retry posts the text once and adds its board once, to that message."""
    async with Harness(tmp_path / "retry.sqlite3") as h:
        await lobby(h)
        h.http.fail(http_error(503), times=1, path=f"/channels/{CHANNEL}/messages")
        await owe(h, BOB, "rally", "start")
        await h.bot.sender.flush()
        assert tries(h)[-1].error is not None and attachment_edits(h.sent) == []
        h.clock.advance(seconds=5)
        await h.bot.sender.flush()
        post = tries(h)[-1]
        assert post.error is None and len(tries(h)) == 5
        (edit,) = attachment_edits(h.sent)
        assert edit.url == f"{post.url}/{post.reply['id']}" and edit.files == ["board.png"]


# -- an edited message still works ------------------------------------------------------------

async def test_the_buttons_of_a_message_edited_with_its_board_still_work(tmp_path):
    """Bob clicks a button of the start prompt as Discord shows it after its board was added:
    the roll is played and posted (a roll within a turn carries no board), and the edited
    message loses its buttons, keeping its board."""
    async with Harness(tmp_path / "click.sqlite3") as h:
        rally = await started(h)
        post = tries(h)[-1]
        (edit,) = attachment_edits(h.sent, post)
        message = edit.reply  # Discord's answer to the edit: the message with its board
        assert message["id"] == post.reply["id"] and [a["filename"] for a in message["attachments"]] == ["board.png"]
        custom_id = f"rally:{rally.id}:1:1"
        assert buttons_of(message) == [custom_id]
        calls = await h.dispatch(click_payload(BOB, message, custom_id))
        assert private_answers(calls) == []
        (new,) = channel_posts(calls)
        assert "**Bob** rolls 1" in new.content and new.files == [] and buttons_of(new.body)
        log = await h.bot.store.actions.list(rally.id)
        assert (log[-1].action, log[-1].actor) == (log_text(Roll(("1",))), BOB[0])
        assert buttons_of(shown(h, post)) == [] and [a["filename"] for a in shown(h, post)["attachments"]] == [
            "board.png"]
