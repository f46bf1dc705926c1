"""`/rally …` callbacks with mock interactions on the real services: success, refusal, not yours.

Every slash command defers privately. A refusal is the edit of that private answer and leaves
the stored rally byte for byte as it was, owing no post (`stored`). A saved command removes the
private answer; its public effect is the channel post the outbox sender delivers
(`only_public` flushes the sender and returns that post).
"""

from __future__ import annotations

from unittest.mock import MagicMock

import discord
import pytest

from bot.cogs.rally import RallyCog
from bot.services import Actor
from tests.cogs.conftest import (
    ALICE,
    BOB,
    CAROL,
    HERE,
    delivered,
    interaction,
    mentioned,
    only_private,
    only_public,
    stored,
)
from tests.discord.fakes import CHANNEL, buttons_of


def actor(user, manage=False) -> Actor:
    return Actor(user[0], user[1], can_manage=manage)


async def lobby(bot, *users):
    """Bob's lobby with `users` joined, its posts already delivered."""
    await bot.rallies.create(HERE, actor(BOB), "pinewood-sprint", drivers=2)
    for user in users:
        await bot.rallies.join(HERE, actor(user))
    await delivered(bot)


async def running(bot):
    await lobby(bot, BOB, ALICE)
    await bot.rallies.start(HERE, actor(BOB))
    await delivered(bot)


async def active(store):
    return await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)


@pytest.fixture
def cog(bot) -> RallyCog:
    return bot.get_cog("RallyCog")


async def test_create_defers_privately_and_the_sender_posts_the_rally_in_the_channel(bot, store, cog):
    inter = interaction(bot, BOB)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint", drivers=2, deadline_hours=12)
    inter.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    post = await only_public(bot, inter)
    assert "Bob opens a rally on **Pinewood Sprint**" in post.content and "12 h per turn" in post.content
    assert mentioned(post) == []  # a lobby post pings nobody
    rally = await active(store)
    assert rally.host_id == BOB[0] and rally.turn_deadline_s == 12 * 3600 and "ai_on_timeout" not in rally.modules


async def test_create_with_ai_on_timeout_off_stores_the_setting(bot, store, cog):
    await RallyCog.create.callback(cog, interaction(bot, BOB), stage="pinewood-sprint", ai_on_timeout=False)
    assert (await active(store)).modules["ai_on_timeout"] is False


async def test_create_refuses_an_unknown_stage_privately_and_stores_nothing(bot, store, cog):
    inter = interaction(bot, BOB)
    await RallyCog.create.callback(cog, inter, stage="nowhere")
    assert "There is no stage called `nowhere`" in only_private(inter)
    assert await stored(store) == (None, [])
    assert await delivered(bot) == []


@pytest.mark.parametrize("stage, says", [
    ("../../etc/x", "There is no stage called `../../etc/x`"),
    ("/etc/passwd", "There is no stage called `/etc/passwd`"),
    ("s" * 300, "`stage` is too long (300 characters; at most 265)"),
])
async def test_create_refuses_a_stage_that_is_a_path_or_too_long_and_the_channel_stays_free(bot, store, cog,
                                                                                             stage, says):
    """A stage name is looked up in the catalogue, never opened as a path, and bounded: each
    hostile value gets its own refusal, nothing is stored, and a real rally can still be created."""
    inter = interaction(bot, BOB)
    await RallyCog.create.callback(cog, inter, stage=stage)
    assert says in only_private(inter)
    assert await stored(store) == (None, [])
    inter = interaction(bot, BOB)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint")
    assert "opens a rally" in (await only_public(bot, inter)).content  # the channel was left free


async def test_create_names_exactly_the_permissions_the_bot_lacks_here(bot, store, cog):
    have = discord.Permissions.all()
    have.attach_files = False
    have.create_public_threads = False  # no longer needed: the bot posts in the channel itself
    inter = interaction(bot, BOB, app_permissions=have)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint")
    text = only_private(inter)
    assert "I am missing Attach Files." in text and "Create Public Threads" not in text
    assert await stored(store) == (None, [])


