"""`/driver [user] [game]`: a driver's career card, privately, thin
(`bot/services/career/careers.py` does the work). No user: the asker's own card; no game: the game of
their latest rally this server may see. The card is drawn in the render workers in the reader's
Discord language."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.autocomplete import game_choices
from bot.i18n import t
from bot.services.reply import Actor, Place, Reply
from bot.views.interaction_io import reader_language, run_command

if TYPE_CHECKING:
    from bot.client import RallyBot


@app_commands.guild_only()
class CareerCog(commands.Cog):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot

    @app_commands.command(name="driver", description=t("discord.cmd.driver"))
    @app_commands.describe(user=t("discord.opt.driver_user"), game=t("discord.opt.driver_game"))
    @app_commands.autocomplete(game=game_choices)
    async def driver(self, interaction: discord.Interaction, user: discord.User | None = None,
                     game: str | None = None) -> None:
        lang = reader_language(interaction)

        async def call(place: Place, actor: Actor) -> Reply:
            target = None if user is None else user.id
            name = None if user is None else user.display_name
            return await self.bot.rallies.careers.driver(place, actor, target, name, game, lang, self.bot.renderer)

        await run_command(self.bot, interaction, call)


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(CareerCog(bot))
