"""`/rally create|join|leave|start|status|board|abandon|kick|results|history|add-ai|remove-ai|web`: a rally, thin.

Each command maps its options to one `RallyService` call through `run_command` (refuse DMs,
defer, call, answer, errors); public effects reach the channel through the outbox. Host-only
commands (start, abandon, kick, add-ai, remove-ai) are checked by the service at run time (host of the rally or
Manage Server); Discord ignores `default_permissions` on subcommands, and
a host without Manage Server must still reach them, so the runtime check is the authority.
`/rally web` (Manage Channels or Manage Server) is checked the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.cogs.autocomplete import game_choices, ruleset_choices, stage_choices
from bot.cogs.option_types import RallyNumber
from bot.cogs.permissions import is_thread, require_channel_permissions
from bot.i18n import t
from bot.services.reply import Actor, Place, Reply
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot

#: the most seats any game takes (each game's own bound is the service's to check)
MAX_SEATS = max(g.rules.seats.max for g in games.games())


@app_commands.guild_only()
class RallyCog(commands.GroupCog, group_name="rally", group_description=t("discord.cmd.rally")):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description=t("discord.cmd.rally_create"))
    @app_commands.describe(stage=t("discord.opt.stage"), drivers=t("discord.opt.drivers"),
                           deadline_hours=t("discord.opt.deadline_hours"), ruleset=t("discord.opt.ruleset"),
                           sisu=t("discord.opt.sisu"), shakedown=t("discord.opt.shakedown"),
                           ai_on_timeout=t("discord.opt.ai_on_timeout"), assistance=t("discord.opt.assistance"),
                           order=t("discord.opt.order"), modules=t("discord.opt.modules"),
                           language=t("discord.opt.language"), game=t("discord.opt.game"),
                           preset=t("discord.opt.preset"))
    @app_commands.autocomplete(stage=stage_choices, ruleset=ruleset_choices, game=game_choices, preset=ruleset_choices)
    async def create(self, interaction: discord.Interaction, stage: str | None = None,
                     drivers: app_commands.Range[int, 1, MAX_SEATS] = 4,
                     deadline_hours: app_commands.Range[int, 1, 168] = 24,
                     ruleset: str | None = None, sisu: bool = False, shakedown: bool = False,
                     ai_on_timeout: bool = True, assistance: str = "all",
                     order: Literal["joined", "random"] = "joined", modules: str = "",
                     language: Literal["en", "fr", "de"] | None = None, game: str | None = None,
                     preset: str | None = None) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            require_channel_permissions(interaction.app_permissions, in_thread=is_thread(interaction.channel))
            return await self.bot.rallies.create(place, actor, stage, drivers=drivers, deadline_hours=deadline_hours,
                                                 ruleset=ruleset, sisu=sisu, shakedown=shakedown,
                                                 ai_on_timeout=ai_on_timeout, assistance=assistance, order=order,
                                                 modules=modules, language=language, game=game, preset=preset)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="join", description=t("discord.cmd.rally_join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.join)

    @app_commands.command(name="leave", description=t("discord.cmd.rally_leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.leave)

    @app_commands.command(name="start", description=t("discord.cmd.rally_start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.start)

    @app_commands.command(name="status", description=t("discord.cmd.rally_status"))
    async def status(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.status)

    @app_commands.command(name="board", description=t("discord.cmd.rally_board"))
    async def board(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.board)

    @app_commands.command(name="abandon", description=t("discord.cmd.rally_abandon"))
    async def abandon(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.abandon)

    @app_commands.command(name="kick", description=t("discord.cmd.rally_kick"))
    @app_commands.describe(driver=t("discord.opt.driver"))
    async def kick(self, interaction: discord.Interaction, driver: discord.User) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.bot.rallies.kick(place, actor, driver.id, driver.display_name))

    @app_commands.command(name="results", description=t("discord.cmd.rally_results"))
    @app_commands.describe(rally=t("discord.opt.rally"))
    async def results(self, interaction: discord.Interaction,
                      rally: RallyNumber | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.bot.rallies.results(place, actor, rally))

    @app_commands.command(name="history", description=t("discord.cmd.rally_history"))
    async def history(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.history)

    @app_commands.command(name="add-ai", description=t("discord.cmd.rally_add_ai"))
    @app_commands.describe(count=t("discord.opt.ai_count"), style=t("discord.opt.ai_style"))
    async def add_ai(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 3] = 1,
                     style: Literal["careful", "balanced", "bold"] = "balanced") -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.bot.rallies.add_ai(place, actor, count, style))

    @app_commands.command(name="remove-ai", description=t("discord.cmd.rally_remove_ai"))
    @app_commands.describe(name=t("discord.opt.ai_name"))
    async def remove_ai(self, interaction: discord.Interaction, name: str = "") -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.bot.rallies.remove_ai(place, actor, name))

    @app_commands.command(name="web", description=t("discord.cmd.rally_web"))
    @app_commands.describe(visibility=t("discord.opt.rally_web_visibility"))
    async def web(self, interaction: discord.Interaction, visibility: Literal["public", "private"]) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.bot.rallies.channel_web.set(place, actor, visibility))


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(RallyCog(bot))
