"""`/league …`: championships for organisers and drivers, thin.

Each command maps its options to one call of a league service (`bot.services.league.leagues`,
`bot.services.league.rounds` or `bot.services.league.stewarding`, reached as `rallies.championships.leagues`,
`.rounds` or `.stewarding`) through `run_command`, like `/rally`. Who may do what (Manage
Server, or the league's organiser role: the member's roles travel in `Actor.roles`, learnt from
Discord only when the role could decide, `interaction_io.acting`) is checked by the service at
run time: Discord ignores `default_permissions` on subcommands, and an organiser
by role has no Discord permission to show for it. `league` is optional everywhere: the service
takes the league named, else the one of this channel, else the server's only one.

`/league round add|list|cancel` is a nested group (`rounds`, a `Group` class attribute). Corrections
(a penalty withdrawn, a round moved, a driver removed) are `/steward` (`bot/cogs/steward.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.autocomplete import LOOKUP_TIMEOUT_S, MAX_CHOICES, game_choices, stage_choices
from bot.i18n import t
from bot.services.league.leagues import Member
from bot.services.league.timing import zone_names
from bot.store.league_names import name_key
from bot.store.leagues import leagues_of_guild_tx
from bot.views.host import Host
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot
    from bot.services.league.championships import Championships

OFFICIAL = "official"
RoundNumber = app_commands.Range[int, 1, 10_000]
T = TypeVar("T")
Day = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


class TextChannelOption(app_commands.Transformer):
    """A text channel option whose value is the resolved channel as Discord sent it (only its id
    is used), so it works without the guild's channels in the cache."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text]

    async def transform(self, interaction: discord.Interaction, value: object, /) -> object:
        return value


def timezone_suggestions(current: str) -> list[app_commands.Choice[str]]:
    """The zones a league may have (`zone_names`) containing what is typed (`paris`, `new_y`,
    `europe/`), those starting with it first."""
    wanted = current.strip().lower().replace(" ", "_")
    zones = zone_names()
    starts = [z for z in zones if z.lower().startswith(wanted)]
    inside = [z for z in zones if wanted in z.lower() and not z.lower().startswith(wanted)]
    return [app_commands.Choice(name=z, value=z) for z in (starts + inside)[:MAX_CHOICES]]


async def timezone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return timezone_suggestions(current)


