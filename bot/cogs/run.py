"""`/run start|replay` (a driver's championship run) and `/verify` (a result card), thin.

`/run start` is the one command that makes something on Discord before its service call
commits, because the run is played in a private thread of its own:
1. `champs.check_run` refuses early what the start would refuse (round not open, not a member,
   already ran), so no thread is made for nothing;
2. the bot's permissions are checked where the thread will be (when that is this channel: else
   Discord's own refusal is mapped to the same message), then the private thread is made in the
   league's channel and the driver added (`bot/views/threads.py`);
3. `champs.start_run` checks everything again under the round's lock and commits the run with its
   first turn prompt, owed to the thread. If it refuses (a second `/run start` raced the first),
   the new thread is deleted and the refusal shown (`start_in_thread`, shared with `/scratch run`).
The driver is told privately where the thread is; the prompt itself is delivered in the thread.

`/verify file:` reads an attached card or cards file (at most 8 MiB, checked before it is
downloaded); the service checks that its seed hash is one this bot published and its round is
that round's, then replays it with the engine alone (`bot/services/world/verify.py`, the replays in
a worker thread: a round's cards may be many); the report is private.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.league import LeagueChoices, RoundNumber, league_round
from bot.cogs.permissions import require_thread_permissions
from bot.engine.core.errors import RallyError
from bot.i18n import t
from bot.services.errors import ServiceError
from bot.services.reply import Actor, Place, Reply
from bot.views.interaction_io import run_command
from bot.views.outgoing import MAX_CONTENT
from bot.views.server_names import server_name
from bot.views.threads import delete_thread, open_private_thread

if TYPE_CHECKING:
    from bot.client import RallyBot

MAX_CARDS_BYTES = 8 * 1024 * 1024
#: `ghost:` of a run's start: race the ghost of your personal best or of a closed round's leader
Ghost = Literal["best", "leader", "off"]


def thread_ready(reply: Reply, thread: discord.Thread) -> Reply:
    """The private answer to a run that started: where its thread is. The run's posts (its first
    turn prompt) were committed with it and go to the thread through the outbox."""
    return Reply([t("run.thread_ready", thread=thread.mention)], ephemeral=True, outbox=reply.outbox)


async def start_in_thread(interaction: discord.Interaction, channel_id: int, name: str,
                          start: Callable[[int], Awaitable[Reply]]) -> Reply:
    """Make the private thread in `channel_id`, then `start(thread_id)`. A refusal (ServiceError:
    nothing was written) deletes the thread again, best effort, and is let through; any other
    failure leaves the thread, since the run may have been saved in it."""
    thread = await open_private_thread(interaction, channel_id, name)
    try:
        reply = await start(thread.id)
    except RallyError:
        await delete_thread(thread)
        raise
    return thread_ready(reply, thread)


@app_commands.guild_only()
class RunCog(LeagueChoices, commands.GroupCog, group_name="run", group_description=t("discord.cmd.run")):
    @app_commands.command(name="start", description=t("discord.cmd.run_start"))
    @league_round(number=t("discord.opt.run_round"), ghost=t("discord.opt.ghost"))
    async def start(self, interaction: discord.Interaction, league: str | None = None,
                    number: RoundNumber | None = None, ghost: Ghost | None = None) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            rnd, found = await self.champs.check_run(place, actor, league, number, ghost)
            if found.channel_id == place.channel_id:
                require_thread_permissions(interaction.app_permissions, found.channel_id)
            name = t("discord.run_thread_name", name=actor.name, league=found.name, number=rnd.number)
            guild_name = await server_name(self.bot, interaction)

            async def begin(thread_id: int) -> Reply:
                return await self.champs.start_run(place, actor, rnd, found, thread_id=thread_id,
                                                   guild_name=guild_name, ghost=ghost)

            return await start_in_thread(interaction, found.channel_id, name, begin)

        await run_command(self.bot, interaction, call)

    @app_commands.command(name="replay", description=t("discord.cmd.run_replay"))
    @league_round(driver=t("discord.opt.replay_driver"), number=t("discord.opt.replay_round"),
                  turn=t("discord.opt.replay_turn"))
    async def replay(self, interaction: discord.Interaction, driver: discord.User,
                     number: RoundNumber | None = None, turn: app_commands.Range[int, 1, 10_000] | None = None,
                     league: str | None = None) -> None:
        await run_command(self.bot, interaction, lambda place, actor:
            self.champs.replay(place, actor, driver.id, league=league, round_number=number, turn=turn))


class VerifyCog(commands.Cog):
    def __init__(self, bot: RallyBot) -> None:
        self.bot = bot

    @app_commands.command(name="verify", description=t("discord.cmd.verify"))
    @app_commands.describe(file=t("discord.opt.verify_file"))
    @app_commands.guild_only()
    async def verify(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        async def call(place: Place, actor: Actor) -> Reply:
            return Reply(clip(await verify_attachment(self.bot, file)), ephemeral=True)

        await run_command(self.bot, interaction, call)


async def verify_attachment(bot: RallyBot, file: discord.Attachment) -> list[str]:
    """The verification report of an attached card or cards file. Its size is checked before it
    is downloaded; a file that is not UTF-8 JSON is a report that says so, never an error."""
    if file.size > MAX_CARDS_BYTES:
        raise ServiceError("discord.verify_too_large", name=file.filename[:100],
                           size=f"{file.size / 1024 / 1024:.1f}", limit=MAX_CARDS_BYTES // (1024 * 1024))
    data = await file.read()
    return await bot.rallies.championships.verify(data)  # anchored to the seed hashes this bot published


def clip(lines: list[str]) -> list[str]:
    """Lines that fit one Discord message; the rest is summed up by a last line."""
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        more = t("discord.verify_more", n=len(lines) - i)
        if used + len(line) + 1 + len(more) + 1 > MAX_CONTENT:
            return kept + [more]
        kept.append(line)
        used += len(line) + 1
    return kept


async def setup(bot: RallyBot) -> None:
    await bot.add_cog(RunCog(bot))
    await bot.add_cog(VerifyCog(bot))
