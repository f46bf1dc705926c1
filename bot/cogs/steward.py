"""`/steward …`: a league's organisers correct what was done, thin.

`withdraw`, `change` (a driver's latest penalty in a round), `lift-dsq` (their disqualification),
`move` (a round's open and close) and `kick` (a driver out of the league), each with a reason
kept in the league log and shown in the league's channel (`bot.services.league.stewarding`,
`bot.services.league.rounds`, `bot.services.league.leagues`). A command of its own rather than more `/league`
subcommands: Discord bounds the size of one command, and `/league` is near it. Who may do it is
checked by the service (Manage Server, or the league's organiser role), as for `/league penalty`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.league import LeagueChoices, RoundNumber, league_choices, league_round
from bot.i18n import t
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot


@app_commands.guild_only()
class StewardCog(LeagueChoices, commands.GroupCog, group_name="steward", group_description=t("discord.cmd.steward")):
    async def _correct(self, interaction: discord.Interaction, action: str, driver: discord.User, number: int,
                       reason: str, seconds: int | None, league: str | None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.stewarding.steward(place, actor, action, driver.id, driver.display_name, number,
                                           reason, seconds, league))

    @app_commands.command(name="withdraw", description=t("discord.cmd.steward_withdraw"))
    @league_round(driver=t("discord.opt.league_driver"), reason=t("discord.opt.reason"))
    async def withdraw(self, interaction: discord.Interaction, driver: discord.User, number: RoundNumber, reason: str,
                       league: str | None = None) -> None:
        await self._correct(interaction, "withdraw", driver, number, reason, None, league)

    @app_commands.command(name="change", description=t("discord.cmd.steward_change"))
    @league_round(driver=t("discord.opt.league_driver"), seconds=t("discord.opt.new_penalty"),
                  reason=t("discord.opt.reason"))
    async def change(self, interaction: discord.Interaction, driver: discord.User, number: RoundNumber,
                     seconds: app_commands.Range[int, 1, 3600], reason: str, league: str | None = None) -> None:
        await self._correct(interaction, "change", driver, number, reason, seconds, league)

    @app_commands.command(name="lift-dsq", description=t("discord.cmd.steward_lift"))
    @league_round(driver=t("discord.opt.league_driver"), reason=t("discord.opt.reason"))
    async def lift(self, interaction: discord.Interaction, driver: discord.User, number: RoundNumber, reason: str,
                   league: str | None = None) -> None:
        await self._correct(interaction, "lift-dsq", driver, number, reason, None, league)

    @app_commands.command(name="move", description=t("discord.cmd.steward_move"))
    @league_round(reason=t("discord.opt.reason"), opens=t("discord.opt.opens"), closes=t("discord.opt.closes"))
    async def move(self, interaction: discord.Interaction, number: RoundNumber, reason: str, opens: str | None = None,
                   closes: str | None = None, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.rounds.round_move(place, actor, number, reason, opens=opens, closes=closes,
                                          league=league))

    @app_commands.command(name="kick", description=t("discord.cmd.steward_kick"))
    @app_commands.describe(driver=t("discord.opt.league_driver"), reason=t("discord.opt.reason"),
                           league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def kick(self, interaction: discord.Interaction, driver: discord.User, reason: str,
                   league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.leagues.kick(place, actor, driver.id, driver.display_name, reason, league))


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(StewardCog(bot))
