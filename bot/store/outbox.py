"""The outbox: every message the bot owes a channel or a user, until it is delivered once.

A service writes a row (`enqueue_tx`) in the same transaction as the change that makes the
message due, so a committed action can never lose its post, and a refused one never leaves one.
A sender (`claim`) takes the oldest owed row of each lane (`channel:<id>` or `dm:<user>`) and
leases it; later rows of the same lane wait, so a channel reads its posts in order. The sender
then records the outcome: `finish_tx` (sent, or dropped with a reason), `retry` (not before a
time: 429, 5xx, a channel the bot cannot reach), `drop_lane_tx` (the channel was deleted).
A lease that runs out (the process died mid-send) makes the row claimable again.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from bot.store.clock import to_text, utc_now
from bot.store.connection import Database, Tx
from bot.store.leases import claim_leased
from bot.store.rows import OUTBOX_COLUMNS, OutboxRow
from bot.store.shards import Shards

DEFAULT_LEASE_S = 120


def lane_of(channel_id: int, user_id: int | None = None) -> str:
    """The delivery order a row belongs to: one per channel, one per user for DMs."""
    return f"dm:{user_id}" if user_id is not None else f"channel:{channel_id}"


async def enqueue_tx(tx: Tx, *, guild_id: int, channel_id: int, kind: str, body: dict[str, Any],
                     rally_id: int | None = None, user_id: int | None = None,
                     now: datetime | None = None) -> int:
    """Inside `tx`: owe one message; returns its id (ids order the deliveries of a lane)."""
    moment = to_text(now or utc_now())
    row = await tx.fetch_one(
        "INSERT INTO outbox (rally_id, guild_id, channel_id, user_id, lane, kind, body, created_at, due_at, attempts) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id",
        (rally_id, guild_id, channel_id, user_id, lane_of(channel_id, user_id), kind,
         json.dumps(body, sort_keys=True, ensure_ascii=False), moment, moment),
    )
    assert row is not None
    return int(row[0])


async def get_tx(tx: Tx, row_id: int) -> OutboxRow | None:
    row = await tx.fetch_one(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (row_id,))
    return OutboxRow.from_row(row) if row else None


async def finish_tx(tx: Tx, row_id: int, outcome: str, message_id: int | None = None,
                    now: datetime | None = None) -> bool:
    """Inside `tx`: the row is done (`sent`, or `dropped: why`); False if it was done already."""
    return await tx.execute(
        "UPDATE outbox SET done_at = ?, outcome = ?, message_id = ?, locked_until = NULL "
        "WHERE id = ? AND done_at IS NULL",
        (to_text(now or utc_now()), outcome, message_id, row_id),
    ) == 1


async def drop_lane_tx(tx: Tx, lane: str, reason: str, now: datetime | None = None) -> int:
    """Inside `tx`: give up every owed row of a lane (its channel no longer exists)."""
    return await tx.execute(
        "UPDATE outbox SET done_at = ?, outcome = ?, locked_until = NULL WHERE lane = ? AND done_at IS NULL",
        (to_text(now or utc_now()), f"dropped: {reason}", lane),
    )


async def owes_turn_prompt_tx(tx: Tx, rally_id: int) -> bool:
    """Inside `tx`: does the rally still owe a turn prompt (a `turn` row not delivered)?"""
    row = await tx.fetch_one("SELECT 1 FROM outbox WHERE rally_id = ? AND kind = 'turn' AND done_at IS NULL LIMIT 1",
                             (rally_id,))
    return row is not None


async def set_body_tx(tx: Tx, row_id: int, body: dict[str, Any]) -> None:
    """Inside `tx`: rewrite what a row will send (e.g. without its image after a 413)."""
    await tx.execute("UPDATE outbox SET body = ? WHERE id = ?",
                     (json.dumps(body, sort_keys=True, ensure_ascii=False), row_id))


class Outbox:
    """Repository of the `outbox` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, now: datetime | None = None, *, limit: int = 20,
                    lease_s: int = DEFAULT_LEASE_S, shards: Shards | None = None) -> list[OutboxRow]:
        """Lease the oldest owed row of up to `limit` lanes of this process's `shards` whose head is
        due; counts an attempt. Two processes claiming at once get different rows; `o.done_at IS
        NULL` is checked on the row itself too, so a head another process finished meanwhile is
        not taken again (PostgreSQL re-checks a locked row's own conditions, not the subquery's)."""
        ours = (shards or Shards.everything()).where("o.guild_id")
        rows = await claim_leased(
            self._db, "outbox",
            lambda tx: "SELECT o.id FROM outbox o WHERE o.id IN "
                       "(SELECT MIN(id) FROM outbox WHERE done_at IS NULL GROUP BY lane) AND o.done_at IS NULL "
                       f"AND o.due_at <= ? AND (o.locked_until IS NULL OR o.locked_until <= ?) AND {ours} "
                       f"ORDER BY o.id LIMIT ?{tx.skip_locked('o')}",
            OUTBOX_COLUMNS, now, lease_s, limit)
        return sorted((OutboxRow.from_row(r) for r in rows), key=lambda r: r.id)

    async def retry(self, row_id: int, not_before: datetime, error: str) -> None:
        """Release the row, to be tried again at `not_before` (the rest of its lane waits)."""

        async def retry(tx: Tx) -> None:
            await tx.execute(
                "UPDATE outbox SET locked_until = NULL, due_at = ?, last_error = ? WHERE id = ? AND done_at IS NULL",
                (to_text(not_before), error[:500], row_id),
            )

        await self._db.write(retry)

    async def get(self, row_id: int) -> OutboxRow | None:
        return await self._db.read(lambda tx: get_tx(tx, row_id))

    async def owed(self, *, lane: str | None = None, rally_id: int | None = None) -> list[OutboxRow]:
        """Rows not delivered yet, in order (optionally of one lane or one rally)."""
        sql = f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE done_at IS NULL"
        params: list[object] = []
        if lane is not None:
            sql += " AND lane = ?"
            params.append(lane)
        if rally_id is not None:
            sql += " AND rally_id = ?"
            params.append(rally_id)
        rows = await self._db.fetch_all(sql + " ORDER BY id", params)
        return [OutboxRow.from_row(r) for r in rows]

    async def all(self) -> list[OutboxRow]:
        """Every row, delivered or not, in order (tools and tests)."""
        rows = await self._db.fetch_all(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY id")
        return [OutboxRow.from_row(r) for r in rows]

    async def prune(self, before: datetime) -> int:
        """Forget rows delivered (or dropped) before `before`; returns how many. Owed rows stay."""

        async def prune(tx: Tx) -> int:
            return await tx.execute("DELETE FROM outbox WHERE done_at IS NOT NULL AND done_at < ?",
                                    (to_text(before),))

        return await self._db.write(prune)

    async def count_owed(self) -> int:
        row = await self._db.fetch_one("SELECT COUNT(*) FROM outbox WHERE done_at IS NULL")
        return int(row[0]) if row else 0



