"""One `tasks.loop` that runs the due jobs; what they post goes through the outbox.

The jobs are in the database (`jobs` table), so nothing is lost by a restart: the first tick
after start-up (once the gateway is ready, in the background) starts a clock for any running
rally that has none, then claims every overdue job once and runs it late, with a note (see
bot/services/play/deadlines.py). A tick never raises (a `tasks.loop` stops on an unhandled error):
failures are logged and the job is retried by the service.

The loop is given what it uses of the bot (`Host`: wait for the gateway, the deadline service),
so it does not import `bot.client`, which builds it.
"""

from __future__ import annotations

import logging
from typing import Protocol

from discord.ext import tasks

from bot.services.play.deadlines import DeadlineService

log = logging.getLogger(__name__)

TICK_SECONDS = 30
PRUNE_EVERY = 120  # ticks: once an hour


class Host(Protocol):
    """What the loop uses of the bot: `RallyBot` is one. `deadlines` is read at each tick, since
    the bot builds its services after the loop (in `setup_hook`)."""

    async def wait_until_ready(self) -> None: ...

    @property
    def deadlines(self) -> DeadlineService: ...


class SchedulerLoop:
    def __init__(self, bot: Host, seconds: float = TICK_SECONDS) -> None:
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
