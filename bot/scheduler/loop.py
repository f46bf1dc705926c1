"""One `tasks.loop` that runs the due jobs; what they post goes through the outbox.

The jobs are in the database (`jobs` table), so nothing is lost by a restart: the first tick
after start-up (once the gateway is ready, in the background) starts a clock for any running
rally that has none, then claims every overdue job once and runs it late, with a note (see
bot/services/deadlines.py). A tick never raises (a `tasks.loop` stops on an unhandled error):
failures are logged and the job is retried by the service.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import tasks

if TYPE_CHECKING:
    from bot.client import RallyBot

log = logging.getLogger(__name__)

TICK_SECONDS = 30
PRUNE_EVERY = 120  # ticks: once an hour


class SchedulerLoop:
    def __init__(self, bot: RallyBot, seconds: float = TICK_SECONDS) -> None:
        self.bot = bot
        self._ticks = 0
        self.loop = tasks.loop(seconds=seconds)(self.tick)
        self.loop.before_loop(self._before)

    async def _before(self) -> None:
        await self.bot.wait_until_ready()
        try:
            started = await self.bot.deadlines.resync()
        except Exception:  # the ticks still run
            log.exception("could not start the clocks of running rallies")
            return
        if started:
            log.info("started the turn clock of %d running rallies that had none", started)

    async def tick(self) -> int:
        """Run the due jobs once (and, every `PRUNE_EVERY` ticks, forget old delivered posts and
        done jobs); returns how many jobs acted (their posts are in the outbox)."""
        self._ticks += 1
        try:
            if self._ticks % PRUNE_EVERY == 1:
                await self.bot.deadlines.prune()
            return await self.bot.deadlines.run_due()
        except Exception:  # keep the loop alive; the next tick tries again
            log.exception("the scheduler could not run the due jobs")
            return 0

    def start(self) -> None:
        if not self.loop.is_running():
            self.loop.start()

    def stop(self) -> None:
        self.loop.cancel()
