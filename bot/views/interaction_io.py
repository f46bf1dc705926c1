"""Answering interactions: refuse DMs, defer, call a service, answer the user; errors in one place.

A slash command defers privately at once (Discord allows 3 s for the first answer). Its public
effect is not posted from here: the service committed it together with the posts it owes the
channel (the outbox), and the outbox sender delivers them, with retries, whatever happens to
this interaction. So the user's private "thinking…" answer becomes:
- a refusal or a private reply (`/rally status`, `/odds`): that text, with its files if any
  (`/league export`, `/league calendar`), in as many messages as it takes (the first edits the
  "thinking…", the others follow privately: `bot.views.outgoing.answer_privately`);
- a public command that was saved: removed (the channel post is the answer), or a short note
  when the rally's channel cannot be posted in right now;
- an error *after* the commit (Discord failing to edit or delete): never "nothing was changed";
  if anything can still be said, it is that the command was saved and its post will follow.

A button click is acknowledged without a message (`defer()` on a component); a refusal is a
private followup.

When Discord fails a request of the interaction, the log says which (method and route) and why
(bot/views/discord_errors.py). An acknowledgement (`defer`) Discord did not take means nobody
waits for an answer (Discord tells the user the bot did not respond): the command or click is
not run, nothing changes, and the user may simply try again. A private reply whose edit fails is
sent once more as a private followup; a saved command whose answer fails gets the followup that
says it was saved (above); when that fails too, nothing can reach the user there, and the
channel post, owed by the outbox, is the answer.

The command or click runs with the actor's roles not known (the bot keeps no server's roles);
when a league's organiser role could decide, the service says so (`RolesNeeded`, before writing
anything), and `acting` learns them from Discord (bot/views/member_roles.py) and runs it again.

`send_error` is the one place an exception raised before a commit becomes what the user sees:
the library's own errors (used outside a guild, out-of-date command...) map to catalogue texts,
and everything goes through `bot.services.errors.error_reply`.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

import discord
from discord import app_commands

from bot.i18n import language_of, localize_commands, render, t
from bot.services.errors import RolesNeeded, ServiceError, error_reply
from bot.services.inputs import display_name
from bot.services.reply import Actor, Place, Reply
from bot.views.discord_errors import FAILURES, describe
from bot.views.hand_menu import hand_view
from bot.views.host import Host
from bot.views.outgoing import answer_privately

log = logging.getLogger(__name__)

Call = Callable[[Place, Actor], Awaitable[Reply]]


def place_of(interaction: discord.Interaction) -> Place:
    """Where: guild and channel, and the server's preferred language (the default language of
    what is created there: a rally's or a league's posts)."""
    return Place(guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0,
                 lang=language_of(interaction.guild_locale))


def reader_language(interaction: discord.Interaction) -> str:
    """The language of a private answer: the reader's own Discord language."""
    return language_of(interaction.locale)


def shown(interaction: discord.Interaction, lines: list[str]) -> str:
    """Lines (messages) as the reader of this interaction reads them."""
    lang = reader_language(interaction)
    return "\n".join(localize_commands(render(line, lang), lang) for line in lines)


def actor_of(interaction: discord.Interaction) -> Actor:
    """The user; `can_manage` is their Manage Server permission, `can_manage_channels` their Manage
    Channels permission in the channel (both computed by Discord, in the interaction's payload).
    `roles` (a league's organiser role) is None, "not known": the bot keeps no server's roles (no
    gateway intent), so they are learnt only when a role could decide (`acting`)."""
    user = interaction.user
    name = getattr(user, "display_name", None) or user.name
    return Actor(user.id, display_name(name), can_manage=bool(interaction.permissions.manage_guild),
                 roles=None if isinstance(user, discord.Member) else (),
                 can_manage_channels=bool(interaction.permissions.manage_channels))


async def acting(host: Host, interaction: discord.Interaction, call: Call) -> Reply:
    """`call(place, actor)`; when its organiser check needs the actor's roles (`RolesNeeded`:
    raised before anything was written), they are learnt (`host.member_roles`: kept briefly, see
    bot/views/member_roles.py) and the call is made again with them. A failed fetch raises
    `RolesNeeded` itself: the refusal that says the roles could not be checked."""
    place, actor = place_of(interaction), actor_of(interaction)
    try:
        return await call(place, actor)
    except RolesNeeded:
        roles = await host.member_roles.of(interaction.client, place.guild_id, actor.user_id)
    return await call(place, replace(actor, roles=roles))


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


