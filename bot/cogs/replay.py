"""`/replay rally:N`: a finished rally's or run's animated replay, posted in the channel, thin
(`bot/services/play/replays.py` decides who may see which; refusals are private)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.option_types import RallyNumber
from bot.i18n import t
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot


class ReplayCog(commands.Cog):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description=t("discord.cmd.replay"))
    @app_commands.describe(rally=t("discord.opt.replay_rally"))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction, rally: RallyNumber) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.bot.rallies.replay(place, actor, rally))


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(ReplayCog(bot))
