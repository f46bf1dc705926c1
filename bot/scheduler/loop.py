"""One `tasks.loop` that runs the due jobs and posts what they produce in the rally channels.

The jobs are in the database (`jobs` table), so nothing is lost by a restart: the first tick
after start-up claims every overdue job once and runs it late, with a note (see
bot/services/deadlines.py). A tick never raises (a `tasks.loop` stops on an unhandled error):
failures are logged and the job is retried by the service.
"""

from __future__ import annotations

import logging

from discord.ext import tasks

from bot.views.publish import post_notice

log = logging.getLogger(__name__)

TICK_SECONDS = 30


class SchedulerLoop:
    def __init__(self, bot, seconds: float = TICK_SECONDS) -> None:
        self.bot = bot
        self.loop = tasks.loop(seconds=seconds)(self.tick)
        self.loop.before_loop(self._before)

    async def _before(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self) -> int:
        """Run the due jobs once and post their notices; returns how many were posted."""
        try:
            notices = await self.bot.deadlines.run_due()
        except Exception:  # noqa: BLE001 - keep the loop alive; the next tick tries again
            log.exception("the scheduler could not run the due jobs")
            return 0
        posted = 0
        for notice in notices:
            try:
                await post_notice(self.bot, notice)
                posted += 1
            except Exception:  # noqa: BLE001 - a channel gone or forbidden must not stop the others
                log.exception("could not post a deadline notice in channel %s", notice.channel_id)
        return posted

    def start(self) -> None:
        if not self.loop.is_running():
            self.loop.start()

    def stop(self) -> None:
        self.loop.cancel()
