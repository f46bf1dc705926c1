"""Discord answering 400, 403, 404, 429 or 5xx to each kind of request the bot makes, through the
real tree and the real sender (`Harness`): the acknowledgement of a command (the interaction
callback), the edit of its private answer, a channel post of the outbox, the edit that adds a
turn's picture, the creation of a run's private thread (a follow-up: test_discord_faults.py §10).
Each case checks what the user gets, what the outbox does with its row (bot/views/sender.py,
bot/services/delivery.py), that no saved change is lost or made twice, and that the log names
the request (method and route) and Discord's reason (status, code, message)."""

from __future__ import annotations

import logging
from datetime import timedelta

import discord
import pytest

from bot.i18n import t
from bot.store.leagues import run_of_tx
from bot.views.discord_errors import describe
from tests.discord.fakes import (
    CHANNEL,
    FakeResponse,
    Harness,
    attachment_edits,
    http_error,
    private_answers,
)
from tests.discord.fault_helpers import (
    BOB,
    DAY_S,
    command,
    delivered,
    fail_interaction,
    lobby,
    log_of,
    rally_in,
    started,
    tries,
)
from tests.discord.test_discord_league import ALICE, league_with_open_round, rounds, run_start, thread_requests

#: Discord's answers, as (status, Discord code, Discord message); a 404's code is the request's own
ANSWERS = [(400, 50035, "Invalid Form Body"), (403, 50013, "Missing Permissions"), (404, None, "Unknown"),
           (429, 0, "You are being rate limited."), (500, 0, "Internal Server Error"), (503, 0, "Service Unavailable")]
IDS = [str(status) for status, _, _ in ANSWERS]
RETRY_AFTER_S = 30.0


def answer(status: int, code: int | None, message: str, unknown: int, retry_after: float = RETRY_AFTER_S):
    """Discord's error for `status`; a 404 carries `unknown` (10003 channel, 10008 message...)."""
    return http_error(status, unknown if code is None else code, retry_after if status == 429 else None,
                      message=message)


def logged(caplog, route: str, exc: discord.HTTPException) -> list[str]:
    """The log lines naming `route` and Discord's status, code and message of `exc`."""
    reason = f"{exc.status} {exc.response.reason}, Discord code {exc.code}: {exc.text}"
    return [r.getMessage() for r in caplog.records if route in r.getMessage() and reason in r.getMessage()]


@pytest.fixture(autouse=True)
def _log(caplog):
    caplog.set_level(logging.INFO, logger="bot")


# -- the acknowledgement of a command (POST /interactions/{id}/{token}/callback) -----------------

@pytest.mark.parametrize("status, code, message", ANSWERS, ids=IDS)
async def test_a_command_discord_does_not_let_us_acknowledge_is_not_run(tmp_path, caplog, status, code, message):
    """The user is told by Discord that the bot did not answer; nothing is saved or posted, so
    trying again is safe; the log names the callback and Discord's reason."""
    async with Harness(tmp_path / "ack.sqlite3") as h:
        rally = await lobby(h)
        before = (await log_of(h, rally.id), len(tries(h)))
        exc = answer(status, code, message, unknown=10062)
        fail_interaction(h, exc, ("POST",), path="/callback")
        calls = await command(h, BOB, "rally", "start")
        assert [c.url.endswith("/callback") for c in calls] == [True] and calls[0].error is exc
        assert (await rally_in(h)).status == "lobby" and (await log_of(h, rally.id), len(tries(h))) == before
        (line,) = logged(caplog, "POST /interactions/", exc)
        assert "/callback" in line and "not run" in line
        calls = await command(h, BOB, "rally", "start")  # tried again: it works, once
        assert (await rally_in(h)).status == "running" and "The rally starts" in delivered(h)[-1].content


# -- the edit of the private answer (PATCH /webhooks/{app}/{token}/messages/@original) --------------

@pytest.mark.parametrize("status, code, message", ANSWERS, ids=IDS)
async def test_a_private_answer_discord_does_not_take_is_sent_again_as_a_followup(tmp_path, caplog, status, code,
                                                                                  message):
    async with Harness(tmp_path / "edit.sqlite3") as h:
        rally = await started(h)
        before = await log_of(h, rally.id)
        exc = answer(status, code, message, unknown=10008)
        fail_interaction(h, exc, ("PATCH",))
        calls = await command(h, ALICE, "rally", "status")
        (failed,) = [c for c in calls if c.error is not None]
        assert failed.method == "PATCH" and failed.url.endswith("/messages/@original")
        (text,) = private_answers(calls)  # the followup, for Alice alone
        assert "Bob" in text and [c.method for c in calls if c.content == text and c.error is None] == ["POST"]
        assert await log_of(h, rally.id) == before and (await rally_in(h)).status == "running"
        assert logged(caplog, "PATCH /webhooks/", exc)[0].count("/messages/@original") == 1


# -- a channel post of the outbox (POST /channels/{id}/messages) ---------------------------------------

