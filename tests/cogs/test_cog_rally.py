"""`/rally …` callbacks with mock interactions on the real services: success, refusal, not yours.

A refusal must be private (the public loading message deleted first) and leave the stored rally
byte for byte as it was (`snapshot_of`, as in the service tests).
"""

from __future__ import annotations

from unittest.mock import MagicMock

import discord
import pytest

from bot.cogs.rally import RallyCog
from bot.services import Actor
from tests.cogs.conftest import ALICE, BOB, CAROL, HERE, interaction, only_private, only_public, sent
from tests.services.conftest import snapshot_of


def actor(user, manage=False) -> Actor:
    return Actor(user[0], user[1], can_manage=manage)


async def lobby(bot, *users):
    await bot.rallies.create(HERE, actor(BOB), "pinewood-sprint", drivers=2)
    for user in users:
        await bot.rallies.join(HERE, actor(user))


async def running(bot):
    await lobby(bot, BOB, ALICE)
    await bot.rallies.start(HERE, actor(BOB))


@pytest.fixture
def cog(bot) -> RallyCog:
    return bot.get_cog("RallyCog")


async def test_create_defers_then_posts_the_rally_publicly(bot, store, cog):
    inter = interaction(bot, BOB)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint", drivers=2, deadline_hours=12)
    inter.response.defer.assert_awaited_once_with(ephemeral=False, thinking=True)
    answer = only_public(inter)
    assert "Bob opens a rally on **Pinewood Sprint**" in answer["content"] and "12 h per turn" in answer["content"]
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert rally.host_id == BOB[0] and rally.turn_deadline_s == 12 * 3600 and "ai_on_timeout" not in rally.modules


async def test_create_with_ai_on_timeout_off_stores_the_setting(bot, store, cog):
    await RallyCog.create.callback(cog, interaction(bot, BOB), stage="pinewood-sprint", ai_on_timeout=False)
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert rally.modules["ai_on_timeout"] is False


async def test_create_refuses_an_unknown_stage_privately_and_stores_nothing(bot, store, cog):
    inter = interaction(bot, BOB)
    await RallyCog.create.callback(cog, inter, stage="nowhere")
    assert "There is no stage called `nowhere`" in only_private(inter)
    inter.delete_original_response.assert_awaited_once()  # the public "thinking…" goes first
    assert await snapshot_of(store) is None


async def test_create_names_exactly_the_permissions_the_bot_lacks_here(bot, store, cog):
    have = discord.Permissions.all()
    have.attach_files = False
    have.create_public_threads = False
    inter = interaction(bot, BOB, app_permissions=have)
    await RallyCog.create.callback(cog, inter, stage="pinewood-sprint")
    text = only_private(inter)
    assert "missing Create Public Threads, Attach Files" in text and "Send Messages" not in text
    assert await snapshot_of(store) is None


async def test_join_and_its_refusals(bot, store, cog):
    inter = interaction(bot, ALICE)
    await RallyCog.join.callback(cog, inter)
    assert "There is no rally in this channel" in only_private(inter)
    await lobby(bot, BOB)
    inter = interaction(bot, ALICE)
    await RallyCog.join.callback(cog, inter)
    assert "Alice joins the rally (2/2)" in only_public(inter)["content"]
    before = await snapshot_of(store)
    inter = interaction(bot, ALICE)
    await RallyCog.join.callback(cog, inter)
    assert "already in rally" in only_private(inter)
    inter = interaction(bot, CAROL)
    await RallyCog.join.callback(cog, inter)
    assert "is full" in only_private(inter)
    assert await snapshot_of(store) == before


