"""Autocomplete for dice, games, stages and rulesets: answered from memory, at most 25 choices.

Discord gives an autocomplete answer 3 s and shows nothing if it is late, so the dice come from
the bot's `OptionsCache` (the last turn prompt posted in each channel, kept by the outbox
sender); only after a restart, before the channel's next turn message, does a lookup go to
`service.options` (one short database read, bounded by a timeout). Stage and ruleset names are
read once per game: the game a command's `game` option names (the default game's before). The
dice are a cog's method (`DiceChoices`): discord.py calls it with the cog, whose `bot` it reads,
never `interaction.client`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import lru_cache

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.i18n import render
from bot.services.reply import HAND
from bot.views.host import Host
from bot.views.interaction_io import actor_of, place_of, reader_language

MAX_CHOICES = 25
LOOKUP_TIMEOUT_S = 1.0
DICE = ("1", "2", "3", "4", "5", "W")


def dice_label(option: str) -> str:
    return " ".join("white" if w == "W" else w for w in option.split())


def dice_suggestions(options: list[str] | tuple[str, ...], current: str,
                     shown: Callable[[str], str] = dice_label) -> list[app_commands.Choice[str]]:
    """The legal next dice matching what is typed (the label, or its words as `shown` names them in
    the reader's language: `4 dérapage`); when none matches (a plan of several dice, `3 white 4`,
    which the list cannot hold) what is typed, so it can be sent as it is."""
    typed = " ".join(current.split())
    wanted = typed.lower()
    dice = [o for o in options if o.split()[0] in DICE]
    hits = [o for o in dice if o.lower().startswith(wanted) or shown(o).lower().startswith(wanted)] if wanted \
        else dice
    choices = [app_commands.Choice(name=shown(o)[:100], value=o) for o in hits]
    if typed and not hits:  # e.g. `3 white 4`: offer it as typed; the service checks it
        choices.append(app_commands.Choice(name=typed[:100], value=typed[:100]))
    return choices[:MAX_CHOICES]


def action_suggestions(options: list[str] | tuple[str, ...], current: str,
                       shown: Callable[[str], str] = str) -> list[app_commands.Choice[str]]:
    """`/act`: the legal actions whose label (or its words as `shown` names them in the reader's
    language: `jouer v1`) starts with (then contains) what is typed; when none matches, what is
    typed, so it can be sent as it is (the game's parser answers it)."""
    typed = " ".join(current.split())
    wanted = typed.lower()

    def texts(o: str) -> tuple[str, str]:
        return o.lower(), shown(o).lower()

    hits = [o for o in options if any(x.startswith(wanted) for x in texts(o))] + \
        [o for o in options if any(wanted in x for x in texts(o)) and not any(x.startswith(wanted) for x in texts(o))]
    choices = [app_commands.Choice(name=shown(o)[:100], value=o[:100]) for o in hits]
    if typed and not hits:
        choices.append(app_commands.Choice(name=typed[:100], value=typed[:100]))
    return choices[:MAX_CHOICES]


class DiceChoices(commands.Cog):
    """A cog with `/roll`'s or `/odds`'s dice (`dice_choices`) and `/act`'s actions
    (`action_choices`), both from what the asking seat may play now."""

    bot: Host

    async def legal_labels(self, interaction: discord.Interaction) -> tuple[str, ...] | list[str]:
        """The asker's legal actions: the channel's last turn prompt when it is theirs (memory),
        else one bounded lookup (after a restart, or a seat not to act)."""
        channel_id = interaction.channel_id or 0
        if self.bot.options_cache.known(channel_id):
            prompt = self.bot.options_cache.get(channel_id)
            if prompt is None or HAND not in prompt.options:  # a private prompt's one button is no move
                return prompt.options if prompt is not None and prompt.driver_id == interaction.user.id else ()
        try:
            return await asyncio.wait_for(self.bot.rallies.options(place_of(interaction), actor_of(interaction)),
                                          LOOKUP_TIMEOUT_S)
        except Exception:  # autocomplete never fails loudly: no suggestion instead
            return []

    async def dice_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """A verb's autocompleted option: classic's and DIRT's dice (`/roll`, `/odds`), or, for a
        verb whose text starts with words of its own (`/play` → `play {cards}`), the legal actions
        of that verb with those words left out (`g1 g2 shortcut`)."""
        labels = await self.legal_labels(interaction)
        command = interaction.command
        verb = games.verb(command.name) if command is not None else None
        prefix = verb.template.split("{", 1)[0] if verb is not None else ""
        shown = self.reader_words(interaction)
        if prefix.strip():
            return action_suggestions([o[len(prefix):] for o in labels if o.startswith(prefix)], current,
                                      shown or str)
        return dice_suggestions(labels, current, shown or dice_label)

    async def action_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return action_suggestions(await self.legal_labels(interaction), current, self.reader_words(interaction) or str)

    def reader_words(self, interaction: discord.Interaction) -> Callable[[str], str] | None:
        """How a label reads in the asker's language (`4 dérapage`, `jouer v1`), by the game of the
        channel's last turn prompt; None when the labels' own English words serve (an English
        reader), or the bot does not know that game yet (a restart)."""
        prompt = self.bot.options_cache.get(interaction.channel_id or 0)
        lang = reader_language(interaction)
        if prompt is None or lang == "en" or prompt.game not in games.ids():
            return None
        game = games.get(prompt.game)
        return lambda label: render(game.commands.typed_words(label), lang)


dice_choices = DiceChoices.dice_choices  # called by discord.py with the cog the command is bound to


@lru_cache(maxsize=8)
def _stages(game: str | None) -> tuple[str, ...]:
    return tuple(games.get(game).library.stages.names())


@lru_cache(maxsize=8)
def _rulesets(game: str | None) -> tuple[str, ...]:
    return tuple(games.get(game).library.rulesets())


def _game_typed(interaction: discord.Interaction) -> str | None:
    """The game the command's `game` option names so far (None: the default, or one the bot lacks)."""
    typed = getattr(interaction.namespace, "game", None)
    return typed if isinstance(typed, str) and typed in games.ids() else None


def name_suggestions(names: tuple[str, ...], current: str) -> list[app_commands.Choice[str]]:
    wanted = current.strip().lower()
    hits = [n for n in names if n.startswith(wanted)] + [n for n in names if wanted in n and not n.startswith(wanted)]
    return [app_commands.Choice(name=n, value=n) for n in hits[:MAX_CHOICES]]


async def stage_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Stage names of the game chosen (the default game's until one is); in a course (`a, b, c`)
    the last name is completed after the ones typed."""
    return course_suggestions(_stages(_game_typed(interaction)), current)


def course_suggestions(stages: tuple[str, ...], current: str) -> list[app_commands.Choice[str]]:
    head, sep, last = current.rpartition(",")
    if not sep:
        return name_suggestions(stages, current)
    typed = [p.strip() for p in head.split(",") if p.strip()]
    prefix = ", ".join(typed) + ", "
    return [app_commands.Choice(name=(prefix + c.value)[:100], value=(prefix + c.value)[:100])
            for c in name_suggestions(stages, last.strip())]


async def ruleset_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return name_suggestions(_rulesets(_game_typed(interaction)), current)


async def game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The games of the registry, by id."""
    return name_suggestions(games.ids(), current)


async def solo_game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The games with solo runs (each has a world scratch), by id."""
    return name_suggestions(tuple(g.id for g in games.games() if g.library.solo_runs), current)
