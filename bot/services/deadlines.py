"""Turn deadlines that survive restarts: a reminder at half time, then the bot ends the turn.

At the deadline the bot ends the turn for the driver: `stop` if they already used a die; if not,
the AI driver (`bot.engine.ai.choose_action`) drives the turn when the rally allows it (setting
`ai_on_timeout`, on by default), else the bot ends the turn (engine `Timeout`: the car stands
still and takes the no-move card of RULES A13.5). Each passed
deadline counts a missed turn (`drivers.missed_turns`, reset when the driver plays); at the
`missed_limit`-th (default 3) the driver retires (engine `Retire`).

Jobs live in the store's `jobs` table, one pair (reminder, deadline) per rally *version*, with
ref `rally:<id>:v<version>`. Every reply that opens or continues a turn goes through `track`,
which moves the pending pair to the new version: it keeps the turn's due times while the same
driver rolls on, and starts new ones when the turn passes. A job whose version is no longer the
rally's does nothing, so a stale or repeated job (a crash between commit and `track`, a lease
that ran out) is harmless: every handler is idempotent. After downtime `run_due` claims every
overdue job once and runs it late, with a note saying when it was due.

The bot's own actions are logged with actor None, so the action log replays them like any other.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.engine.actions import Action, Retire, Stop, Timeout
from bot.engine.ai import choose_action
from bot.engine.errors import RallyError
from bot.engine.game import apply
from bot.engine.state import GameState
from bot.i18n import t
from bot.services.core import snapshot_json
from bot.services.rallies import RallyService
from bot.services.reply import Reply
from bot.services.turns import turn_reply
from bot.store import Job, NotFound, Rally
from bot.store.clock import from_text, utc_now

log = logging.getLogger(__name__)

KIND_REMIND = "turn.remind"
KIND_DEADLINE = "turn.deadline"
KINDS = (KIND_REMIND, KIND_DEADLINE)
MISSED_LIMIT = 3
LATE_AFTER = timedelta(minutes=5)  # a job run later than this gets the "while I was away" note
RETRY_AFTER = timedelta(minutes=5)
MAX_ATTEMPTS = 3
AI_STEPS = 40  # safety bound on the actions of one AI-driven turn
_REF = re.compile(r"^rally:(\d+):v(\d+)$")


@dataclass(frozen=True)
class Notice:
    """Something the scheduler must post in a rally's channel."""

    guild_id: int
    channel_id: int
    reply: Reply


def job_ref(rally_id: int, version: int) -> str:
    return f"rally:{rally_id}:v{version}"


def parse_ref(ref: str) -> tuple[int, int] | None:
    match = _REF.match(ref)
    return (int(match.group(1)), int(match.group(2))) if match else None


def plain_time(moment: datetime) -> str:
    """Default time text (console, tests); the bot injects Discord timestamps instead."""
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _live(rally: Rally | None, version: int) -> bool:
    return rally is not None and rally.status == "running" and rally.version == version


