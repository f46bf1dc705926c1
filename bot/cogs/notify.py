"""`/notify dm on|off` and `/notify next on|off`: a driver's DM notifications, thin.

Each maps to `NotifyService.set` (`bot.services.notify`, which says what is sent and why the
channel ping stays). The preference is the user's own, kept across servers: no permission needed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot

OnOff = Literal["on", "off"]


@app_commands.guild_only()
class NotifyCog(commands.GroupCog, group_name="notify", group_description=t("discord.cmd.notify")):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot
        super().__init__()

    async def _set(self, interaction: discord.Interaction, what: str, value: str) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.bot.rallies.notify.set(place, actor, what, value))

    @app_commands.command(name="dm", description=t("discord.cmd.notify_dm"))
    @app_commands.describe(value=t("discord.opt.notify_value"))
    async def dm(self, interaction: discord.Interaction, value: OnOff) -> None:
        await self._set(interaction, "dm", value)

    @app_commands.command(name="next", description=t("discord.cmd.notify_next"))
    @app_commands.describe(value=t("discord.opt.notify_value"))
    async def next_turn(self, interaction: discord.Interaction, value: OnOff) -> None:
        await self._set(interaction, "next", value)


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(NotifyCog(bot))
