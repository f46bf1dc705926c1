"""How an owed post looks on Discord: its text, its one ping, its deadline, its buttons.

Pure formatting shared by the outbox sender (`bot/views/sender.py`): the next driver is pinged
with `allowed_mentions` limited to that user, the turn message shows when the turn ends as a
Discord timestamp (each reader sees their own time zone), and a post that waited long for
Discord says so.
"""

from __future__ import annotations

import io
from datetime import datetime

import discord

from bot.i18n import localize_commands, render, t
from bot.services.alt_text import describe
from bot.services.delivery import Outgoing
from bot.services.images import image_name


def show_time(moment: datetime) -> str:
    """A time as Discord timestamps: local date and time for each reader, and 'in 5 hours'."""
    return f"{discord.utils.format_dt(moment, 'f')} ({discord.utils.format_dt(moment, 'R')})"


def mentions_for(ping: tuple[int, ...]) -> discord.AllowedMentions:
    """Only the pinged driver may be notified: never @everyone, roles or anyone else."""
    if not ping:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(users=[discord.Object(id=u) for u in ping], everyone=False, roles=False,
                                   replied_user=False)


def content_of(out: Outgoing) -> str:
    """The message text in the post's language (`out.lang`): a late note, the lines, the turn's end,
    the ping; whole, however long (the sender splits it into messages: bot/views/outgoing.py)."""
    lang = out.lang
    lines = [t("outbox.late", lang, when=show_time(out.late_since))] if out.late_since is not None else []
    lines += [localize_commands(render(line, lang), lang) for line in out.lines]
    if out.due is not None:
        lines.append(t("discord.turn_ends", lang, when=show_time(out.due)))
    if out.ping:
        lines.append(" ".join(f"<@{u}>" for u in out.ping))
    return "\n".join(lines)


def file_of(out: Outgoing, image: bytes | None) -> discord.File | None:
    """The post's drawn picture as an attachment, described in the post's language (its alt text,
    read to screen-reader users: bot.services.alt_text)."""
    if image is None or out.image is None:
        return None
    return discord.File(io.BytesIO(image), filename=image_name(out.image), description=describe(out.image, out.lang))