class DeadlineService:
    """Schedules and runs the turn deadlines of every rally of one `RallyService`."""

    def __init__(self, rallies: RallyService, clock: Callable[[], datetime] = utc_now,
                 when: Callable[[datetime], str] = plain_time, missed_limit: int = MISSED_LIMIT) -> None:
        self.rallies = rallies
        self.store = rallies.store
        self.clock = clock
        self.when = when
        self.missed_limit = missed_limit
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, rally_id: int) -> asyncio.Lock:
        return self._locks.setdefault(rally_id, asyncio.Lock())

    async def pending(self, rally_id: int) -> list[Job]:
        """The rally's pending deadline jobs (any version)."""
        prefix = f"rally:{rally_id}:"
        return [j for kind in KINDS for j in await self.store.jobs.pending(kind) if j.ref.startswith(prefix)]

    async def due_at(self, rally_id: int) -> datetime | None:
        """When the current turn of the rally ends, if a deadline is pending."""
        for job in await self.pending(rally_id):
            if job.kind == KIND_DEADLINE:
                return from_text(job.due_at)
        return None

    async def track(self, reply: Reply, actor_id: int | None = None) -> datetime | None:
        """After a reply that opens or continues a turn: move the deadline jobs to its version.
        `actor_id` is the driver who just played (their missed-turn count starts again).
        Returns when the turn ends (None: no deadline)."""
        prompt = reply.turn
        if prompt is None:
            return None
        async with self._lock(prompt.rally_id):
            rally = await self.store.rallies.find(prompt.rally_id)
            if not _live(rally, prompt.version):
                return None  # moved on already: the newer reply tracks it
            if actor_id is not None:
                await self._played(rally.id, actor_id)
            if not rally.turn_deadline_s:
                return None
            pending = await self.pending(rally.id)
            ref = job_ref(rally.id, prompt.version)
            for job in pending:
                if job.ref == ref and job.kind == KIND_DEADLINE:
                    return from_text(job.due_at)  # already tracked: idempotent
            old = {j.kind: from_text(j.due_at) for j in pending}
            if reply.ping or KIND_DEADLINE not in old:  # a new turn: a new deadline
                now = self.clock()
                due = now + timedelta(seconds=rally.turn_deadline_s)
                remind: datetime | None = now + timedelta(seconds=rally.turn_deadline_s / 2)
            else:  # the same driver rolls on: same deadline; the reminder only if still pending
                due, remind = old[KIND_DEADLINE], old.get(KIND_REMIND)
            for job in pending:
                await self.store.jobs.cancel(job.kind, job.ref)
            await self._schedule(ref, due, remind)
            return due

    async def _schedule(self, ref: str, due: datetime, remind: datetime | None) -> None:
        if remind is not None:
            await self.store.jobs.schedule(KIND_REMIND, ref, remind)
        await self.store.jobs.schedule(KIND_DEADLINE, ref, due)

    async def _played(self, rally_id: int, user_id: int) -> None:
        driver = await self.store.drivers.get(rally_id, user_id)
        if driver is not None and driver.missed_turns:
            await self.store.drivers.reset_missed_turns(rally_id, user_id)

    async def resync(self) -> int:
        """At start-up: give a deadline to every running rally whose current version has none (a
        crash between an action and its `track`). Returns how many were scheduled."""
        count = 0
        for rally in await self.store.rallies.list_by_status(("running",)):
            if not rally.turn_deadline_s:
                continue
            ref = job_ref(rally.id, rally.version)
            if any(j.ref == ref and j.kind == KIND_DEADLINE for j in await self.pending(rally.id)):
                continue
            now = self.clock()
            await self._schedule(ref, now + timedelta(seconds=rally.turn_deadline_s),
                                 now + timedelta(seconds=rally.turn_deadline_s / 2))
            count += 1
        return count

    async def run_due(self, now: datetime | None = None) -> list[Notice]:
        """Claim and run every due job once; returns what must be posted. A failing job is
        retried later (at most MAX_ATTEMPTS), never blocks the others."""
        now = now or self.clock()
        notices: list[Notice] = []
        while True:
            jobs = await self.store.jobs.claim_due(now)
            for job in jobs:
                try:
                    notice = await self.handle(job, now)
                except Exception as exc:  # noqa: BLE001 - one bad job must not stop the loop
                    log.exception("deadline job %s (%s) failed", job.id, job.ref)
                    retry = now + RETRY_AFTER if job.attempts < MAX_ATTEMPTS else None
                    await self.store.jobs.fail(job.id, f"{type(exc).__name__}: {exc}", retry)
                    continue
                with suppress(NotFound):  # cancelled meanwhile by `track`: its turn moved on
                    await self.store.jobs.complete(job.id, now)
                if notice is not None:
                    notices.append(notice)
            if len(jobs) < 20:
                return notices

    async def handle(self, job: Job, now: datetime) -> Notice | None:
        """Run one job; None when it is stale (the turn moved on) or there is nothing to say."""
        parsed = parse_ref(job.ref)
        if parsed is None or job.kind not in KINDS:
            log.warning("ignoring unknown job %s %s", job.kind, job.ref)
            return None
        rally_id, version = parsed
        rally = await self.store.rallies.find(rally_id)
        if not _live(rally, version):
            return None
        due = from_text(job.due_at)
        lead = [t("deadline.late", when=self.when(due))] if now - due > LATE_AFTER else []
        if job.kind == KIND_REMIND:
            return await self._remind(rally, lead, now)
        return await self._expire(rally, version, lead)

    async def _remind(self, rally: Rally, lead: list[str], now: datetime) -> Notice | None:
        state = self.rallies.state_of(rally)
        car = state.active
        due = await self.due_at(rally.id)
        if car is None or due is None or due <= now:
            return None  # after downtime the deadline itself is due: no point reminding
        lines = lead + [t("deadline.reminder", name=car.name, when=self.when(due))]
        ping = (int(car.id),) if car.id.isdigit() else ()
        return Notice(rally.guild_id, rally.channel_id, Reply(lines, ping=ping))

    async def _expire(self, rally: Rally, version: int, lead: list[str]) -> Notice | None:
        """The deadline passed: end the turn for the driver (or wait), count a missed turn."""
        core = self.rallies
        async with core.lock(rally.id):
            rally = await self.store.rallies.get(rally.id)
            if not _live(rally, version):
                return None
            state = core.state_of(rally)
            car = state.active
            if car is None:
                return None
            user_id = int(car.id) if car.id.isdigit() else None
            driver = await self.store.drivers.get(rally.id, user_id) if user_id is not None else None
            missed = (driver.missed_turns if driver else 0) + 1
            if missed >= self.missed_limit:
                lead.append(t("deadline.retired", name=car.name, missed=missed))
                version, state, events = await self._commit(rally, version, state, Retire(car.id))
            elif state.turn.started:
                lead.append(t("deadline.stopped", name=car.name))
                version, state, events = await self._commit(rally, version, state, Stop())
            elif rally.modules.get("ai_on_timeout", True):
                lead.append(t("deadline.ai_drives", name=car.name))
                version, state, events = await self._ai_turn(rally, version, state)
            else:
                lead.append(t("deadline.timeout", name=car.name, missed=missed, limit=self.missed_limit))
                version, state, events = await self._commit(rally, version, state, Timeout())
            if driver is not None:
                await self.store.drivers.add_missed_turn(rally.id, user_id)
            reply = await turn_reply(core, rally.id, version, state, events, lead)
        await self.track(reply)
        return Notice(rally.guild_id, rally.channel_id, reply)

    async def _commit(self, rally: Rally, version: int, state: GameState, action: Action) -> tuple:
        """Apply one action of the bot and log it (actor None) with the new snapshot."""
        new, events = apply(state, action)
        status = "finished" if new.finished else None
        version = await self.store.append_action(rally.id, version, None, str(action), snapshot_json(new), status)
        self.rallies.remember(rally.id, version, new)
        return version, new, events

    async def _ai_turn(self, rally: Rally, version: int, state: GameState) -> tuple:
        """The AI drives the whole turn, one logged action per step, until the turn passes."""
        car_index = state.turn.car
        events: list = []
        for _ in range(AI_STEPS):
            try:
                version, state, step = await self._commit(rally, version, state, choose_action(state))
            except RallyError:
                if not state.turn.started:
                    raise
                version, state, step = await self._commit(rally, version, state, Stop())  # never leave it half-driven
            events += step
            if state.turn is None or state.turn.car != car_index or any(e.kind == "turn" for e in step):
                break
        return version, state, events
