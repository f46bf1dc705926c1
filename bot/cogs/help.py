"""`/help`: what the bot does and every command, one line each, grouped, in the reader's language;
privately, and with no database, so no defer."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import catalogue, language_of, render, t
from bot.services.help_text import help_sections
from bot.views.outgoing import answer_privately
from bot.views.translator import name_key


def command_name(command: str, lang: str) -> str:
    """`rally create` as the reader's Discord shows it (`course créer`): each word localised."""
    words = catalogue(lang)
    return " ".join(words.get(name_key(word), word) for word in command.split())


def help_message(lang: str) -> tuple[str, list[discord.Embed]]:
    """The intro, and one embed per group of commands (Discord's limits: 4,096 characters a
    description, 6,000 in all; a test holds every language under them)."""
    embeds = [discord.Embed(title=render(title, lang), description="\n".join(render(line, lang) for line in lines))
              for title, lines in help_sections(lambda command: command_name(command, lang))]
    return render(t("help.intro"), lang), embeds


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=t("discord.cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        content, embeds = help_message(language_of(interaction.locale))
        await answer_privately(interaction, content, embeds=embeds)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
