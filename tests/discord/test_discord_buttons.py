"""Turn buttons through discord.py's real dynamic-item dispatch: a click after a restart (new
bot, same database), a stale click, a click by someone else, old buttons taken off.

A click is acknowledged without any message; the move reaches the channel as the post the
outbox sender delivers; a refusal is a private followup only the clicker reads."""

from __future__ import annotations

from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Roll
from tests.discord.fakes import CHANNEL, GUILD, Harness, buttons_of, channel_posts, click_payload, private_answers

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


async def started(h: Harness) -> dict:
    await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
    await h.command(BOB, "rally", "join")
    await h.command(ALICE, "rally", "join")
    await h.command(BOB, "rally", "start")
    return h.last_turn_message()


async def test_a_button_posted_before_a_restart_works_after_it(tmp_path):
    db = tmp_path / "restart.sqlite3"
    async with Harness(db) as first:
        message = await started(first)
    assert buttons_of(message) == ["rally:1:1:1"]
    async with Harness(db) as second:  # a new process: nothing in memory but the registered template
        calls = await second.dispatch(click_payload(BOB, message, "rally:1:1:1"))
        assert calls[0].url.endswith("/callback") and calls[0].body == {"type": 6}  # ack, no loading message
        assert private_answers(calls) == []
        (post,) = channel_posts(calls)
        assert post.url.endswith(f"/channels/{CHANNEL}/messages") and "**Bob** rolls 1" in post.content
        assert buttons_of(post.reply) == ["rally:1:2:2", "rally:1:2:W", "rally:1:2:stop"]
        assert not [c for c in calls if c.via == "webhook" and c.method in ("PATCH", "DELETE")]  # nothing else said
        edit = [c for c in calls if c.method == "PATCH"]
        assert len(edit) == 1 and edit[0].url.endswith(f"/channels/{CHANNEL}/messages/{message['id']}")
        assert edit[0].body["components"] == []  # the old turn message lost its buttons
        log = await second.bot.store.actions.list(1)
        assert (log[-1].action, log[-1].actor) == (log_text(Roll(("1",))), BOB[0])


async def test_a_click_on_an_old_turn_is_over_and_changes_nothing(tmp_path):
    async with Harness(tmp_path / "stale.sqlite3") as h:
        old = await started(h)
        await h.dispatch(click_payload(BOB, old, "rally:1:1:1"))
        version = (await h.bot.store.rallies.get(1)).version
        calls = await h.dispatch(click_payload(BOB, old, "rally:1:1:1"))  # the same button again
        assert calls[0].url.endswith("/callback") and calls[0].body == {"type": 6}
        (text,) = private_answers(calls)
        assert "This turn is over" in text
        assert channel_posts(calls) == []
        assert not [c for c in calls if c.method in ("PATCH", "DELETE")]  # the clicked message is untouched
        assert (await h.bot.store.rallies.get(1)).version == version


async def test_a_click_by_another_member_is_not_their_turn(tmp_path):
    async with Harness(tmp_path / "other.sqlite3") as h:
        message = await started(h)
        calls = await h.dispatch(click_payload(ALICE, message, "rally:1:1:1"))
        (text,) = private_answers(calls)
        assert "It is not your turn: Bob is driving" in text
        assert channel_posts(calls) == [] and await h.bot.store.outbox.owed() == []
        assert (await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)).version == 1


async def test_unknown_custom_ids_are_ignored(tmp_path):
    async with Harness(tmp_path / "unknown.sqlite3") as h:
        message = await started(h)
        message = dict(message, components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": "something:else"}]}])
        assert await h.dispatch(click_payload(BOB, message, "something:else")) == []
