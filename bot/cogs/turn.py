"""A driver's turn, written once: the shortcuts every game declares (`/roll`, `/stop`, `/line` … of
Rallyman) built from the registry's verb tables (`Game.commands.verbs`), and the generic `/act`.

Each shortcut is an `app_commands.Command` made from its `Verb`: the same name, description,
options (text or yes/no, required or not), choices and autocomplete as the table says, so adding a
game's command means adding a row to its table, nothing here. Every shortcut calls the one service
entry point, `rallies.verb(place, actor, name, options)`, which finds the command in the game of
the channel's rally and checks every value; `/act` sends what the driver typed (or picked among
the legal actions the autocomplete offers) to `rallies.act`. Options reach the services as the
driver would type them (`3 white 4`), so Discord, the buttons and the console share one grammar
(the game's `parse`). A private command (`/odds`) is answered only to the asker.

A command name declared by several games is one command, shaped by the first game's table
(`games.verbs`); the service plays it in the game of the rally where it is typed, by that game's
own table. The autocomplete of a verb's option offers the legal next dice (`dice_suggestions`,
classic's only kind of autocompleted option so far); `/act`'s offers every legal action.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import games
from bot.cogs.autocomplete import DiceChoices
from bot.engine.core.game import ACT, Verb, VerbOption
from bot.i18n import t
from bot.services.reply import Actor, Place, Reply
from bot.views.interaction_io import run_command

if TYPE_CHECKING:
    from bot.client import RallyBot

def _parameter(option: VerbOption) -> inspect.Parameter:
    """The callback parameter discord.py reads an option from: text (`str`) or yes/no (`bool`),
    with a default when it is optional (None: left out; a yes/no: no)."""
    annotation: type = bool if option.kind == "bool" else str
    default: Any = inspect.Parameter.empty if option.required else (False if option.kind == "bool" else None)
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def build_command(verb: Verb, call: Callable[[discord.Interaction, dict[str, object]], Any],
                  autocomplete: Callable[..., Any]) -> app_commands.Command[Any, ..., None]:
    """A guild-only slash command from `verb`: its options described, their choices and their
    autocomplete (`autocomplete`) as the table declares; a call gives `call` the options given."""

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        given = {k: getattr(v, "value", v) for k, v in values.items() if v is not None}  # a Choice: its value
        await call(interaction, given)

    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
         *(_parameter(o) for o in verb.options)])
    callback.__name__ = callback.__qualname__ = verb.name
    func: Any = callback
    if verb.options:
        func = app_commands.describe(**{o.name: t(o.help) for o in verb.options})(func)
    for option in verb.options:
        if option.choices:
            func = app_commands.choices(**{option.name: [app_commands.Choice(name=t(key), value=value)
                                                         for value, key in option.choices]})(func)
        if option.autocomplete:
            func = app_commands.autocomplete(**{option.name: autocomplete})(func)
    func = app_commands.guild_only()(func)
    return app_commands.Command(name=verb.name, description=t(verb.help), callback=func)


class TurnCog(DiceChoices):
    """Holds the turn commands and adds them to the tree when loaded (removes them when unloaded)."""

    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot
        self.tree = bot.tree  # where the commands go when the cog is loaded
        self.turn_commands = {verb.name: build_command(verb, self.shortcut(verb.name), self.dice_choices)
                              for verb in games.verbs()}
        self.turn_commands[ACT.name] = build_command(ACT, self.act, self.action_choices)
        self.turn_commands["hand"] = self.hand_command()

    def shortcut(self, name: str) -> Callable[[discord.Interaction, dict[str, object]], Any]:
        async def call_verb(interaction: discord.Interaction, given: dict[str, object]) -> None:
            await run_command(self.bot, interaction, lambda place, actor:
                self.bot.rallies.verb(place, actor, name, given))

        return call_verb

    async def act(self, interaction: discord.Interaction, given: dict[str, object]) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            typed = given.get("action")
            return await self.bot.rallies.act(place, actor, typed if isinstance(typed, str) else "", option="action")

        await run_command(self.bot, interaction, call)

    def hand_command(self) -> app_commands.Command[Any, ..., None]:
        """`/hand`: the asker's own cards and what they may pick now, privately, with a select
        menu (Road Rally USA); `driver` names whose hand (anyone's but one's own is refused)."""

        @app_commands.describe(driver=t("discord.opt.hand_driver"))
        @app_commands.guild_only()
        async def hand(interaction: discord.Interaction, driver: discord.User | None = None) -> None:
            await run_command(self.bot, interaction, lambda place, actor:
                self.bot.rallies.hand(place, actor, driver.id if driver is not None else None))

        return app_commands.Command(name="hand", description=t("discord.cmd.hand"), callback=hand)

    def command(self, name: str) -> app_commands.Command[Any, ..., None]:
        """The turn command called `name` (tests call its callback as Discord would)."""
        return self.turn_commands[name]

    async def cog_load(self) -> None:
        for command in self.turn_commands.values():
            self.tree.add_command(command)

    async def cog_unload(self) -> None:
        for name in self.turn_commands:
            self.tree.remove_command(name)


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(TurnCog(bot))
