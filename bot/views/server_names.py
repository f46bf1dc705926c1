"""A server's name for a run (the world scratch ranking), asked of Discord when not kept.

`bot/services/server_names.py` keeps it in the server's settings and says when to ask again;
this is the asking: `Client.fetch_guild` (public; one request, without the member counts). A
failure (403: the bot cannot see the server, 5xx, time-out) is logged and gives None: the
service then falls back to the name kept, else "" (shown as —).
"""

from __future__ import annotations

import logging

import discord

from bot.services import server_names
from bot.views.discord_errors import FAILURES, describe
from bot.views.host import Host

log = logging.getLogger(__name__)


async def server_name(host: Host, interaction: discord.Interaction) -> str:
    """The name of the server `interaction` comes from ("" outside one, or when unknown)."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return ""

    async def fetch() -> str | None:
        try:
            guild = await interaction.client.fetch_guild(guild_id, with_counts=False)
        except FAILURES as exc:
            log.warning("could not learn the name of server %s: %s", guild_id, describe(exc, f"GET /guilds/{guild_id}"))
            return None
        return guild.name

    return await server_names.server_name(host.store, guild_id, host.rallies.work.clock(), fetch)
