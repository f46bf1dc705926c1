"""A member's role ids, asked of Discord when a league's organiser role could decide, kept briefly.

The bot asks the gateway for no intent (bot/client.py `gateway_intents`), so discord.py keeps no
server's roles, and `Member.roles` (which resolves the role ids an interaction sends through the
cached roles) is empty. The organiser check (bot/services/league/leagues.py `is_organiser`) is given
`Actor.roles` None ("not known") and raises `RolesNeeded` only when a role could decide: a command
that needs organiser rights, by someone without Manage Server who is not a named organiser, in a
league with an organiser role. Then, and only then, the view layer learns the roles here, with
discord.py's public calls: `Client.fetch_guild` (the server with its roles) and
`Guild.fetch_member` (the member, whose `roles` resolve against it), two requests, and asks the
service again.

What is learnt is kept TTL_S (5 minutes) for at most MAX_KEPT members, the oldest dropped first:
an organiser's burst of commands (a round scheduled, a penalty, an export) costs two requests, not
two a command, and a role taken away stops counting within 5 minutes, about the time Discord
itself takes to show a role change everywhere. A fetch that fails (403: the bot cannot see the
server or member, 404: the member left, a 5xx, a time-out) is the refusal `RolesNeeded` names
("could not check your roles", nothing changed), logged with Discord's answer; it is not kept.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import discord

from bot.services.errors import RolesNeeded
from bot.views.discord_errors import FAILURES, describe

log = logging.getLogger(__name__)

TTL_S = 300.0
MAX_KEPT = 2000  # ~100 bytes each: a fifth of a megabyte at most


class MemberRoles:
    """(server, member) → the member's role ids, learnt from Discord, kept TTL_S seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, ttl_s: float = TTL_S,
                 max_kept: int = MAX_KEPT) -> None:
        self.clock = clock
        self.ttl_s = ttl_s
        self.max_kept = max_kept
        self._kept: OrderedDict[tuple[int, int], tuple[float, tuple[int, ...]]] = OrderedDict()

    def known(self, guild_id: int, user_id: int) -> tuple[int, ...] | None:
        """The role ids learnt less than TTL_S ago, else None."""
        entry = self._kept.get((guild_id, user_id))
        if entry is None:
            return None
        learnt, roles = entry
        if self.clock() - learnt >= self.ttl_s:
            del self._kept[(guild_id, user_id)]
            return None
        return roles

    def keep(self, guild_id: int, user_id: int, roles: tuple[int, ...]) -> None:
        self._kept.pop((guild_id, user_id), None)
        self._kept[(guild_id, user_id)] = (self.clock(), roles)
        while len(self._kept) > self.max_kept:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)

    async def of(self, client: discord.Client, guild_id: int, user_id: int) -> tuple[int, ...]:
        """The member's role ids (the server's @everyone left out): kept, else fetched and kept.
        A failed fetch raises `RolesNeeded`, the refusal that says the roles could not be checked."""
        roles = self.known(guild_id, user_id)
        if roles is not None:
            return roles
        try:
            guild = await client.fetch_guild(guild_id, with_counts=False)
            member = await guild.fetch_member(user_id)
        except FAILURES as exc:
            log.warning("could not learn the roles of member %s in server %s: %s", user_id, guild_id,
                        describe(exc, f"GET /guilds/{guild_id} or /guilds/{guild_id}/members/{user_id}"))
            raise RolesNeeded() from None
        roles = tuple(role.id for role in member.roles if not role.is_default())
        self.keep(guild_id, user_id, roles)
        return roles
