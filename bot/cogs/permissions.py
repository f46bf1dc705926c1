"""What the bot needs in a rally's channel, and the refusal naming exactly what is missing.

Checked when a rally is created (from the interaction's `app_permissions`, the bot's own
permissions in that channel), so a rally never starts where its posts cannot go. Only what the
bot uses is asked for: it posts messages with images and buttons and edits its own turn
messages; in a thread it needs Send Messages in Threads (not Send Messages). The invite asks for
the union, so the bot works in both kinds of channel.
"""

from __future__ import annotations

import discord

from bot.services.errors import ServiceError

COMMON = ("view_channel", "embed_links", "attach_files", "read_message_history")
IN_CHANNEL = ("send_messages",)
IN_THREAD = ("send_messages_in_threads",)


def needed_permissions() -> discord.Permissions:
    """The invite's permissions (its integer goes in the invite link): channels and threads."""
    return discord.Permissions(**{name: True for name in (*COMMON, *IN_CHANNEL, *IN_THREAD)})


def needed_in(in_thread: bool) -> tuple[str, ...]:
    return (*COMMON, *(IN_THREAD if in_thread else IN_CHANNEL))


def is_thread(channel: object) -> bool:
    return isinstance(channel, discord.Thread)


def permission_name(name: str) -> str:
    return name.replace("_", " ").title()


def missing_permissions(have: discord.Permissions, in_thread: bool = False) -> list[str]:
    return [permission_name(name) for name in needed_in(in_thread) if not getattr(have, name)]


def require_channel_permissions(have: discord.Permissions, in_thread: bool = False) -> None:
    """Refuse (ServiceError, shown privately) when the bot lacks a permission here."""
    missing = missing_permissions(have, in_thread)
    if missing:
        raise ServiceError("discord.missing_permissions", missing=", ".join(missing))