async def test_leave_in_the_lobby_and_refused_for_a_stranger(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    before = await snapshot_of(store)
    inter = interaction(bot, CAROL)
    await RallyCog.leave.callback(cog, inter)
    assert "You are not in rally" in only_private(inter)
    assert await snapshot_of(store) == before
    inter = interaction(bot, ALICE)
    await RallyCog.leave.callback(cog, inter)
    assert "Alice leaves the rally." in only_public(inter)["content"]


async def test_start_posts_the_board_buttons_and_pings_only_the_first_driver(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    inter = interaction(bot, BOB)
    await RallyCog.start.callback(cog, inter)
    answer = only_public(inter)
    assert "The rally starts" in answer["content"] and "Bob, your turn" in answer["content"]
    assert answer["file"] == "board.png" and f"<@{BOB[0]}>" in answer["content"]
    mentions = answer["mentions"]
    assert [u.id for u in mentions.users] == [BOB[0]] and not mentions.everyone and not mentions.roles
    ids = [item.item.custom_id for item in answer["view"].children]
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert ids == [f"rally:{rally.id}:{rally.version}:1"]  # gear 0: only the 1st-gear die (A6)
    message = await bot.turn_messages.current(rally.id)
    assert message is not None and message.channel_id == HERE.channel_id


async def test_start_by_someone_else_is_refused_and_changes_nothing(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    before = await snapshot_of(store)
    inter = interaction(bot, ALICE)
    await RallyCog.start.callback(cog, inter)
    assert "Only the host or a member with Manage Server can start the rally" in only_private(inter)
    assert await snapshot_of(store) == before


async def test_a_member_with_manage_server_may_start(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    inter = interaction(bot, CAROL, manage=True)
    await RallyCog.start.callback(cog, inter)
    assert "The rally starts" in only_public(inter)["content"]


async def test_status_is_deferred_privately_and_answered_privately(bot, store, cog):
    inter = interaction(bot, ALICE)
    await RallyCog.status.callback(cog, inter)
    assert "There is no rally in this channel" in only_private(inter)
    inter.delete_original_response.assert_not_awaited()  # a private defer shows nothing to others
    await running(bot)
    inter = interaction(bot, ALICE)
    await RallyCog.status.callback(cog, inter)
    inter.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    assert "To drive: Bob." in only_private(inter)


async def test_board_posts_the_image_or_refuses(bot, store, cog):
    inter = interaction(bot, ALICE)
    await RallyCog.board.callback(cog, inter)
    assert "There is no rally" in only_private(inter)
    await running(bot)
    inter = interaction(bot, ALICE)
    await RallyCog.board.callback(cog, inter)
    answer = only_public(inter)
    assert answer["file"] == "board.png" and "round 1" in answer["content"]


async def test_abandon_by_the_host_only(bot, store, cog):
    await running(bot)
    before = await snapshot_of(store)
    inter = interaction(bot, ALICE)
    await RallyCog.abandon.callback(cog, inter)
    assert "can abandon the rally" in only_private(inter)
    assert await snapshot_of(store) == before
    inter = interaction(bot, BOB)
    await RallyCog.abandon.callback(cog, inter)
    assert "Bob abandons the rally." in only_public(inter)["content"]
    assert await snapshot_of(store) is None  # no active rally left in the channel


async def test_abandon_removes_the_buttons_of_the_last_turn_message(bot, store, cog):
    await lobby(bot, BOB, ALICE)
    await RallyCog.start.callback(cog, interaction(bot, BOB))
    await RallyCog.abandon.callback(cog, interaction(bot, BOB))
    edits = [c for c in bot.http.request.sent if c.method == "PATCH"]
    assert len(edits) == 1 and edits[0].body["components"] == []


async def test_kick_by_the_host_and_refused_for_others(bot, store, cog):
    await running(bot)
    target = MagicMock(spec=discord.Member)
    target.id, target.display_name = ALICE
    before = await snapshot_of(store)
    inter = interaction(bot, ALICE)
    await RallyCog.kick.callback(cog, inter, driver=target)
    assert "can remove a driver" in only_private(inter)
    assert await snapshot_of(store) == before
    inter = interaction(bot, BOB)
    await RallyCog.kick.callback(cog, inter, driver=target)
    answer = only_public(inter)
    assert "Alice is removed from the rally and retires" in answer["content"]
    assert sent(inter)[0]["view"] is not None  # Bob's turn goes on, with buttons


async def test_a_board_that_cannot_be_drawn_does_not_hide_the_turn(bot, store, cog, caplog):
    class BrokenRenderer:
        def board(self, stage, view):
            raise RuntimeError("no fonts")

    await lobby(bot, BOB, ALICE)
    bot.rallies.renderer = BrokenRenderer()
    inter = interaction(bot, BOB)
    await RallyCog.start.callback(cog, inter)
    answer = only_public(inter)
    assert "Bob, your turn" in answer["content"] and answer["file"] is None and answer["view"] is not None
    assert "could not draw board.png" in caplog.text
