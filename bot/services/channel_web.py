"""`/rally web public|private`: show a channel's rallies on the spectators' web page without a
league (a channel the bot was not asked to publish answers 404), or hide them again.

Only a member who may manage the channel (Manage Channels) or the server (Manage Server) chooses:
the page shows every rally played there, to anyone. The choice is one row of `web_channels`
(bot/store/web.py); the rally pages, their replays and the home page's list read it. A refusal
changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.reply import Actor, Place, Reply
from bot.services.work import RallyWork
from bot.store.clock import to_text
from bot.store.web import set_channel_web_tx

WEB_CHOICES = ("public", "private")


def may_publish(actor: Actor) -> bool:
    """Manage Server or Manage Channels: who may publish a channel's rallies."""
    return actor.can_manage or actor.can_manage_channels


class ChannelWeb:
    """The `/rally web` command (`set`)."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime]) -> None:
        self.work = work
        self.clock = clock

    async def set(self, place: Place, actor: Actor, choice: object) -> Reply:
        """Publish (`public`) or hide (`private`) the rallies of the channel the command is typed in."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        if not may_publish(actor):
            raise ServiceError("rally.web_needs_manage")
        text = str(choice).strip().lower()[:20] if choice is not None else ""
        if text not in WEB_CHOICES:
            raise ServiceError("rally.bad_web", value=text)
        public = text == "public"
        now = to_text(self.clock())
        changed = await self.work.store.db.write(
            lambda tx: set_channel_web_tx(tx, place.guild_id, place.channel_id, public, actor.user_id, now))
        if changed:
            return Reply([msg("rally.web_public" if public else "rally.web_private")])
        return Reply([msg("rally.web_already_public" if public else "rally.web_already_private")], ephemeral=True)
