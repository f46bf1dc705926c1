"""What the repositories return: small frozen records, one per table, built from SQL rows.

Timestamps stay as the stored UTC text (see `clock`); JSON columns come back parsed, except the
game snapshot, which stays the exact text the engine wrote (it is the engine's to parse).
`as_dict()` gives plain dicts for JSON, replay and tests.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Self

from bot.store.clock import millis_text

RALLY_STATUSES = ("lobby", "running", "finished", "abandoned")
ACTIVE_STATUSES = ("lobby", "running")
DRIVER_STATUSES = ("active", "left", "kicked")

RALLY_COLUMNS = (
    "id, guild_id, channel_id, host_id, stage, ruleset, modules, seed, max_drivers, "
    "turn_deadline_s, status, version, snapshot, created_at, updated_at, paused_at, game, secret, "
    "deal_sha256"
)
DRIVER_COLUMNS = "rally_id, user_id, display_name, seat, joined_at, missed_turns, status"
ACTION_COLUMNS = "rally_id, seq, actor, action, created_at"
MESSAGE_COLUMNS = "rally_id, kind, channel_id, message_id, created_at"
JOB_COLUMNS = "id, kind, ref, due_at, done_at, locked_until, attempts, last_error, created_at, rally_id, guild_id"
OUTBOX_COLUMNS = (
    "id, rally_id, guild_id, channel_id, user_id, lane, kind, body, created_at, due_at, locked_until, "
    "attempts, last_error, done_at, outcome, message_id"
)


class _Record:
    __slots__ = ()

    @classmethod
    def from_row(cls, row: Any) -> Self:
        """The record of a row read with its table's `*_COLUMNS`, in that order (records whose
        columns need parsing override this)."""
        return cls(*tuple(row))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]


@dataclass(frozen=True, slots=True)
class Rally(_Record):
    """A rally: its settings, lifecycle status, and the versioned game snapshot."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    stage: str
    ruleset: str
    modules: Any
    seed: int
    max_drivers: int
    turn_deadline_s: int | None
    status: str
    version: int
    snapshot: str | None
    created_at: str
    updated_at: str
    paused_at: str | None = None  # the bot cannot post in the channel: no AI turns, no deadlines
    game: str = "rallyman"  # the game it is played in (`bot.games`; every rally before: classic)
    #: the key of its hidden deal (64 hex digits, `bot.engine.core.secret_dice`), never shown;
    #: None for a rally made before deals had their own key (its deal comes from `seed`)
    secret: str | None = None
    deal_sha256: str | None = None  # the commitment to `secret` published at the start

    @classmethod
    def from_row(cls, row: Any) -> Rally:
        values = dict(zip(RALLY_COLUMNS.split(", "), tuple(row)))
        values["modules"] = json.loads(values["modules"])
        return cls(**values)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES


@dataclass(frozen=True, slots=True)
class Driver(_Record):
    """A driver's seat in a rally."""

    rally_id: int
    user_id: int
    display_name: str
    seat: int
    joined_at: str
    missed_turns: int
    status: str


@dataclass(frozen=True, slots=True)
class Action(_Record):
    """One entry of a rally's action log; `actor` is None for the bot itself (deadlines...)."""

    rally_id: int
    seq: int
    actor: int | None
    action: str
    created_at: str  # stored as milliseconds (`bot.store.clock`), shown as the store's time text

    @classmethod
    def from_row(cls, row: Any) -> Action:
        rally_id, seq, actor, action, created_at = tuple(row)
        shown = millis_text(created_at) if isinstance(created_at, int) else created_at
        return cls(rally_id, seq, actor, action, shown)


@dataclass(frozen=True, slots=True)
class Message(_Record):
    """A Discord message the bot posted for a rally and must find again (the turn message...)."""

    rally_id: int
    kind: str
    channel_id: int
    message_id: int
    created_at: str


@dataclass(frozen=True, slots=True)
class Job(_Record):
    """A scheduled job (turn deadline, stage opening...); pending while `done_at` is None."""

    id: int
    kind: str
    ref: str
    due_at: str
    done_at: str | None
    locked_until: str | None
    attempts: int
    last_error: str | None
    created_at: str
    rally_id: int | None = None
    guild_id: int | None = None  # the server it belongs to; None: a world job (see `Shards`)


@dataclass(frozen=True, slots=True)
class OutboxRow(_Record):
    """A message the bot owes a channel (or a user, by DM); owed while `done_at` is None.

    `lane` orders delivery: rows of one lane (`channel:<id>` or `dm:<user>`) go out in id order.
    `body` is the JSON the services wrote (lines, ping, turn, image...); `outcome` is `sent` or
    `dropped: <why>` once done."""

    id: int
    rally_id: int | None
    guild_id: int
    channel_id: int
    user_id: int | None
    lane: str
    kind: str
    body: Any
    created_at: str
    due_at: str
    locked_until: str | None
    attempts: int
    last_error: str | None
    done_at: str | None
    outcome: str | None
    message_id: int | None

    @classmethod
    def from_row(cls, row: Any) -> OutboxRow:
        values = list(tuple(row))
        values[7] = json.loads(values[7])
        return cls(*values)
