"""`/help`: what the bot does and every command, privately; no database, so no defer."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=t("discord.cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(t("discord.help"), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
