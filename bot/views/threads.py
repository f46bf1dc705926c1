"""Private run threads: the bot opens one for a driver's championship run, and adds the driver.

A run (`/run start`, `/scratch run`) is played in a private thread of its own, so nobody else sees
the dice before the round closes and nobody waits for anybody. The thread is made in the league's
channel (or, for the world scratch, where the command was typed) as a private thread nobody but
moderators can invite to; the driver is added at once. Discord's refusals are told apart, so the
cog can name what is missing: a 403 means the bot lacks Create Private Threads (or access) in that
channel, a 404 that the channel is gone; any other failure (a 400, a 429 or a 5xx Discord's client
could not get past) is "try again in a minute". Each is logged with the request and Discord's
answer; nothing was written then.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord

from bot.services.errors import ServiceError
from bot.views.discord_errors import describe

log = logging.getLogger(__name__)

MAX_THREAD_NAME = 100  # Discord's limit for a channel name
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week without a message before Discord hides the thread: a run can take days


async def open_private_thread(interaction: discord.Interaction, channel_id: int, name: str) -> discord.Thread:
    """A new private thread in `channel_id` named `name`, with the interaction's user in it.

    The channel is the interaction's own when it is the one asked for (its payload has it), else
    the cached one, else fetched (`GET /channels/{id}`: the bot asks for no gateway intent, so no
    server's channels are cached). Refusals become `ServiceError`s (shown privately): 403 → the permissions to ask for,
    404 → the channel is gone. If the user cannot be added, the thread is deleted again."""
    channel = await _text_channel(interaction, channel_id)
    thread = await _private_thread(channel, channel_id, name)
    try:
        await thread.add_user(interaction.user)
    except discord.HTTPException:
        await delete_thread(thread)
        raise
    return thread


async def _private_thread(channel: discord.TextChannel, channel_id: int, name: str) -> discord.Thread:
    """The private thread itself (what a run's and a table's threads share)."""
    try:
        return await channel.create_thread(name=name[:MAX_THREAD_NAME], type=discord.ChannelType.private_thread,
                                           invitable=False, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException as exc:
        log.warning("could not open a private thread in channel %s: %s", channel_id,
                    describe(exc, f"POST /channels/{channel_id}/threads"))
        if exc.status == 403:
            raise ServiceError("discord.thread_forbidden", channel=f"<#{channel_id}>") from None
        if exc.status == 404:
            raise ServiceError("discord.thread_channel_gone", channel=f"<#{channel_id}>") from None
        raise ServiceError("discord.thread_failed", channel=f"<#{channel_id}>") from None


async def open_table_thread(client: discord.Client, guild_id: int, channel_id: int, name: str,
                            users: tuple[int, ...]) -> int:
    """A table's private thread (a league round of a table game, opened by the round's job: no
    interaction), with the table's drivers in it; its id (`TableGames.threads`). A driver who
    cannot be added is logged and left out: the table still plays (they can be added by hand)."""
    channel = await _client_text_channel(client, client.get_channel(channel_id), channel_id)
    thread = await _private_thread(channel, channel_id, name)
    for user_id in users:
        try:
            await thread.add_user(discord.Object(id=user_id))
        except discord.HTTPException as exc:
            log.warning("could not add %s to the table thread %s: %s", user_id, thread.id, exc)
    return thread.id


async def delete_thread(thread: discord.Thread) -> None:
    """Best effort: remove a thread the bot made for nothing (its run was refused). A thread that
    cannot be deleted is left, logged; the refusal the user sees is the one that matters."""
    try:
        await thread.delete()
    except discord.HTTPException as exc:
        log.info("could not delete the unused thread %s: %s", thread.id, exc)


async def _text_channel(interaction: discord.Interaction, channel_id: int) -> discord.TextChannel:
    channel: object = interaction.channel if interaction.channel_id == channel_id else None
    return await _client_text_channel(interaction.client, channel or interaction.client.get_channel(channel_id),
                                      channel_id)


async def _client_text_channel(client: discord.Client, known: object, channel_id: int) -> discord.TextChannel:
    """The text channel threads are made in: `known` (from the cache), else fetched; a channel
    the bot cannot see, one that is gone, or one of another kind is refused, naming it."""
    channel = known
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.Forbidden:
            raise ServiceError("discord.thread_forbidden", channel=f"<#{channel_id}>") from None
        except discord.NotFound:
            raise ServiceError("discord.thread_channel_gone", channel=f"<#{channel_id}>") from None
    if not isinstance(channel, discord.TextChannel):
        raise ServiceError("discord.thread_needs_text_channel", channel=f"<#{channel_id}>")
    return channel
