"""`/roll`, `/stop`, `/line`, `/spare`, `/odds`: a driver's turn, thin.

Options go to the services as the driver would type them (`3 white 4`), so Discord, the buttons
and the console share one grammar (bot/engine/rallyman/parse.py). `/odds` is private.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands

from bot.cogs.autocomplete import DiceChoices, dice_choices
from bot.i18n import t
from bot.services.reply import Actor, Place, Reply
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot

#: Each line with its description's key (a closed table: no key built from a value).
LINE_KEYS = {"interior": "discord.line_interior", "skid": "discord.line_skid", "shortcut": "discord.line_shortcut"}
LINE_CHOICES = [app_commands.Choice(name=t(key), value=line) for line, key in LINE_KEYS.items()]


class TurnCog(DiceChoices):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description=t("discord.cmd.roll"))
    @app_commands.describe(dice=t("discord.opt.dice"), end=t("discord.opt.end"))
    @app_commands.autocomplete(dice=dice_choices)
    @app_commands.guild_only()
    async def roll(self, interaction: discord.Interaction, dice: str, end: bool = False) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.roll(place, actor, dice, end=end)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="stop", description=t("discord.cmd.stop"))
    @app_commands.guild_only()
    async def stop(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.stop)

    @app_commands.command(name="line", description=t("discord.cmd.line"))
    @app_commands.describe(line=t("discord.opt.line"))
    @app_commands.choices(line=LINE_CHOICES)
    @app_commands.guild_only()
    async def line(self, interaction: discord.Interaction, line: app_commands.Choice[str]) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.line(place, actor, line.value)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="spare", description=t("discord.cmd.spare"))
    @app_commands.guild_only()
    async def spare(self, interaction: discord.Interaction) -> None:
        await run_command(self.bot, interaction, self.bot.rallies.spare)

    @app_commands.command(name="attack", description=t("discord.cmd.attack"))
    @app_commands.describe(dice=t("discord.opt.attack_dice"))
    @app_commands.guild_only()
    async def attack(self, interaction: discord.Interaction, dice: str) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.attack(place, actor, dice)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="order", description=t("discord.cmd.order"))
    @app_commands.describe(order=t("discord.opt.order_dice"))
    @app_commands.guild_only()
    async def order(self, interaction: discord.Interaction, order: str) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.order(place, actor, order)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="place", description=t("discord.cmd.place"))
    @app_commands.describe(die=t("discord.opt.place_die"))
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, die: str) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.place_die(place, actor, die)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="tires", description=t("discord.cmd.tires"))
    @app_commands.describe(tires=t("discord.opt.tires"))
    @app_commands.guild_only()
    async def tires(self, interaction: discord.Interaction, tires: Literal["snow", "asphalt"]) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.tires(place, actor, tires)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="odds", description=t("discord.cmd.odds"))
    @app_commands.describe(dice=t("discord.opt.odds_dice"))
    @app_commands.autocomplete(dice=dice_choices)
    @app_commands.guild_only()
    async def odds(self, interaction: discord.Interaction, dice: str) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return await self.bot.rallies.odds(place, actor, dice)

        await run_command(self.bot, interaction, call)


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(TurnCog(bot))