async def round_stage_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The stage names of `/rally create`, and `official` (the week's official stage)."""
    stages = await stage_choices(interaction, current)
    if OFFICIAL.startswith(current.strip().lower()):
        stages = [app_commands.Choice(name=OFFICIAL, value=OFFICIAL), *stages]
    return stages[:MAX_CHOICES]


def member(user: discord.User | discord.Member | None) -> Member | None:
    """A `user:` option as the services take it: its id, its name, whether it is a bot."""
    return None if user is None else Member(user.id, user.display_name, bool(user.bot))


class LeagueChoices(commands.Cog):
    """What every championship cog (`/league`, `/steward`, `/run`) shares: the bot it serves, the
    league services (`champs`) and the `league` option's suggestions
    (`@app_commands.autocomplete(league=league_choices)`)."""

    bot: Host

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @property
    def champs(self) -> Championships:
        return self.bot.rallies.championships

    async def league_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """This server's leagues whose name holds what is typed, whatever its case (`name_key`; one
        short read; none if it is slow)."""
        guild_id = interaction.guild_id or 0
        try:
            leagues = await asyncio.wait_for(
                self.bot.store.db.read(lambda tx: leagues_of_guild_tx(tx, guild_id)), LOOKUP_TIMEOUT_S)
        except Exception:  # autocomplete never fails loudly: no suggestion instead
            return []
        wanted = name_key(current.strip())
        return [app_commands.Choice(name=lg.name, value=lg.name) for lg in leagues
                if wanted in name_key(lg.name)][:MAX_CHOICES]


league_choices = LeagueChoices.league_choices  # called by discord.py with the cog the command is bound to


def league_round(**describe: str) -> Callable[[T], T]:
    """The options of a command on a round of a league: `number` shown as `round`, `league`
    autocompleted, both described (unless `describe` says otherwise) with the other options."""

    def options(command: T) -> T:
        command = app_commands.autocomplete(league=league_choices)(command)
        command = app_commands.rename(number="round")(command)
        return app_commands.describe(**{"number": t("discord.opt.round"), "league": t("discord.opt.league"),
                                        **describe})(command)

    return options


@app_commands.guild_only()
class LeagueCog(LeagueChoices, commands.GroupCog, group_name="league", group_description=t("discord.cmd.league")):
    rounds = app_commands.Group(name="round", description=t("discord.cmd.league_round"))

    @app_commands.command(name="create", description=t("discord.cmd.league_create"))
    @app_commands.describe(name=t("discord.opt.league_name"), timezone=t("discord.opt.timezone"),
                           channel=t("discord.opt.league_channel"), points=t("discord.opt.points"),
                           drop=t("discord.opt.drop"), ruleset=t("discord.opt.ruleset"),
                           modules=t("discord.opt.modules"), dice=t("discord.opt.league_dice"),
                           language=t("discord.opt.language"), game=t("discord.opt.league_game"))
    @app_commands.autocomplete(timezone=timezone_choices, game=game_choices)
    async def create(self, interaction: discord.Interaction, name: str, timezone: str,
                     channel: app_commands.Transform[app_commands.AppCommandChannel, TextChannelOption] | None = None,
                     points: str | None = None, drop: app_commands.Range[int, 1, 52] | None = None,
                     ruleset: str | None = None, modules: str = "",
                     dice: Literal["personal", "shared"] = "personal",
                     language: Literal["en", "fr", "de"] | None = None, game: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.leagues.create(place, actor, name, timezone,
                                       channel_id=channel.id if channel is not None else None,
                                       points=points, drop=drop, ruleset=ruleset, modules=modules,
                                       dice=dice, language=language, game=game))

    @app_commands.command(name="join", description=t("discord.cmd.league_join"))
    @app_commands.describe(league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def join(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.champs.leagues.join(place, actor, league))

    @app_commands.command(name="leave", description=t("discord.cmd.league_leave"))
    @app_commands.describe(league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def leave(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.champs.leagues.leave(place, actor, league))

    @app_commands.command(name="organisers", description=t("discord.cmd.league_organisers"))
    @app_commands.describe(role=t("discord.opt.organiser_role"), add=t("discord.opt.organiser_add"),
                           remove=t("discord.opt.organiser_remove"), league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def organisers(self, interaction: discord.Interaction, role: discord.Role | None = None,
                         add: discord.User | None = None, remove: discord.User | None = None,
                         league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.leagues.organisers(place, actor, role.id if role is not None else None, league,
                                           add=member(add), remove=member(remove)))

    @app_commands.command(name="web", description=t("discord.cmd.league_web"))
    @app_commands.describe(visibility=t("discord.opt.web_visibility"), league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def web(self, interaction: discord.Interaction, visibility: Literal["public", "private"],
                  league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.leagues.web(place, actor, visibility, league))

    @app_commands.command(name="settings", description=t("discord.cmd.league_settings"))
    @app_commands.describe(world_name=t("discord.opt.world_name"))
    async def settings(self, interaction: discord.Interaction, world_name: Literal["on", "off"]) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.leagues.world_name(place, actor, world_name))

    @rounds.command(name="add", description=t("discord.cmd.league_round_add"))
    @app_commands.describe(stage=t("discord.opt.round_stage"), opens=t("discord.opt.opens"),
                           closes=t("discord.opt.closes"), day=t("discord.opt.day"), hour=t("discord.opt.hour"),
                           rounds=t("discord.opt.rounds"), power_stage=t("discord.opt.power_stage"),
                           assistance=t("discord.opt.assistance"), league=t("discord.opt.league"))
    @app_commands.autocomplete(stage=round_stage_choices, league=league_choices)
    async def round_add(self, interaction: discord.Interaction, stage: str, opens: str | None = None,
                        closes: str | None = None, day: Day | None = None,
                        hour: app_commands.Range[int, 0, 23] | None = None,
                        rounds: app_commands.Range[int, 1, 26] = 1, power_stage: bool = False,
                        assistance: str = "all", league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.rounds.round_add(place, actor, stage, opens=opens, closes=closes, day=day,
                                         hour=hour, rounds=rounds, power_stage=power_stage,
                                         assistance=assistance, league=league))

    @rounds.command(name="list", description=t("discord.cmd.league_round_list"))
    @app_commands.describe(league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def round_list(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.rounds.round_list(place, actor, league))

    @rounds.command(name="cancel", description=t("discord.cmd.league_round_cancel"))
    @league_round(reason=t("discord.opt.reason"))
    async def round_cancel(self, interaction: discord.Interaction, number: RoundNumber, reason: str,
                           league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.rounds.round_cancel(place, actor, number, reason, league))

    @app_commands.command(name="penalty", description=t("discord.cmd.league_penalty"))
    @league_round(driver=t("discord.opt.league_driver"), seconds=t("discord.opt.penalty_seconds"),
                  reason=t("discord.opt.reason"), number=t("discord.opt.penalty_round"))
    async def penalty(self, interaction: discord.Interaction, driver: discord.User,
                      seconds: app_commands.Range[int, 1, 3600], reason: str, number: RoundNumber | None = None,
                      league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.stewarding.penalty(place, actor, driver.id, driver.display_name, seconds, reason,
                                           round_number=number, league=league))

    @app_commands.command(name="disqualify", description=t("discord.cmd.league_disqualify"))
    @league_round(driver=t("discord.opt.league_driver"), reason=t("discord.opt.reason"))
    async def disqualify(self, interaction: discord.Interaction, driver: discord.User, number: RoundNumber,
                         reason: str, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.stewarding.disqualify(place, actor, driver.id, driver.display_name, number, reason,
                                              league=league))

    @app_commands.command(name="standings", description=t("discord.cmd.league_standings"))
    @app_commands.describe(league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def standings(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.champs.standings(place, actor, league))

    @app_commands.command(name="results", description=t("discord.cmd.league_results"))
    @league_round()
    async def results(self, interaction: discord.Interaction, number: RoundNumber,
                      league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.champs.results(place, actor, number, league))

    @app_commands.command(name="export", description=t("discord.cmd.league_export"))
    @app_commands.describe(league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def export(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor: self.champs.exports.export(place, actor, league))

    @app_commands.command(name="calendar", description=t("discord.cmd.league_calendar"))
    @app_commands.describe(league=t("discord.opt.league"))
    @app_commands.autocomplete(league=league_choices)
    async def calendar(self, interaction: discord.Interaction, league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.exports.calendar(place, actor, league))


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(LeagueCog(bot))
