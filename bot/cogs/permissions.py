"""What the bot needs in a rally's channel, and the refusal naming exactly what is missing.

Checked when a rally is created (from the interaction's `app_permissions`, the bot's own
permissions in that channel), so a rally never starts where its board cannot be posted. The same
list gives the invite link's permissions integer in the README.
"""

from __future__ import annotations

import discord

from bot.services.errors import ServiceError

NEEDED = (
    "view_channel",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "embed_links",
    "attach_files",
    "read_message_history",
)


def needed_permissions() -> discord.Permissions:
    """The invite's permissions (its integer goes in the invite link)."""
    return discord.Permissions(**{name: True for name in NEEDED})


def permission_name(name: str) -> str:
    return name.replace("_", " ").title()


def missing_permissions(have: discord.Permissions) -> list[str]:
    return [permission_name(name) for name in NEEDED if not getattr(have, name)]


def require_channel_permissions(have: discord.Permissions) -> None:
    """Refuse (ServiceError, shown privately) when the bot lacks a permission here."""
    missing = missing_permissions(have)
    if missing:
        raise ServiceError("discord.missing_permissions", missing=", ".join(missing))
