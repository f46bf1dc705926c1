"""`/rules [game] [ruleset]`: a game's rules summary, privately, in the reader's language, thin
(`bot/services/rules.py`). No database, so no defer: the answer and, when the text is longer
than one Discord message, its follow-ups."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.autocomplete import game_choices, ruleset_choices
from bot.i18n import render, t
from bot.services.rules import rules_reply
from bot.views.interaction_io import reader_language, send_error
from bot.views.outgoing import answer_privately


class RulesCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description=t("discord.cmd.rules"))
    @app_commands.describe(game=t("discord.opt.rules_game"), ruleset=t("discord.opt.rules_ruleset"))
    @app_commands.autocomplete(game=game_choices, ruleset=ruleset_choices)
    async def rules(self, interaction: discord.Interaction, game: str | None = None,
                    ruleset: str | None = None) -> None:
        lang = reader_language(interaction)
        try:
            reply = rules_reply(game, ruleset)
        except Exception as exc:  # an unknown game or ruleset: answered privately, by name
            await send_error(interaction, exc)
            return
        await answer_privately(interaction, "\n".join(render(line, lang) for line in reply.lines))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RulesCog(bot))
