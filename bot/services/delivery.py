"""Delivering the outbox: what to send, and what each outcome changes. No Discord types here.

A sender (the Discord one in `bot/views/sender.py`, or the console) calls `claim` for the next
owed row of each lane, sends it, and reports the outcome:

- `sent(out, message_id)`: the row is done, and in the same transaction a delivered turn prompt
  starts its turn's clock (a driver is never charged for a turn they were not told about), the
  turn message is recorded (its predecessor's buttons are returned for removal), and a paused
  rally resumes;
- `failed(out, Failure.RETRY, after)`: 429, 5xx, a timeout: tried again later, the rest of the
  lane waits behind it (order per channel);
- `Failure.TOO_LARGE` (413): the image (and an attached file) goes, the text and buttons are sent
  at once (a post with neither that is still too large is dropped: the same request cannot succeed);
- `Failure.FORBIDDEN` (403: missing access or permission): the rally is paused (no AI turns, no
  deadlines; its owed posts wait) and its host is told by DM; delivery is retried every few
  minutes and resumes the rally when it works;
- `Failure.GONE` (404 unknown channel): the rally is abandoned (logged, so `db check` replays
  it), its owed posts are dropped, its host is told by DM;
- `Failure.REFUSED`: Discord will never take this row (a DM to a user who closed them, a
  malformed message): it is dropped, with the reason kept in the row.

A post to a channel that belongs to no rally (a league's channel) has no rally to pause: on 403
it waits and is retried for about a day (`CHANNEL_RETRIES`), on 404 its channel's posts are
dropped, and any other refusal drops it.

Every outcome that touches a rally runs under that rally's lock, like any command.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.engine.core.log import Status, lifecycle_text
from bot.engine.core.text import from_json, msg
from bot.games import DEFAULT_GAME
from bot.services.play.deadlines import start_turn_tx
from bot.services.reply import TurnPrompt
from bot.services.work import DEADLINE_KINDS, KIND_DEADLINE, Change, Logged, Post, RallyWork, game_of
from bot.store import Message, OutboxRow, Rally
from bot.store.clock import from_text, to_text, utc_now
from bot.store.connection import Tx
from bot.store.jobs import cancel_rally_tx, pending_for_rally_tx
from bot.store.messages import put_tx, take_tx
from bot.store.outbox import drop_lane_tx, finish_tx, owes_turn_prompt_tx, set_body_tx
from bot.store.rallies import set_paused_tx

log = logging.getLogger(__name__)

TURN = "turn"  # the messages-table kind of a rally's current turn message (the one with buttons)
LATE_AFTER = timedelta(minutes=5)
BACKOFF_START_S = 2.0
BACKOFF_MAX_S = 300.0
#: A post to a channel of no rally (a league's) that Discord forbids is retried for about a day
#: (every 5 minutes at most), so an organiser can restore the bot's permission before it is lost.
CHANNEL_RETRIES = 288


class Failure(enum.Enum):
    RETRY = "retry"
    TOO_LARGE = "too_large"
    FORBIDDEN = "forbidden"
    GONE = "gone"
    REFUSED = "refused"


@dataclass
class Outgoing:
    """One owed row, ready to send: its text, who is pinged, its buttons, its turn's end."""

    row: OutboxRow
    lines: list[str]
    ping: tuple[int, ...]
    turn: TurnPrompt | None
    due: datetime | None  # when the turn this prompt opens ends (shown with the prompt)
    image: dict[str, Any] | None
    late_since: datetime | None  # created long before it could be sent
    lang: str = "en"  # everybody reads it in this language (the rally's or the league's)

    @property
    def is_dm(self) -> bool:
        return self.row.user_id is not None


def backoff(attempts: int) -> timedelta:
    """2 s, 4 s, 8 s … capped at 5 minutes."""
    return timedelta(seconds=min(BACKOFF_MAX_S, BACKOFF_START_S * 2 ** max(0, attempts - 1)))


def _prompt(body: dict[str, Any]) -> TurnPrompt | None:
    turn = body.get("turn")
    if not turn:
        return None
    return TurnPrompt(int(turn["rally_id"]), int(turn["version"]), int(turn["driver_id"]), tuple(turn["options"]),
                      str(turn.get("game", DEFAULT_GAME)), tuple(str(o) for o in turn.get("certain_loss", ())))