async def test_create_in_a_thread_needs_send_messages_in_threads_not_send_messages(bot, store, cog):
    have = discord.Permissions.all()
    have.send_messages = False
    have.create_public_threads = False
    inter = interaction(bot, BOB, app_permissions=have, channel=MagicMock(spec=discord.Thread))
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint")
    assert "opens a rally" in (await only_public(bot, inter)).content
    assert (await active(store)).host_id == BOB[0]


async def test_create_in_a_channel_without_send_messages_is_refused_naming_it(bot, store, cog):
    have = discord.Permissions.all()
    have.send_messages = False
    have.create_public_threads = False
    inter = interaction(bot, BOB, app_permissions=have)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint")
    text = only_private(inter)
    assert "I am missing Send Messages." in text and "Create Public Threads" not in text
    assert await stored(store) == (None, [])


async def test_a_command_from_a_dm_is_refused_before_deferring_and_creates_nothing(bot, store, cog):
    inter = interaction(bot, BOB, guild_id=None)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint")
    inter.response.defer.assert_not_awaited()
    assert "use this command in a server, not in a direct message" in only_private(inter)
    assert await stored(store) == (None, [])


async def test_join_and_its_refusals(bot, store, cog):
    inter = interaction(bot, ALICE)
    await RallyCog.join.callback(cog, inter)
    assert "There is no rally in this channel" in only_private(inter)
    await lobby(bot, BOB)
    inter = interaction(bot, ALICE)
    await RallyCog.join.callback(cog, inter)
    assert "Alice joins the rally (2/2)" in (await only_public(bot, inter)).content
    before = await stored(store)
    inter = interaction(bot, ALICE)
    await RallyCog.join.callback(cog, inter)
    assert "already in rally" in only_private(inter)
    inter = interaction(bot, CAROL)
    await RallyCog.join.callback(cog, inter)
    assert "is full" in only_private(inter)
    assert await stored(store) == before


