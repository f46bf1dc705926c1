"""`/ratings [game] [scope]`: a game's top drivers by rating in this server or the world, thin
(`bot/services/career/ratings_list.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.autocomplete import game_choices
from bot.i18n import t
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot


class RatingsCog(commands.Cog):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot

    @app_commands.command(name="ratings", description=t("discord.cmd.ratings"))
    @app_commands.guild_only()
    @app_commands.describe(game=t("discord.opt.ratings_game"), scope=t("discord.opt.ratings_scope"))
    @app_commands.autocomplete(game=game_choices)
    async def ratings(self, interaction: discord.Interaction, game: str | None = None,
                      scope: Literal["server", "world"] = "server") -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.bot.rallies.ratings.ratings(place, actor, game, scope))


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(RatingsCog(bot))
