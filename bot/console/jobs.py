"""The console's clock at work: `/clock` moves it and the jobs that fall due on the way run at
their own times (round opens, reminders, closes, turn deadlines, AI seats' turns), as the running
bot would have run them; the time is kept with the database so a later session goes on from it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.console.autopilot import AUTOPILOT_STEPS
from bot.console.channels import PLACE
from bot.console.clock import ConsoleClock, parse_step
from bot.console.errors import ConsoleError
from bot.console.lines import Command, yes
from bot.console.printer import Printer, Say
from bot.i18n import t
from bot.services import RallyService, Reply
from bot.services.play.deadlines import DeadlineService, plain_time
from bot.store.clock import from_text, to_text

MAX_JOB_STEPS = 10_000  # moments the clock stops at in one `/clock` (jobs falling due on the way)
CLOCK_SETTING = "console_clock"  # the console's server settings keep its time (`Jobs.restore`)


class Jobs:
    """Runs the jobs due on the services' clock (a `ConsoleClock` moves; any other clock is fixed),
    printing through `say` and, after each, what was posted (`deliver`) and what the autopilot
    played (`drive`)."""

    def __init__(self, service: RallyService, printer: Printer, say: Say, deliver: Callable[[], Awaitable[int]],
                 drive: Callable[[], Awaitable[int]]) -> None:
        self.service = service
        self.printer = printer  # its header names the time jobs ran at
        self.lang = printer.lang
        self.say = say
        self.deliver = deliver
        self.drive = drive
        self.clock: Callable[[], datetime] = service.work.clock
        self.deadlines = DeadlineService(service.work, clock=self.clock, when=plain_time)

    async def command(self, cmd: Command) -> Reply:
        """`/clock` (the time), `/clock +3d` (jobs run at their own times on the way),
        `/clock +30h offline` (the bot was down: each overdue job runs once, late)."""
        if not cmd.words and not cmd.options:
            return self.time_now()
        if not isinstance(self.clock, ConsoleClock):
            raise ConsoleError(t("console.clock_fixed"))
        words = [w.lower() for w in cmd.words]
        offline = "offline" in words or yes(cmd.options.get("offline"))
        steps = [w for w in words if w != "offline"] + [f"{k}:{v}" for k, v in cmd.options.items() if k != "offline"]
        if len(steps) != 1:
            raise ConsoleError(t("console.clock_bad", value=" ".join(cmd.words)[:40]))
        target = self.clock() + parse_step(steps[0])
        if offline:
            self.clock.move_to(target)
        else:
            await self.run_until(target)
            self.clock.move_to(target)
        self.printer.header = f"{t('console.prefix_clock', self.lang)} {plain_time(self.clock())}"
        await self.tick()
        self.printer.header = None
        return self.time_now()

    def time_now(self) -> Reply:
        """The console's time, printed for everybody (it is everybody's time)."""
        self.say(None, [t("console.clock_now", time=plain_time(self.clock()))], ephemeral=False,
                 prefix=t("console.prefix_clock", self.lang))
        return Reply([])

    async def run_until(self, target: datetime) -> None:
        """Stop the clock at each moment a job falls due before `target` and run what is due then,
        as the running bot would have (posts delivered at that moment start the clocks they start)."""
        assert isinstance(self.clock, ConsoleClock)
        last, repeats = None, 0
        for _ in range(MAX_JOB_STEPS):
            due = await self.service.store.jobs.next_due(target)
            if due is None:
                return
            moment = max(due, self.clock())
            repeats = repeats + 1 if moment == last else 0
            if repeats > 5:  # a job that cannot run now (held by a lease): leave it for later
                return
            last = moment
            self.clock.move_to(moment)
            self.printer.header = f"{t('console.prefix_clock', self.lang)} {plain_time(self.clock())}"
            await self.tick()

    async def restore(self) -> None:
        """The clock goes on from the time this database last saw in the console (kept with the
        console's server settings): a later session never takes it back, even with an earlier `--now`."""
        stored = (await self.service.store.guilds.get(PLACE.guild_id)).get(CLOCK_SETTING)
        if not isinstance(self.clock, ConsoleClock) or not isinstance(stored, str):
            return
        try:
            seen = from_text(stored)
        except ValueError:
            return
        if seen > self.clock():
            self.clock.move_to(seen)
            self.say(None, [t("console.clock_resumed", time=plain_time(seen))], ephemeral=False,
                     prefix=t("console.prefix_clock", self.lang))

    async def remember(self) -> None:
        """Keep the console's time with the database (after every line)."""
        if isinstance(self.clock, ConsoleClock):
            await self.service.store.guilds.update(PLACE.guild_id, **{CLOCK_SETTING: to_text(self.clock())})

    async def tick(self) -> int:
        """Run the jobs due now (league, world and turn jobs, AI seats' turns) and print what they
        posted, then let the autopilot drive; again, until nothing more happens at this moment."""
        done = 0
        for _ in range(AUTOPILOT_STEPS):
            ran = await self.deadlines.run_due(self.clock())
            delivered = await self.deliver()
            driven = await self.drive()
            done += ran
            if not (ran or delivered or driven):
                break
        return done
