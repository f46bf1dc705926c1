"""What the bot needs in a rally's channel, and the refusal naming exactly what is missing.

Checked when a rally is created (from the interaction's `app_permissions`, the bot's own
permissions in that channel), so a rally never starts where its posts cannot go. Only what the
bot uses is asked for: it posts messages with images and buttons and edits its own turn
messages; in a thread it needs Send Messages in Threads (not Send Messages). The invite asks for
the union, so the bot works in both kinds of channel.

A championship run is played in a private thread the bot makes for the driver (`/run start` in
the league's channel, `/scratch run` where it is typed): only those commands also ask for Create
Private Threads, and for what the bot needs to post in the thread. The invite does not ask for it:
a server grants it in the channels where leagues are run.
"""

from __future__ import annotations

import discord

from bot.services.errors import ServiceError

COMMON = ("view_channel", "embed_links", "attach_files", "read_message_history")
IN_CHANNEL = ("send_messages",)
IN_THREAD = ("send_messages_in_threads",)
MAKES_THREADS = ("create_private_threads",)


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


def missing_thread_permissions(have: discord.Permissions) -> list[str]:
    """What the bot lacks in a channel to open a private run thread there and post in it."""
    return [permission_name(name) for name in (*COMMON, *IN_THREAD, *MAKES_THREADS) if not getattr(have, name)]


def require_thread_permissions(have: discord.Permissions, channel_id: int) -> None:
    """Refuse (ServiceError, shown privately) before a thread-making command does anything."""
    missing = missing_thread_permissions(have)
    if missing:
        raise ServiceError("discord.missing_thread_permissions", missing=", ".join(missing), channel=f"<#{channel_id}>")
