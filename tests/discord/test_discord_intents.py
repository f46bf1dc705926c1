"""What the bot asks the gateway for: the IDENTIFY packet's intents, as discord.py's gateway
builds it for this bot (`DiscordWebSocket.identify`, its socket replaced by a recorder), is no
intent at all (0): no servers' channels, roles or threads, no messages, typing, voice or
privileged events (interactions come anyway); and the caches the bot does not read are off (see
RallyBot's docstring)."""

from __future__ import annotations

import asyncio

import discord
from discord.gateway import DiscordWebSocket

from bot.client import RallyBot
from bot.config import Settings
from bot.store.shards import Shards

NO_INTENT = 0  # not even `guilds` (1 << 0): what a server is comes with each interaction, or is fetched


async def identify(bot: RallyBot, shard_id: int | None = None) -> dict:
    """The IDENTIFY packet the gateway would send for `bot` (shard `shard_id`)."""
    sent: list[dict] = []
    ws = DiscordWebSocket(socket=None, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
    ws.token, ws._connection, ws.shard_id = "the-token", bot._connection, shard_id
    ws.shard_count = bot.shard_count
    ws.call_hooks, ws._initial_identify = bot._connection.call_hooks, True

    async def send_as_json(data: dict) -> None:
        sent.append(data)

    ws.send_as_json = send_as_json  # type: ignore[method-assign]
    await ws.identify()
    (packet,) = sent
    return packet


async def test_the_gateway_is_asked_for_no_intent(tmp_path):
    bot = RallyBot(Settings(db=tmp_path / "i.sqlite3"), start_loops=False, sync=False)
    await bot._async_setup_hook()  # what login() does first (so that close() works)
    packet = await identify(bot)
    assert packet["op"] == DiscordWebSocket.IDENTIFY
    assert packet["d"]["intents"] == NO_INTENT == discord.Intents.none().value
    assert bot.intents.value == NO_INTENT
    assert not bot.intents.guilds and not bot.intents.messages
    assert not bot.intents.members and not bot.intents.message_content
    assert bot._connection.max_messages is None  # no message cache
    assert bot._connection.member_cache_flags.value == 0 and not bot._connection._chunk_guilds
    await bot.close()


async def test_each_shard_identifies_with_the_same_intents(tmp_path):
    settings = Settings(db=tmp_path / "s.sqlite3", shards=Shards(4, (1, 3)))
    bot = RallyBot(settings, start_loops=False, sync=False)
    await bot._async_setup_hook()
    packet = await identify(bot, shard_id=3)
    assert packet["d"]["shard"] == [3, 4] and packet["d"]["intents"] == NO_INTENT
    await bot.close()