@pytest.mark.parametrize("status, code, message", ANSWERS, ids=IDS)
async def test_a_turn_post_discord_refuses_is_retried_or_given_up_as_documented(tmp_path, caplog, status, code,
                                                                                message):
    """`/rally start` is saved whatever Discord answers the prompt (the host is not told it
    failed). 429 and 5xx: the row waits (Retry-After, or the backoff) and the prompt goes once;
    400: the request cannot work, the row is dropped with the reason; 403: the rally is paused
    and the host told by DM, the row retried later; 404 Unknown Channel: the rally is abandoned."""
    async with Harness(tmp_path / "post.sqlite3") as h:
        rally = await lobby(h)
        exc = answer(status, code, message, unknown=10003)
        h.http.fail(exc, times=1, path=f"/channels/{CHANNEL}/messages")
        calls = await command(h, BOB, "rally", "start")
        assert private_answers(calls) == [] and tries(h)[-1].error is exc
        starts = [a for a, _ in await log_of(h, rally.id)]
        (row,) = [r for r in await h.bot.store.outbox.all() if r.kind == "turn"]
        (line,) = logged(caplog, f"POST /channels/{CHANNEL}/messages", exc)
        assert f"outbox row {row.id}" in line
        h.clock.advance(seconds=RETRY_AFTER_S - 1)
        await h.bot.sender.flush()
        if status in (429, 500, 503):
            assert "retry" in line and (len(tries(h)) == 4) == (status == 429)  # Retry-After is waited for
            if status == 429:
                h.clock.advance(seconds=2)
                await h.bot.sender.flush()
            assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)  # from delivery
            h.clock.advance(seconds=60)
            await h.bot.sender.flush()
            assert [c.content.startswith("The rally starts") for c in delivered(h)] == [False] * 3 + [True]
            assert len(tries(h)) == 5
        else:
            row = await h.bot.store.outbox.get(row.id)
            expected = {400: "refused", 403: "forbidden", 404: "gone"}[status]
            assert expected in line and len(tries(h)) == 4 and await h.bot.deadlines.pending(rally.id) == []
            now = await rally_in(h) if status != 404 else None
            if status == 400:
                assert row.outcome.startswith("dropped") and "400" in row.outcome and now.status == "running"
            elif status == 403:
                assert row.outcome is None and now.paused_at is not None  # retried once the channel is back
            else:
                assert (await h.bot.store.rallies.get(rally.id)).status == "abandoned"
        assert [a for a, _ in await log_of(h, rally.id)] == starts  # the start is kept once, whatever happened


# -- the edit adding a turn's picture (PATCH /channels/{id}/messages/{message}) -------------------------

@pytest.mark.parametrize("status, code, message", ANSWERS, ids=IDS)
async def test_a_picture_discord_does_not_take_is_retried_or_given_up_and_the_text_stays(tmp_path, caplog, status,
                                                                                        code, message):
    """The prompt's text is delivered and its clock runs whatever happens to its picture; 429 and
    5xx: the edit is tried again and the picture arrives; 400, 403, 404: it is given up."""
    async with Harness(tmp_path / "picture.sqlite3") as h:
        rally = await lobby(h)
        h.bot.sender.board_retries_s = (0.0,)
        exc = answer(status, code, message, unknown=10008, retry_after=0.01)
        h.http.fail(exc, times=1, path=f"/channels/{CHANNEL}/messages/")
        await command(h, BOB, "rally", "start")
        post = delivered(h)[-1]
        assert "The rally starts" in post.content
        assert await h.bot.deadlines.due_at(rally.id) == h.clock() + timedelta(seconds=DAY_S)
        edits = attachment_edits(h.sent, post)
        assert edits[0].error is exc
        retried = status in (429, 500, 503)
        assert [e.error is None for e in edits] == ([False, True] if retried else [False])
        assert post.files == (["board.png"] if retried else [])
        (line,) = logged(caplog, "PATCH /channels/", exc)
        assert f"/messages/{post.reply['id']}" in line
        assert ("trying again" in line) == retried and ("not attached" in line) == (not retried)
        assert (await rally_in(h)).status == "running" and len(await log_of(h, rally.id)) == 1


# -- a run's private thread (POST /channels/{id}/threads) -----------------------------------------------

@pytest.mark.parametrize("status, code, message", ANSWERS, ids=IDS)
async def test_a_run_thread_discord_does_not_open_is_explained_and_nothing_is_started(tmp_path, caplog, status,
                                                                                     code, message):
    async with Harness(tmp_path / "thread.sqlite3") as h:
        await league_with_open_round(h, ALICE)
        (rnd,) = await rounds(h)
        exc = answer(status, code, message, unknown=10003)
        h.http.fail(exc, path="/threads")
        calls = await h.command(ALICE, "run", "start")
        (text,) = private_answers(calls)
        key = {403: "discord.thread_forbidden", 404: "discord.thread_channel_gone"}.get(status, "discord.thread_failed")
        assert text == t(key, channel=f"<#{CHANNEL}>")
        assert thread_requests(calls) == [] and h.http.threads == {}
        assert await h.bot.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE[0])) is None
        assert logged(caplog, f"POST /channels/{CHANNEL}/threads", exc)
        thread_id, _ = await run_start(h, ALICE)  # once Discord takes it: the refusal wrote nothing
        assert list(h.http.threads) == [thread_id]


# -- the description itself -----------------------------------------------------------------------------

def test_a_failed_request_is_described_without_the_interaction_token():
    import yarl

    token = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQtdG9rZW4tb2YtdGhlLWludGVyYWN0aW9u"
    exc = http_error(404, 10015, message="Unknown Webhook")
    assert isinstance(exc.response, FakeResponse)
    exc.response.method, exc.response.url = "PATCH", yarl.URL(
        f"https://discord.com/api/v10/webhooks/4242/{token}/messages/@original")
    said = describe(exc)
    assert said == "PATCH /webhooks/4242/{token}/messages/@original: 404 Not Found, Discord code 10015: Unknown Webhook"
    assert describe(TimeoutError(), "POST /channels/20/messages") == "POST /channels/20/messages: TimeoutError"
    limited = http_error(429, retry_after=12.5, message="You are being rate limited.")
    assert describe(limited).endswith("429 Too Many Requests, Discord code 0: You are being rate limited., "
                                      "retry after 12.5 s")