async def send_error(interaction: discord.Interaction, exc: BaseException) -> None:
    """THE one place an error raised before a commit becomes an answer, in the reader's language."""
    try:
        await answer_privately(interaction, shown(interaction, error_reply(as_rally_error(exc)).lines))
    except FAILURES as failure:
        log.warning("could not tell interaction %s why it was refused: %s", interaction.id, describe(failure))


def in_a_guild(interaction: discord.Interaction) -> bool:
    """discord.py does not enforce `guild_only` at run time: a payload from a DM reaches us."""
    return interaction.guild_id is not None


async def run_command(host: Host, interaction: discord.Interaction, call: Call) -> None:
    """Refuse DMs, defer privately, run `call(place, actor)`, answer (see the module docstring);
    `host` is the bot whose outbox sender is woken once the command's posts are saved."""
    if not in_a_guild(interaction):
        await send_error(interaction, ServiceError("discord.guild_only"))
        return
    if not await acknowledged(interaction, ephemeral=True, thinking=True):
        return
    try:
        reply = await acting(host, interaction, call)
    except Exception as exc:  # errors are answered in one place
        await send_error(interaction, exc)
        return
    await _answer(host, interaction, reply)


async def run_click(host: Host, interaction: discord.Interaction, rally_id: int, version: int, action: str) -> None:
    """A turn button of `host`'s: acknowledge (no message), act with the button's version; posts
    go out through the outbox like any command's."""
    if not in_a_guild(interaction):
        await send_error(interaction, ServiceError("discord.guild_only"))
        return
    if not await acknowledged(interaction):
        return
    try:
        reply = await acting(host, interaction, lambda place, actor: host.rallies.press(place, actor, rally_id,
                                                                                       version, action))
    except Exception as exc:  # errors are answered in one place
        await send_error(interaction, exc)
        return
    if reply.ephemeral:  # the hand button: the clicker's own hand, for them alone
        picks = private_view(host, interaction, reply)
        try:
            await answer_privately(interaction, shown(interaction, reply.lines), view=picks)
        except FAILURES as exc:
            log.warning("could not answer the click of interaction %s: %s", interaction.id, describe(exc))
        return
    if reply.paused:
        try:
            await answer_privately(interaction, t("rally.paused_note", reader_language(interaction)))
        except FAILURES as exc:
            log.warning("could not answer the click of interaction %s: %s", interaction.id, describe(exc))
    host.sender.wake()


async def acknowledged(interaction: discord.Interaction, **defer: bool) -> bool:
    """`defer(**defer)`; False (logged) when Discord did not take it: see the module docstring."""
    try:
        await interaction.response.defer(**defer)
    except FAILURES as exc:
        log.warning("could not acknowledge interaction %s, so it is not run: %s", interaction.id,
                    describe(exc, "POST /interactions/{id}/{token}/callback"))
        return False
    return True


def private_view(host: Host, interaction: discord.Interaction, reply: Reply) -> discord.ui.View | None:
    """The select menu of a private reply that offers picks (`/hand`), in the reader's language."""
    if reply.turn is None or not reply.turn.options:
        return None
    return hand_view(reply.turn.rally_id, reply.turn.version, reply.turn.options, reader_language(interaction),
                     reply.turn.game, menu=host.pick_menu)


async def _answer(host: Host, interaction: discord.Interaction, reply: Reply) -> None:
    """Answer a command whose service call returned: a private reply, or (after a commit) the
    removal of the "thinking…" answer, since the channel post is the answer."""
    try:
        if reply.ephemeral or not reply.outbox:
            text = shown(interaction, reply.lines)
            picks = private_view(host, interaction, reply) if reply.ephemeral else None
            if picks is not None:
                await answer_privately(interaction, text, view=picks)
            elif reply.files:
                await answer_privately(interaction, text, files=[
                    discord.File(io.BytesIO(data), filename=name, description=reply.alt.get(name))
                    for name, data in reply.files])
            else:
                await answer_privately(interaction, text)
            return
        host.sender.wake()
        if reply.paused:
            await answer_privately(interaction, t("rally.paused_note", reader_language(interaction)))
        else:
            await interaction.delete_original_response()
    except Exception as exc:  # an HTTP error, a time-out, a lost connection: the change is saved anyway
        log.warning("could not answer interaction %s: %s", interaction.id, describe(exc))
        # saved: say so if Discord lets us say anything at all; a private reply: once more, as a followup
        again = t("error.after_commit", reader_language(interaction)) if reply.outbox \
            else shown(interaction, reply.lines)
        try:
            await answer_privately(interaction, again, followup=True)
        except Exception as failure:
            log.warning("could not answer interaction %s: %s", interaction.id, describe(failure))
