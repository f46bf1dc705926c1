"""What every service call shares: the store, per-rally locks, the state cache, the renderer.

A call finds the channel's rally, takes that rally's lock, rebuilds the game state from the
snapshot (cached by rally and version), lets the engine act, and commits action + snapshot +
version in one transaction. No die result is shown before it is committed (DESIGN §2).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from typing import Protocol

from bot.engine.state import GameState
from bot.engine.view import BoardView
from bot.services.errors import ServiceError
from bot.services.reply import Actor, Place
from bot.store import Rally, Store

CACHE_SIZE = 256


class Renderer(Protocol):
    """Draws images; pure and slow-ish, so it runs in a worker thread."""

    def board(self, stage, view: BoardView) -> bytes: ...

    def results(self, state: GameState) -> bytes: ...


class Core:
    """Shared plumbing of the rally services."""

    def __init__(self, store: Store, renderer: Renderer | None = None,
                 seed_source: Callable[[], int] | None = None, dice_script: dict | None = None) -> None:
        self.store = store
        self.renderer = renderer
        self.seed_source = seed_source or (lambda: random.SystemRandom().getrandbits(62))
        self.dice_script = dice_script  # console/tests only: scripted faces, never from Discord
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: OrderedDict[tuple[int, int], GameState] = OrderedDict()

    def lock(self, rally_id: int) -> asyncio.Lock:
        lock = self._locks.get(rally_id)
        if lock is None:
            lock = self._locks[rally_id] = asyncio.Lock()
        return lock

    async def rally_here(self, place: Place) -> Rally:
        rally = await self.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:
            raise ServiceError("rally.none_here")
        return rally

    def state_of(self, rally: Rally) -> GameState:
        """The game state of a running rally, from its snapshot (cached per version)."""
        key = (rally.id, rally.version)
        state = self._cache.get(key)
        if state is None:
            if rally.snapshot is None:
                raise ServiceError("rally.not_running")
            state = GameState.from_dict(json.loads(rally.snapshot))
            self.remember(rally.id, rally.version, state)
        else:
            self._cache.move_to_end(key)
        return state

    def remember(self, rally_id: int, version: int, state: GameState) -> None:
        self._cache[(rally_id, version)] = state
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def is_boss(self, rally: Rally, actor: Actor) -> bool:
        """Host of the rally or a member with Manage Server (DESIGN §3)."""
        return actor.user_id == rally.host_id or actor.can_manage

    def require_boss(self, rally: Rally, actor: Actor, what: str) -> None:
        if not self.is_boss(rally, actor):
            raise ServiceError("rally.not_host", what=what)

    async def board_image(self, state: GameState, view: BoardView) -> bytes | None:
        if self.renderer is None:
            return None
        return await asyncio.to_thread(self.renderer.board, state.stage, view)

    async def results_image(self, state: GameState) -> bytes | None:
        if self.renderer is None:
            return None
        return await asyncio.to_thread(self.renderer.results, state)

    def board_render(self, state: GameState, view: BoardView) -> Callable[[], bytes] | None:
        """The board image left to draw by whoever posts the reply (see `Reply.resolve_image`)."""
        if self.renderer is None:
            return None
        return partial(self.renderer.board, state.stage, view)

    def results_render(self, state: GameState) -> Callable[[], bytes] | None:
        if self.renderer is None:
            return None
        return partial(self.renderer.results, state)


def snapshot_json(state: GameState) -> str:
    """The canonical JSON of a state: compact and key-sorted, so replays compare byte for byte."""
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
