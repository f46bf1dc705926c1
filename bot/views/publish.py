"""Posting a service `Reply` in a channel: text, board image, turn buttons, one ping.

Used for every public reply (a command's followup, a button click's followup, a scheduler
notice), so all three behave the same: the next driver is pinged with `allowed_mentions` limited
to that user, the turn message gets buttons and the deadline as a Discord timestamp, the turn's
deadline jobs follow the new version, and the previous turn message loses its buttons.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import discord

from bot.i18n import t
from bot.services.deadlines import Notice
from bot.services.reply import Place, Reply
from bot.views.turn_buttons import turn_view

log = logging.getLogger(__name__)

MAX_CONTENT = 2000  # Discord's limit for a message's text
Send = Callable[..., Awaitable[Any]]


def show_time(moment: datetime) -> str:
    """A deadline as Discord timestamps: local date and time for each reader, and 'in 5 hours'."""
    return f"{discord.utils.format_dt(moment, 'f')} ({discord.utils.format_dt(moment, 'R')})"


def mentions_for(ping: tuple[int, ...]) -> discord.AllowedMentions:
    """Only the pinged driver may be notified: never @everyone, roles or anyone else."""
    if not ping:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(users=[discord.Object(id=u) for u in ping], everyone=False, roles=False,
                                   replied_user=False)


def content_of(reply: Reply, due: datetime | None = None) -> str:
    lines = list(reply.lines)
    if due is not None:
        lines.append(t("discord.turn_ends", when=show_time(due)))
    if reply.ping:
        lines.append(" ".join(f"<@{u}>" for u in reply.ping))
    text = "\n".join(lines) or "\u200b"
    if len(text) > MAX_CONTENT:
        text = text[: MAX_CONTENT - 1] + "…"
    return text


async def file_of(reply: Reply) -> discord.File | None:
    """The reply's image as an attachment, drawn now if the service left it to draw
    (`Reply.resolve_image`, in the services' render thread). A drawing that fails is logged and
    the text goes out without the picture: the action is already committed."""
    try:
        image = await reply.resolve_image()
    except Exception:  # noqa: BLE001
        log.exception("could not draw %s", reply.image_name)
        return None
    return discord.File(io.BytesIO(image), filename=reply.image_name) if image is not None else None


async def publish(bot, place: Place, reply: Reply, send: Send, actor_id: int | None = None) -> Any:
    """Send a public reply with `send(**kwargs)` (a followup or `channel.send`); returns the message."""
    due = await bot.deadlines.track(reply, actor_id) if reply.turn is not None else None
    kwargs: dict[str, Any] = {"content": content_of(reply, due), "allowed_mentions": mentions_for(reply.ping)}
    file = await file_of(reply)
    if file is not None:
        kwargs["file"] = file
    if reply.turn is not None and reply.turn.options:
        kwargs["view"] = turn_view(reply.turn.rally_id, reply.turn.version, reply.turn.options)
    message = await send(**kwargs)
    if reply.turn is not None:
        bot.options_cache.remember(place.channel_id, reply.turn)
    else:  # a reminder, a lobby message, the results...: let autocomplete ask the service
        bot.options_cache.forget(place.channel_id)
    old = None
    if reply.turn is not None and message is not None:
        old = await bot.turn_messages.replace(reply.turn.rally_id, place.channel_id, message.id)
    elif reply.turn is None:
        old = await bot.turn_messages.close_channel_turn(place)
    if old is not None:
        await remove_buttons(bot, old.channel_id, old.message_id)
    return message


async def remove_buttons(bot, channel_id: int, message_id: int) -> None:
    """Take the buttons off an old turn message; a deleted message or missing right is no error."""
    try:
        await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
    except discord.HTTPException as exc:
        log.info("could not remove the buttons of message %s: %s", message_id, exc)


async def post_notice(bot, notice: Notice) -> Any:
    """A scheduler notice (reminder, turn ended at the deadline) posted as a normal channel message."""
    channel = bot.get_partial_messageable(notice.channel_id, guild_id=notice.guild_id)
    return await publish(bot, Place(notice.guild_id, notice.channel_id), notice.reply, channel.send)
