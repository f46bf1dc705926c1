"""`/rally web public|private` through the simulated Discord: the member's Manage Channels or
Manage Server permission (the interaction's, `actor_of`) decides; a plain member is refused
privately with nothing written."""

from __future__ import annotations

import discord
import pytest

from tests.discord.fakes import CHANNEL, GUILD, Harness, posts, private_answers
from tests.discord.fault_helpers import ALICE

CHANNELS = (1007, "Chan")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "web.sqlite3") as harness:
        yield harness


async def published(h: Harness) -> list[tuple]:
    return [tuple(r) for r in await h.bot.store.db.fetch_all("SELECT guild_id, channel_id, published_by "
                                                             "FROM web_channels")]


async def test_only_manage_channels_or_manage_server_publishes_a_channel(h):
    refused = await h.command(ALICE, "rally", "web", visibility="public")
    assert any("Only a member with the Manage Channels or Manage Server permission" in a
               for a in private_answers(refused))
    assert await published(h) == []

    can = discord.Permissions(view_channel=True, send_messages=True, use_application_commands=True,
                              manage_channels=True)
    calls = await h.command(CHANNELS, "rally", "web", visibility="public", payload={"member": can})
    assert await published(h) == [(GUILD, CHANNEL, CHANNELS[0])]
    shown = " ".join(str(c.body) for c in posts(calls)) + " ".join(private_answers(calls))
    assert "The rallies of this channel are now public" in shown

    await h.command(ALICE, "rally", "web", visibility="private")
    assert await published(h) == [(GUILD, CHANNEL, CHANNELS[0])]  # refused: still public
    await h.command((1004, "Mod"), "rally", "web", visibility="private", payload={"manage": True})
    assert await published(h) == []
