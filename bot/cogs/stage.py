"""`/stage list [game]` and `/stage show name [game]`: the stages a game ships, with their length,
zones and difficulty, and one stage's preview; private answers, thin (bot/services/stage_library.py
does the work). `game` is optional (the default game's stages) and autocompleted like
`/rally create game:`; `name` is autocompleted among the chosen game's stages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.autocomplete import game_choices, stage_choices
from bot.i18n import t
from bot.services.reply import Actor, Place, Reply
from bot.services.stage_library import stage_list, stage_show
from bot.views.interaction_io import reader_language, run_command

if TYPE_CHECKING:
    from bot.client import RallyBot


class StageCog(commands.GroupCog, group_name="stage", group_description=t("discord.cmd.stage")):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="list", description=t("discord.cmd.stage_list"))
    @app_commands.describe(game=t("discord.opt.stage_game"))
    @app_commands.autocomplete(game=game_choices)
    async def list(self, interaction: discord.Interaction, game: str | None = None) -> None:
        lang = reader_language(interaction)

        async def call(_: Place, __: Actor) -> Reply:
            return stage_list(game, lang)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="show", description=t("discord.cmd.stage_show"))
    @app_commands.describe(name=t("discord.opt.stage_name"), game=t("discord.opt.stage_game"))
    @app_commands.autocomplete(name=stage_choices, game=game_choices)
    async def show(self, interaction: discord.Interaction, name: str, game: str | None = None) -> None:
        lang = reader_language(interaction)

        async def call(_: Place, __: Actor) -> Reply:
            return await stage_show(game, name, lang, self.bot.renderer)

        await run_command(self.bot, interaction, call)


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(StageCog(bot))
