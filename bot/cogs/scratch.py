"""`/scratch ranking|run|me`: the world scratch ranking on the week's official stage, thin.

Discord cannot make `/scratch` both a command and a group, so the ranking is `/scratch ranking
[game] [week]` next to `/scratch run [game]` and `/scratch me [game]`: one world scratch per game
with solo runs (the game's option offers those; none given: classic). `/scratch run` makes the driver's private thread
in the channel where it is typed (after `scratch.check_run` and the permission check), then
starts the run there like `/run start` (`bot/cogs/run.py`, `start_in_thread`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.autocomplete import solo_game_choices
from bot.cogs.permissions import require_thread_permissions
from bot.cogs.run import Ghost, start_in_thread
from bot.i18n import t
from bot.services.reply import Actor, Place, Reply
from bot.views.interaction_io import run_command
from bot.views.server_names import server_name

if TYPE_CHECKING:
    from bot.client import RallyBot
    from bot.services.world.scratch import ScratchService


@app_commands.guild_only()
class ScratchCog(commands.GroupCog, group_name="scratch", group_description=t("discord.cmd.scratch")):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def scratch(self) -> ScratchService:
        return self.bot.rallies.championships.scratch

    @app_commands.command(name="ranking", description=t("discord.cmd.scratch_ranking"))
    @app_commands.describe(game=t("discord.opt.scratch_game"), week=t("discord.opt.week"))
    @app_commands.autocomplete(game=solo_game_choices)
    async def ranking(self, interaction: discord.Interaction, game: str | None = None,
                      week: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.scratch.ranking(place, actor, week, game))

    @app_commands.command(name="run", description=t("discord.cmd.scratch_run"))
    @app_commands.describe(game=t("discord.opt.scratch_game"), ghost=t("discord.opt.ghost"))
    @app_commands.autocomplete(game=solo_game_choices)
    async def run(self, interaction: discord.Interaction, game: str | None = None, ghost: Ghost | None = None) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            require_thread_permissions(interaction.app_permissions, place.channel_id)
            rnd = await self.scratch.check_run(place, actor, game, ghost)
            name = t("discord.scratch_thread_name", name=actor.name, week=rnd.week or "?")
            guild_name = await server_name(self.bot, interaction)

            async def begin(thread_id: int) -> Reply:
                return await self.scratch.start_run(place, actor, thread_id=thread_id, guild_name=guild_name,
                                                    game=game, ghost=ghost)

            return await start_in_thread(interaction, place.channel_id, name, begin)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="me", description=t("discord.cmd.scratch_me"))
    @app_commands.describe(game=t("discord.opt.scratch_game"))
    @app_commands.autocomplete(game=solo_game_choices)
    async def me(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.scratch.me(place, actor, game))


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(ScratchCog(bot))
