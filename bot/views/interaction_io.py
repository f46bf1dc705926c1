"""Answering interactions: defer, call a service, post the reply; every error in one place.

A slash command defers at once (Discord allows 3 s for the first answer; the services touch the
database and render images): publicly when its success is for the channel, privately when it is
private (`/rally status`, `/odds`). A refusal is always private: after a public defer the loading
message is deleted and the refusal sent as an ephemeral followup. A button click is acknowledged
without a loading message (`defer()` on a component), so its followups can be public or private.

`send_error` is the one place an exception becomes what the user sees: it maps the library's
own errors (used outside a guild, out-of-date command...) to catalogue texts and hands everything
to `bot.services.errors.error_reply` (refusal text, or logged + a short generic message).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from functools import partial

import discord
from discord import app_commands

from bot.services.buttons import press
from bot.services.errors import ServiceError, error_reply
from bot.services.reply import Actor, Place, Reply
from bot.views.publish import content_of, file_of, publish

Call = Callable[[Place, Actor], Awaitable[Reply]]


def place_of(interaction: discord.Interaction) -> Place:
    return Place(guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0)


def actor_of(interaction: discord.Interaction) -> Actor:
    """The user; `can_manage` is their Manage Server permission (the services' organiser check)."""
    user = interaction.user
    name = getattr(user, "display_name", None) or user.name
    return Actor(user.id, name, can_manage=bool(interaction.permissions.manage_guild))


def as_rally_error(exc: BaseException) -> BaseException:
    """The library's errors as user texts; anything else unchanged."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, app_commands.NoPrivateMessage):
        return ServiceError("discord.guild_only")
    if isinstance(exc, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        return ServiceError("discord.out_of_date")
    if isinstance(exc, app_commands.TransformerError):
        return ServiceError("discord.bad_option", value=str(exc.value)[:100])
    if isinstance(exc, app_commands.CheckFailure):
        return ServiceError("discord.check_failed")
    return exc


async def send_private(interaction: discord.Interaction, reply: Reply, *, loading: bool) -> None:
    """Only the user sees it. `loading`: a public loading message (public defer) must go first,
    else the first followup would replace it and be public."""
    file = await file_of(reply)
    extra = {"file": file} if file is not None else {}
    if not interaction.response.is_done():
        await interaction.response.send_message(content_of(reply), ephemeral=True, **extra)
        return
    if loading:
        with suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(content_of(reply), ephemeral=True, **extra)


async def send_error(interaction: discord.Interaction, exc: BaseException, *, loading: bool) -> None:
    """THE one place an error becomes an answer (see the module docstring)."""
    await send_private(interaction, error_reply(as_rally_error(exc)), loading=loading)


async def run_command(interaction: discord.Interaction, call: Call, *, private: bool = False,
                      played: bool = False) -> None:
    """Defer, run `call(place, actor)`, post the reply. `played`: a turn command of the user
    (their missed-turn count starts again)."""
    await interaction.response.defer(ephemeral=private, thinking=True)
    try:
        reply = await call(place_of(interaction), actor_of(interaction))
    except Exception as exc:  # noqa: BLE001 - errors are answered in one place
        await send_error(interaction, exc, loading=not private)
        return
    await _deliver(interaction, reply, private=private, loading=not private,
                   actor_id=interaction.user.id if played else None)


async def run_click(interaction: discord.Interaction, rally_id: int, version: int, action: str) -> None:
    """A turn button: acknowledge (no loading message), act with the button's version, post."""
    await interaction.response.defer()
    try:
        reply = await press(interaction.client.rallies, place_of(interaction), actor_of(interaction),
                            rally_id, version, action)
    except Exception as exc:  # noqa: BLE001 - errors are answered in one place
        await send_error(interaction, exc, loading=False)
        return
    await _deliver(interaction, reply, private=False, loading=False, actor_id=interaction.user.id)


async def _deliver(interaction: discord.Interaction, reply: Reply, *, private: bool, loading: bool,
                   actor_id: int | None) -> None:
    """Post a reply whose action is already committed. `loading`: a public loading message exists
    (public defer of a slash command; never for a click, whose "original" is the button's
    message). A failure here (Discord down...) is logged and answered generically, without
    touching a message that may already be posted."""
    try:
        if reply.ephemeral or private:
            await send_private(interaction, reply, loading=loading)
            return
        if loading and reply.ping:
            # The first followup after a defer *edits* the loading message, and an edit never
            # notifies a mention (discord/discord-api-docs#5497): remove the loading message so
            # the turn message is a new message and the next driver is really pinged.
            with suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await publish(interaction.client, place_of(interaction), reply, partial(interaction.followup.send, wait=True),
                      actor_id=actor_id)
    except Exception as exc:  # noqa: BLE001
        with suppress(discord.HTTPException):
            await send_error(interaction, exc, loading=False)
