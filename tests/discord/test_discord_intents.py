"""What the bot asks the gateway for: the IDENTIFY packet's intents, as discord.py's gateway
builds it for this bot (`DiscordWebSocket.identify`, its socket replaced by a recorder), is the
`guilds` intent alone (1 << 0): no messages, typing, voice or privileged events; and the caches
the bot does not read are off (see RallyBot's docstring)."""

from __future__ import annotations

import asyncio

import discord
from discord.gateway import DiscordWebSocket

from bot.client import RallyBot
from bot.config import Settings
from bot.store.shards import Shards

GUILDS_ONLY = 1  # discord.Intents.guilds: the servers, their channels, threads and roles


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


async def test_the_gateway_is_asked_for_the_guilds_intent_only(tmp_path):
    bot = RallyBot(Settings(db=tmp_path / "i.sqlite3"), start_loops=False, sync=False)
    await bot._async_setup_hook()  # what login() does first (so that close() works)
    packet = await identify(bot)
    assert packet["op"] == DiscordWebSocket.IDENTIFY
    assert packet["d"]["intents"] == GUILDS_ONLY == discord.Intents(guilds=True).value
    assert bot.intents.value == GUILDS_ONLY
    assert not bot.intents.messages and not bot.intents.members and not bot.intents.message_content
    assert bot._connection.max_messages is None  # no message cache
    assert bot._connection.member_cache_flags.value == 0 and not bot._connection._chunk_guilds
    await bot.close()


async def test_each_shard_identifies_with_the_same_intents(tmp_path):
    settings = Settings(db=tmp_path / "s.sqlite3", shards=Shards(4, (1, 3)))
    bot = RallyBot(settings, start_loops=False, sync=False)
    await bot._async_setup_hook()
    packet = await identify(bot, shard_id=3)
    assert packet["d"]["shard"] == [3, 4] and packet["d"]["intents"] == GUILDS_ONLY
    await bot.close()