class Delivery:
    """The outbox's bookkeeping for any sender."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime] = utc_now) -> None:
        self.work = work
        self.store = work.store
        self.clock = clock

    async def claim(self, limit: int = 20) -> list[Outgoing]:
        """The next owed row of up to `limit` lanes of this process's shards, leased to this sender."""
        now = self.clock()
        rows = await self.store.outbox.claim(now, limit=limit, shards=self.work.shards)
        return [await self.prepare(row, now) for row in rows]

    async def prepare(self, row: OutboxRow, now: datetime) -> Outgoing:
        body = row.body
        created = from_text(row.created_at)
        turn = _prompt(body)
        due = None
        if turn is not None and body.get("deadline") in ("new", "keep") and row.rally_id is not None:
            due = await self._turn_end(row.rally_id, turn, now)
        return Outgoing(row, [from_json(line) for line in body.get("lines") or []], tuple(body.get("ping") or ()),
                        turn, due, body.get("image"), created if now - created > LATE_AFTER else None,
                        str(body.get("lang") or "en"))

    async def _turn_end(self, rally_id: int, turn: TurnPrompt, now: datetime) -> datetime | None:
        """The running clock of the prompt's turn, or when it will end if it starts now."""
        pending = await self.store.jobs.for_rally(rally_id, (KIND_DEADLINE,))
        if pending:
            return from_text(pending[0].due_at)
        rally = await self.store.rallies.find(rally_id)
        if rally is None or not _current_prompt(self.work, rally, turn) or not rally.turn_deadline_s:
            return None
        return now + timedelta(seconds=rally.turn_deadline_s)

    async def sent(self, out: Outgoing, message_id: int | None) -> Message | None:
        """Record a delivery; returns the old turn message whose buttons must go, if any."""
        now = self.clock()
        row = out.row
        if row.rally_id is None or out.is_dm:
            await self.store.db.write(partial(finish_tx, row_id=row.id, outcome="sent", message_id=message_id, now=now))
            return None
        rally_id = row.rally_id
        async with self.work.locked_id(rally_id) as rally:

            async def record(tx: Tx) -> Message | None:
                await finish_tx(tx, row.id, "sent", message_id, now)
                old = None
                if out.turn is not None and message_id is not None:
                    old = await put_tx(tx, rally_id, TURN, row.channel_id, message_id)
                elif row.body.get("close_turn"):
                    old = await take_tx(tx, rally_id, TURN)
                if rally is not None and rally.status == "running":
                    if rally.paused_at is not None:
                        await set_paused_tx(tx, rally.id, None)
                        await _start_clock_if_current(tx, self.work, rally, now)
                    elif out.turn is not None and _current_prompt(self.work, rally, out.turn):
                        await start_turn_tx(tx, self.work, rally, _clock_start(out, rally, now))
                elif rally is not None and rally.paused_at is not None:
                    await set_paused_tx(tx, rally.id, None)
                return old

            return await self.store.db.write(record)

    async def failed(self, out: Outgoing, failure: Failure, *, retry_after: float | None = None,
                     error: str = "") -> None:
        """Record a failed attempt and what it changes (see the module docstring)."""
        row = out.row
        now = self.clock()
        reason = error or failure.value
        if failure is Failure.RETRY:
            wait = timedelta(seconds=retry_after) if retry_after is not None else backoff(row.attempts)
            await self.store.outbox.retry(row.id, now + wait, reason)
        elif failure is Failure.TOO_LARGE and row.body.get("image") is None and row.body.get("attach") is None:
            # Nothing left to take off (the text is capped at Discord's limit): sending the very
            # same request again cannot work, so it is dropped, never retried in a loop.
            await self.store.db.write(partial(finish_tx, row_id=row.id, outcome=f"dropped: {reason}"[:500], now=now))
        elif failure is Failure.TOO_LARGE:  # the picture and any attached file go; the text stays
            body = {k: v for k, v in dict(row.body, image=None).items() if k != "attach"}
            await self.store.db.write(partial(set_body_tx, row_id=row.id, body=body))
            await self.store.outbox.retry(row.id, now, reason)
        elif failure is Failure.REFUSED or out.is_dm:
            await self.store.db.write(partial(finish_tx, row_id=row.id, outcome=f"dropped: {reason}"[:500], now=now))
        elif row.rally_id is None:  # a league channel: no rally to pause; its posts wait or go
            if failure is Failure.FORBIDDEN and row.attempts < CHANNEL_RETRIES:
                await self.store.outbox.retry(row.id, now + backoff(row.attempts + 4), reason)
            elif failure is Failure.GONE:
                await self.store.db.write(partial(drop_lane_tx, lane=row.lane, reason=reason, now=now))
            else:
                await self.store.db.write(partial(finish_tx, row_id=row.id, outcome=f"dropped: {reason}"[:500],
                                                  now=now))
        elif failure is Failure.FORBIDDEN:
            await self._pause(row, now, reason)
        elif failure is Failure.GONE:
            await self._abandon(row, now, reason)

    async def _pause(self, row: OutboxRow, now: datetime, reason: str) -> None:
        """The bot cannot post in the channel: pause the rally, tell the host once, retry later."""
        assert row.rally_id is not None
        async with self.work.locked_id(row.rally_id) as rally:
            if rally is not None and rally.status in ("lobby", "running") and rally.paused_at is None:
                dm = Post([msg("rally.paused_host", channel=rally.channel_id, reason=reason)], user_id=rally.host_id)

                async def pause(tx: Tx, rally: Rally = rally) -> None:
                    await set_paused_tx(tx, rally.id, to_text(now))
                    await cancel_rally_tx(tx, rally.id, DEADLINE_KINDS)

                await self.work.commit(rally, Change(steps=[pause], posts=[dm]))
        await self.store.outbox.retry(row.id, now + backoff(row.attempts + 4), reason)

    async def _abandon(self, row: OutboxRow, now: datetime, reason: str) -> None:
        """The channel is gone: abandon its rally (logged), drop what it owed, tell the host."""
        assert row.rally_id is not None
        async with self.work.locked_id(row.rally_id) as rally:
            drop = partial(drop_lane_tx, lane=row.lane, reason=reason, now=now)
            if rally is None or rally.status not in ("lobby", "running"):
                await self.store.db.write(drop)
                return
            dm = Post([msg("rally.channel_lost", channel=rally.channel_id)], user_id=rally.host_id)
            change = Change(logged=[Logged(lifecycle_text(Status("abandoned")), None, None, "abandoned")], steps=[drop],
                            posts=[dm], end_turn_clock=True)
            await self.work.commit(rally, change)

    async def turn_message(self, rally_id: int) -> Message | None:
        """The rally's current turn message (the one with buttons), if one was delivered."""
        return await self.store.messages.get(rally_id, TURN)


