"""`RallyService`: every command of a rally, for Discord and the console, on one unit of work.

The services are small objects that share one injected `RallyWork` (store, per-rally locks,
state cache, the commit): `Lobby` (lifecycle), `Turns` (dice), `DeadlineService` (scheduled
turn ends) and `Delivery` (the outbox). This facade gives the cogs and the console one object.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime

from bot.services.career.careers import CareerService
from bot.services.career.ratings_list import RatingsService
from bot.services.channel_web import ChannelWeb
from bot.services.delivery import Delivery
from bot.services.errors import ServiceError
from bot.services.league.championships import Championships
from bot.services.league.round_kit import discord_time, new_seed
from bot.services.notify import NotifyService, turn_dms_tx
from bot.services.play.archive import Archive
from bot.services.play.deal_keys import numbered_deal_keys
from bot.services.play.lobby import Lobby
from bot.services.play.replays import Replays
from bot.services.play.turns import Turns
from bot.services.reply import HAND, Actor, Place, Reply
from bot.services.work import RallyWork
from bot.store import Store
from bot.store.clock import utc_now


def system_seed() -> int:
    return random.SystemRandom().getrandbits(62)


class RallyService:
    """`await service.create(place, actor, stage=...)`, `join`, `start`, `act` (a move as typed),
    `verb` (a game's command: `roll`, `stop`, `odds` …), `status`, `board`, `abandon`, `kick`,
    `press` (a button)."""

    def __init__(self, store: Store, seed_source: Callable[[], int] | None = None,
                 dice_script: dict | None = None, clock: Callable[[], datetime] = utc_now,
                 when: Callable[[datetime], str] = discord_time, round_seeds: Callable[[], str] = new_seed) -> None:
        self.store = store
        self.work = RallyWork(store, clock)
        if seed_source is not None:  # a reproducible session (console `--seed`, tests): numbered deal keys
            self.work.deal_keys = numbered_deal_keys("rallybot/reproducible-deal")
        self.archive = Archive(self.work)
        self.lobby = Lobby(self.work, seed_source or system_seed, dice_script, self.archive)
        self.turns = Turns(self.work)
        self.delivery = Delivery(self.work, clock)
        self.championships = Championships(self.work, clock, round_seeds, when)  # league times, round secrets
        self.notify = NotifyService(self.work, clock)
        self.channel_web = ChannelWeb(self.work, clock)  # `/rally web`: a channel's rallies on the web page
        self.ratings = RatingsService(self.work, clock)  # `/ratings`; rates finished live rallies (end hook)
        self.careers = CareerService(self.work)  # after the runs' end hook: a run's result first
        self.replays = Replays(self.work)  # a finished rally's animated replay, and `/replay`
        self.work.post_hooks.append(turn_dms_tx)  # "your turn" and "you are next" by DM (`/notify`)
        # The commands, by name (what the cogs and the console call).
        self.create = self.lobby.create
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.kick = self.lobby.kick
        self.start = self.lobby.start
        self.status = self.lobby.status
        self.board = self.lobby.board
        self.abandon = self.lobby.abandon
        self.add_ai = self.lobby.add_ai
        self.remove_ai = self.lobby.remove_ai
        self.results = self.archive.results
        self.history = self.archive.history
        self.replay = self.replays.replay
        self.act = self.turns.act
        self.verb = self.turns.verb  # a game's command by name: `/roll`, `/stop`, `/odds` …
        self.options = self.turns.options
        self.hand = self.turns.hand  # `/hand`: a seat's own cards, privately

    async def press(self, place: Place, actor: Actor, rally_id: int, version: int, action: str) -> Reply:
        """A turn button: the same action as typing it, bound to the version it was drawn for.
        A click on a button of a rally that is no longer the channel's gets "This turn is over".
        The `HAND` button plays nothing: it opens the clicker's own hand, privately."""
        rally = await self.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None or rally.id != rally_id:
            raise ServiceError("turn.stale")
        if action == HAND:
            return await self.turns.hand(place, actor)
        return await self.turns.act(place, actor, action, expected_version=version)