async def test_leave_in_the_lobby_and_refused_for_a_stranger(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    before = await stored(store)
    inter = interaction(bot, CAROL)
    await RallyCog.leave.callback(cog, inter)
    assert "You are not in rally" in only_private(inter)
    assert await stored(store) == before
    inter = interaction(bot, ALICE)
    await RallyCog.leave.callback(cog, inter)
    assert "Alice leaves the rally." in (await only_public(bot, inter)).content


async def test_start_posts_the_board_buttons_and_pings_only_the_first_driver(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    inter = interaction(bot, BOB)
    await RallyCog.start.callback(cog, inter)
    rally = await active(store)
    assert await bot.deadlines.due_at(rally.id) is None  # the clock waits for the post to reach Bob
    post = await only_public(bot, inter)
    assert "The rally starts" in post.content and "Bob, your turn" in post.content and "Turn ends" in post.content
    assert post.files == ["board.png"] and f"<@{BOB[0]}>" in post.content
    assert mentioned(post) == [BOB[0]]
    assert buttons_of(post.body) == [f"rally:{rally.id}:{rally.version}:1"]  # gear 0: only the 1st-gear die (A6)
    assert await bot.deadlines.due_at(rally.id) is not None  # deadlines count from delivery
    message = await bot.rallies.delivery.turn_message(rally.id)  # found again to take its buttons off
    assert message is not None and (message.channel_id, message.message_id) == (CHANNEL, int(post.reply["id"]))


async def test_start_by_someone_else_is_refused_and_changes_nothing(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    before = await stored(store)
    inter = interaction(bot, ALICE)
    await RallyCog.start.callback(cog, inter)
    assert "Only the host or a member with Manage Server can start the rally" in only_private(inter)
    assert await stored(store) == before


async def test_a_member_with_manage_server_may_start(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    inter = interaction(bot, CAROL, manage=True)
    await RallyCog.start.callback(cog, inter)
    assert "The rally starts" in (await only_public(bot, inter)).content


async def test_status_is_deferred_privately_and_answered_privately(bot, store, cog):
    inter = interaction(bot, ALICE)
    await RallyCog.status.callback(cog, inter)
    assert "There is no rally in this channel" in only_private(inter)
    await running(bot)
    before = await stored(store)
    inter = interaction(bot, ALICE)
    await RallyCog.status.callback(cog, inter)
    inter.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    assert "To drive: Bob." in only_private(inter)
    assert await stored(store) == before and await delivered(bot) == []  # nothing for the channel


async def test_board_posts_the_image_or_refuses(bot, store, cog):
    inter = interaction(bot, ALICE)
    await RallyCog.board.callback(cog, inter)
    assert "There is no rally" in only_private(inter)
    await lobby(bot, BOB)
    inter = interaction(bot, ALICE)
    await RallyCog.board.callback(cog, inter)
    post = await only_public(bot, inter)
    assert post.files == ["stage.png"] and "has not started yet" in post.content  # the stage preview
    await bot.rallies.join(HERE, actor(ALICE))
    await bot.rallies.start(HERE, actor(BOB))
    await delivered(bot)
    inter = interaction(bot, ALICE)
    await RallyCog.board.callback(cog, inter)
    post = await only_public(bot, inter)
    assert post.files == ["board.png"] and "round 1" in post.content and mentioned(post) == []


async def test_abandon_by_the_host_only(bot, store, cog):
    await running(bot)
    before = await stored(store)
    inter = interaction(bot, ALICE)
    await RallyCog.abandon.callback(cog, inter)
    assert "can abandon the rally" in only_private(inter)
    assert await stored(store) == before
    inter = interaction(bot, BOB)
    await RallyCog.abandon.callback(cog, inter)
    assert "Bob abandons the rally." in (await only_public(bot, inter)).content
    assert await active(store) is None  # no active rally left in the channel


async def test_abandon_removes_the_buttons_of_the_last_turn_message(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    await RallyCog.start.callback(cog, interaction(bot, BOB))
    (turn,) = await delivered(bot)
    await RallyCog.abandon.callback(cog, interaction(bot, BOB))
    await delivered(bot)
    edits = [c for c in bot.http.request.sent if c.method == "PATCH" and "attachments" not in c.body]  # not the board
    assert len(edits) == 1 and edits[0].body["components"] == []
    assert edits[0].url.endswith(f"/channels/{CHANNEL}/messages/{turn.reply['id']}")


async def test_kick_by_the_host_and_refused_for_others(bot, store, cog):
    await running(bot)
    target = MagicMock(spec=discord.Member)
    target.id, target.display_name = ALICE
    before = await stored(store)
    inter = interaction(bot, ALICE)
    await RallyCog.kick.callback(cog, inter, driver=target)
    assert "can remove a driver" in only_private(inter)
    assert await stored(store) == before
    inter = interaction(bot, BOB)
    await RallyCog.kick.callback(cog, inter, driver=target)
    post = await only_public(bot, inter)
    assert "Alice is removed from the rally and retires" in post.content
    assert buttons_of(post.body) != []  # Bob's turn goes on, with buttons


async def test_a_board_that_cannot_be_drawn_does_not_hide_the_turn(bot, store, cog, caplog):
    class BrokenRenderer:
        def board(self, game, stage, view):
            raise RuntimeError("no fonts")

    await lobby(bot, BOB, ALICE)
    bot.sender.renderer = BrokenRenderer()
    inter = interaction(bot, BOB)
    await RallyCog.start.callback(cog, inter)
    post = await only_public(bot, inter)
    assert "Bob, your turn" in post.content and post.files == [] and buttons_of(post.body) != []
    assert "could not draw the image of outbox row" in caplog.text
