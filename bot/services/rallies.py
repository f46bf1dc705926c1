"""`RallyService`: every command of a rally, lifecycle and turns, for Discord and the console."""

from __future__ import annotations

from bot.services.lobby import Lobby
from bot.services.turns import Turns


class RallyService(Lobby, Turns):
    """One object per bot: `await service.create(place, actor, stage=...)`, `join`, `start`,
    `act`/`roll`/`stop`/`line`/`spare`, `odds`, `status`, `board`, `abandon`, `kick`."""