def _clock_start(out: Outgoing, rally: Rally, now: datetime) -> datetime:
    """When the delivered prompt's clock starts: the moment the sender prepared it (so the turn
    ends exactly at the time the message shows), or now if it showed none."""
    if out.due is not None and rally.turn_deadline_s:
        return out.due - timedelta(seconds=rally.turn_deadline_s)
    return now


def _current_prompt(work: RallyWork, rally: Rally, turn: TurnPrompt) -> bool:
    """Is the prompt's driver the one whose turn it is now? (A later move of the same turn
    keeps the prompt current; a passed turn does not.) A window's prompt names no driver (0): it
    is current while anyone is still to answer."""
    if rally.status != "running" or rally.snapshot is None:
        return False
    acting = game_of(rally).rules.to_act(work.state_of(rally))
    return bool(acting) if turn.driver_id == 0 else str(turn.driver_id) in acting


async def _start_clock_if_current(tx: Tx, work: RallyWork, rally: Rally, now: datetime) -> None:
    """On resume: the current turn's clock starts now, unless its driver's prompt is still owed
    (then that prompt's own delivery starts it: nobody is charged for a turn they were not told)."""
    if await owes_turn_prompt_tx(tx, rally.id):
        return
    if not await pending_for_rally_tx(tx, rally.id, (KIND_DEADLINE,)):
        await start_turn_tx(tx, work, rally, now)
