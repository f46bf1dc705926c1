"""Turn deadlines that survive restarts: a reminder at half time, then the bot ends the turn.

A turn's clock starts when its prompt reached the channel (`bot/services/delivery.py` schedules
the pair of jobs when it delivers the prompt), so nobody is charged for a turn they were never
told about. Any action that passes the turn cancels the pair in its own transaction, so a
pending deadline job always belongs to the current turn. Jobs name their rally (`rally_id`) and
are found through the store's index, never by listing all pending jobs.

At the deadline the bot ends the turn for the driver, through the rally's game: the game's
`timeout_action` if the turn is begun (`midturn`: classic's `stop` after a die); if not, the AI
driver (the game's `choose`, from the seat's own view) drives the turn when the rally allows it
(setting `ai_on_timeout`, on by default), else the bot ends the turn at once (classic's `Timeout`:
the car stands still and takes the no-move card of RULES A13.5). Each passed deadline counts a
missed turn (`drivers.missed_turns`, reset when the driver plays); at the `missed_limit`-th
(default 3) the driver retires (the game's `retire_action`). A window several seats answer at once
(`asked_together`: Road Rally's stage window, RULES C10.8) is waited for as one turn: its reminder
pings everyone asked and names nobody, its deadline is one `timeout_action` for all (the silent
pass) and counts no missed turn, and its AI seats answer as themselves without a post; every answer
waits beside the rally until the window closes (`bot/services/play/windows.py`). A paused
rally (the bot cannot post in its channel) runs no deadline: its jobs are cancelled at the pause
and a new clock starts when posting works again.

Each job runs under its rally's lock and commits its actions, its posts (outbox rows) and its own
completion in ONE transaction, so a job that is claimed twice (a lease that ran out, a restart)
does its work once. After downtime `run_due` claims every overdue job once and runs it late,
with a note saying when it was due. The bot's own actions are logged with actor None. Jobs of
other kinds (`league.*`, `scratch.*`) are claimed by the same `run_due` and handed to the
service that registered their prefix in `RallyWork.job_routes` (bot/services/league/jobs.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from bot.engine.core.errors import RallyError
from bot.engine.core.events import Event
from bot.engine.core.game import Game, is_finished
from bot.engine.core.text import msg
from bot.services.league.ghost_board import ghost_of
from bot.services.play.ai_drivers import is_ai, risk_of
from bot.services.play.turns import turn_post
from bot.services.play.windows import Kept, asked_together, clear_step, close, kept_answers, still_open, with_answers
from bot.services.work import (
    DEADLINE_KINDS,
    KIND_AI,
    KIND_DEADLINE,
    KIND_REMIND,
    Change,
    Logged,
    Post,
    RallyWork,
    State,
    game_of,
)
from bot.store import Job, Rally
from bot.store.clock import from_text, utc_now
from bot.store.connection import Tx
from bot.store.jobs import complete_tx, pending_for_rally_tx, schedule_tx
from bot.store.window_answers import put_tx

log = logging.getLogger(__name__)

MISSED_LIMIT = 3
LATE_AFTER = timedelta(minutes=5)  # a job run later than this gets the "while I was away" note
RETRY_AFTER = timedelta(minutes=5)
MAX_ATTEMPTS = 3
AI_STEPS = 40  # safety bound on the actions of one AI-driven turn
BATCH = 20
KEEP_DONE = timedelta(days=7)  # delivered posts and done jobs are forgotten after this


def job_ref(rally_id: int) -> str:
    return f"rally:{rally_id}:turn"


def plain_time(moment: datetime) -> str:
    """Default time text (console, tests); the bot injects Discord timestamps instead. A time in a
    named zone (a league's: `league_rounds.local`) is written in it and names it, any other in UTC."""
    zone = getattr(moment.tzinfo, "key", None)
    if zone and zone != "UTC":
        return moment.strftime("%Y-%m-%d %H:%M ") + zone
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


async def start_clock_tx(tx: Tx, rally: Rally, now: datetime) -> datetime | None:
    """Inside `tx`: give the current turn its deadline pair from `now`, unless it has one.
    Returns when the turn ends (None: the rally has no deadline)."""
    if not rally.turn_deadline_s:
        return None
    for job in await pending_for_rally_tx(tx, rally.id, (KIND_DEADLINE,)):
        return from_text(job.due_at)
    due = now + timedelta(seconds=rally.turn_deadline_s)
    await schedule_tx(tx, KIND_REMIND, job_ref(rally.id), now + timedelta(seconds=rally.turn_deadline_s / 2),
                      rally.id)
    await schedule_tx(tx, KIND_DEADLINE, job_ref(rally.id), due, rally.id)
    return due


async def start_turn_tx(tx: Tx, work: RallyWork, rally: Rally, now: datetime) -> datetime | None:
    """Inside `tx`: what the current turn waits for from `now`: an AI seat's drive after
    `work.ai_pause` (bot/services/play/ai_drivers.py), and the drivers' deadline pair (`start_clock_tx`)
    when a person is asked (a window several seats answer may wait for both)."""
    seats = game_of(rally).rules.to_act(work.state_of(rally)) if rally.snapshot is not None else frozenset()
    if any(is_ai(seat) for seat in seats):
        if not await pending_for_rally_tx(tx, rally.id, (KIND_AI,)):
            await schedule_tx(tx, KIND_AI, job_ref(rally.id), now + work.ai_pause, rally.id)
        if all(is_ai(seat) for seat in seats):
            return None
    return await start_clock_tx(tx, rally, now)


class DeadlineService:
    """Runs the due turn jobs of every rally, through the shared unit of work."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime] = utc_now,
                 when: Callable[[datetime], str] = plain_time, missed_limit: int = MISSED_LIMIT) -> None:
        self.work = work
        self.store = work.store
        self.clock = clock
        self.when = when
        self.missed_limit = missed_limit

    async def pending(self, rally_id: int) -> list[Job]:
        """The rally's pending turn jobs (indexed by rally and kind)."""
        return await self.store.jobs.for_rally(rally_id, DEADLINE_KINDS)

    async def due_at(self, rally_id: int) -> datetime | None:
        """When the current turn of the rally ends, if its clock runs."""
        for job in await self.store.jobs.for_rally(rally_id, (KIND_DEADLINE,)):
            return from_text(job.due_at)
        return None

    async def resync(self) -> int:
        """After start-up (in the background, once the gateway is ready): start the clock of every
        running, unpaused rally whose turn has none and owes no post (a database from before the
        outbox), of this process's shards. One indexed query, then one small transaction per such
        rally: linear in the running rallies. Returns how many clocks were started."""
        count = 0
        for rally_id in await self.store.rallies.without_clock(KIND_DEADLINE):
            async with self.work.locked_id(rally_id) as rally:
                if rally is None or rally.status != "running" or rally.paused_at is not None:
                    continue
                if not self.work.shards.owns(rally.guild_id):
                    continue  # another process serves its server
                now = self.clock()

                async def start(tx: Tx, rally: Rally = rally, now: datetime = now) -> None:
                    await start_turn_tx(tx, self.work, rally, now)

                await self.store.db.write(start)
                count += 1
        return count

    async def prune(self, now: datetime | None = None) -> int:
        """Housekeeping: forget delivered posts and done jobs older than `KEEP_DONE` (the action
        log keeps the history; these tables only need what is owed or pending)."""
        before = (now or self.clock()) - KEEP_DONE
        return await self.store.outbox.prune(before) + await self.store.jobs.prune(before)

    async def run_due(self, now: datetime | None = None) -> int:
        """Claim and run every due job of this process's shards once; returns how many did
        something. A failing job is retried later (at most MAX_ATTEMPTS) and never blocks the others."""
        now = now or self.clock()
        done = 0
        while True:
            jobs = await self.store.jobs.claim_due(now, limit=BATCH, shards=self.work.shards)
            for job in jobs:
                try:
                    done += await self.handle(job, now)
                except Exception as exc:  # one bad job must not stop the loop
                    log.exception("turn job %s (%s) failed", job.id, job.ref)
                    retry = now + RETRY_AFTER if job.attempts < MAX_ATTEMPTS else None
                    try:
                        await self.store.jobs.fail(job.id, f"{type(exc).__name__}: {exc}", retry)
                    except RallyError:
                        pass  # cancelled meanwhile: nothing left to retry
            if len(jobs) < BATCH:
                return done

    async def handle(self, job: Job, now: datetime) -> int:
        """Run one job under its rally's lock; 1 if it acted or posted, 0 if it was stale."""
        for prefix, route in self.work.job_routes.items():  # league and world jobs
            if job.kind.startswith(prefix):
                return await route(job, now)
        if job.kind not in DEADLINE_KINDS or job.rally_id is None:
            log.warning("ignoring unknown job %s %s", job.kind, job.ref)
            await self.store.jobs.complete(job.id, now)
            return 0
        async with self.work.locked_id(job.rally_id) as rally:
            still = [j for j in await self.pending(job.rally_id) if j.id == job.id]
            if not still:
                return 0  # cancelled by an action: its turn is over
            finish = partial(complete_tx, job_id=job.id, now=now)
            if rally is None or rally.status != "running" or rally.paused_at is not None:
                await self.store.db.write(finish)
                return 0
            due = from_text(job.due_at)
            lead = [msg("deadline.late", when=self.when(due))] if now - due > LATE_AFTER else []
            if job.kind == KIND_REMIND:
                change = await self._remind(rally, lead, now)
            elif job.kind == KIND_AI:
                change = await self._ai_drives(rally)
            else:
                change = await self._expire(rally, lead)
            if change is None:
                await self.store.db.write(finish)
                return 0
            change.steps.append(finish)
            await self.work.commit(rally, change)
            return 1

    async def _remind(self, rally: Rally, lead: list[str], now: datetime) -> Change | None:
        game = game_of(rally)
        state = self.work.state_of(rally)
        seat = seat_to_act(game, state)
        due = await self.due_at(rally.id)
        if seat is None or due is None or due <= now:
            return None  # after downtime the deadline itself is due: no point reminding
        asked = asked_together(game, state)
        if asked:  # a window: everyone asked is reminded alike, whoever has answered (C10.8)
            people = tuple(sorted(int(s) for s in asked if s.isdigit()))
            return Change(posts=[Post(lead + [msg("deadline.reminder_all", when=self.when(due))], ping=people)])
        name = game.narrator.seat_name(game.rules.view(state, None), seat)
        lines = lead + [msg("deadline.reminder", name=name, when=self.when(due))]
        ping = (int(seat),) if seat.isdigit() else ()
        return Change(posts=[Post(lines, ping=ping)])

    async def _expire(self, rally: Rally, lead: list[str]) -> Change | None:
        """The deadline passed: end the turn for the driver, count a missed turn."""
        game = game_of(rally)
        state = self.work.state_of(rally)
        seat = seat_to_act(game, state)
        if seat is None:
            return None
        if asked_together(game, state):  # a window: its time ran out for all, none named (C10.8)
            kept = await kept_answers(self.store, rally.id)
            closing = close(game, state, kept, game.rules.timeout_action(state, seat))
            change = Change(logged=closing.logged, steps=[clear_step(rally.id)])
            turn_post(rally.id, rally.version + len(change.logged), closing.state, closing.events,
                      lead + [msg("deadline.window_closed")], change, rally.game, rally.ruleset)
            return change
        view = game.rules.view(state, None)
        name = game.narrator.seat_name(view, seat)
        user_id = int(seat) if seat.isdigit() else None
        driver = await self.store.drivers.get(rally.id, user_id) if user_id is not None else None
        missed = (driver.missed_turns if driver else 0) + 1
        change = Change(missed_by=user_id if driver is not None else None)
        if missed >= self.missed_limit:
            lead.append(msg("deadline.retired", name=name, missed=missed))
            state, events = self._log(game, change, state, game.rules.retire_action(seat))
        elif game.rules.midturn(view):  # a turn begun is ended as it stands (classic: the gear card, A6.4)
            lead.append(msg("deadline.stopped", name=name))
            state, events = self._log(game, change, state, game.rules.timeout_action(state, seat))
        elif rally.modules.get("ai_on_timeout", True):
            lead.append(msg("deadline.ai_drives", name=name))
            state, events = self._ai_turn(game, change, state)
        else:
            lead.append(msg("deadline.timeout", name=name, missed=missed, limit=self.missed_limit))
            state, events = self._log(game, change, state, game.rules.timeout_action(state, seat))
        turn_post(rally.id, rally.version + len(change.logged), state, events, lead, change, rally.game,
                  rally.ruleset, ghost_of(rally))
        return change

    async def _ai_drives(self, rally: Rally) -> Change | None:
        """An AI seat's turn: the AI drives it whole, in its style, at once (no missed turn). In a
        window several seats answer, each AI seat asked answers once, as itself (its own view);
        while people are still to answer, nothing is posted (who answered is nobody's business)."""
        game = game_of(rally)
        state = self.work.state_of(rally)
        if asked_together(game, state):
            return self._ai_answers(rally, game, state, await kept_answers(self.store, rally.id))
        seat = seat_to_act(game, state)
        if seat is None or not is_ai(seat):
            return None
        change = Change()
        state, events = self._ai_turn(game, change, state, risk_of(rally.modules, seat))
        turn_post(rally.id, rally.version + len(change.logged), state, events, [], change, rally.game,
                  rally.ruleset)
        return change

    def _ai_answers(self, rally: Rally, game: Game[Any, Any, Any, Any], state: State, kept: Kept) -> Change | None:
        """Every AI seat still to answer a window answers as itself (its own view), like a person
        (`bot/services/play/windows.py`): kept apart while people are still to answer (nothing is
        posted, the rally does not change), or logged with every kept answer when that completes
        the window."""
        current = with_answers(game, state, kept)
        answers: list[tuple[int, str]] = []
        for seat in sorted(s for s in game.rules.to_act(current) if is_ai(s)):
            action = game.coach.choose(game.rules.view(current, seat), seat, risk_of(rally.modules, seat))
            new, _ = game.rules.apply(current, seat, action)
            answers.append((int(seat), game.rules.encode(action)))
            if not still_open(game, current, new):
                closing = close(game, state, [*kept, *answers])
                change = Change(logged=closing.logged, steps=[clear_step(rally.id)])
                turn_post(rally.id, rally.version + len(change.logged), closing.state, closing.events, [], change,
                          rally.game, rally.ruleset)
                return change
            current = new
        if not answers:
            return None
        return Change(steps=[partial(put_tx, rally_id=rally.id, user_id=user_id, action=text)
                             for user_id, text in answers])

    @staticmethod
    def _log(game: Game[Any, Any, Any, Any], change: Change, state: State, action: Any) -> tuple[State, list[Event]]:
        """Apply one action of the bot (the rally acts: no seat) and add it to the change (actor None)."""
        new, events = game.rules.apply(state, None, action)
        status = "finished" if is_finished(game.rules, new) else None
        change.logged.append(Logged(game.rules.encode(action), None, new, status))
        return new, events

    def _ai_turn(self, game: Game[Any, Any, Any, Any], change: Change, state: State,
                 risk: float | None = None) -> tuple[State, list[Event]]:
        """The AI drives the whole turn, one logged action per step, until the turn passes."""
        seat = seat_to_act(game, state)
        assert seat is not None
        events: list[Event] = []
        # another value of `progress`: a new turn (the same seat's next too)
        begun = game.rules.progress(game.rules.view(state, None))
        for _ in range(AI_STEPS):
            try:  # the AI decides from its own seat's view (DESIGN §9: it cannot see what it may not)
                move = game.coach.choose(game.rules.view(state, seat), seat, risk)
                state, step = self._log(game, change, state, move)
            except RallyError:
                if not game.rules.midturn(game.rules.view(state, None)):
                    raise
                # never leave it half-driven: end the turn as it stands
                state, step = self._log(game, change, state, game.rules.timeout_action(state, seat))
            events += step
            if seat_to_act(game, state) != seat or game.rules.progress(game.rules.view(state, None)) != begun:
                break
        return state, events


def seat_to_act(game: Game[Any, Any, Any, Any], state: State) -> str | None:
    """The one seat whose turn it is (None: nobody's)."""
    seats = game.rules.to_act(state)
    return min(seats) if seats else None
