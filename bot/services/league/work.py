"""`LeagueWork`: what every league service stands on."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.services.league.round_kit import RoundLocks
from bot.services.work import RallyWork


class LeagueWork:
    """What every league service stands on: the unit of work (and its store), the round locks
    shared by all of them, and the bot's clock (the console moves it with `/clock`)."""

    def __init__(self, work: RallyWork, locks: RoundLocks, clock: Callable[[], datetime]) -> None:
        self.work = work
        self.store = work.store
        self.locks = locks
        self.clock = clock
