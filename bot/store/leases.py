"""Leasing queued rows (jobs, outbox posts) to the process that will do them: one statement moves
the rows' `locked_until` on and counts an attempt, so two processes claiming at once get
different rows, and a lease that runs out frees its row for another."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from bot.store.clock import to_text, utc_now
from bot.store.connection import Database, Tx


async def claim_leased(db: Database, table: str, due: Callable[[Tx], str], columns: str, now: datetime | None,
                       lease_s: int, limit: int) -> list[Any]:
    """Lease for `lease_s` seconds from `now` (default: the clock) the rows of `table` whose ids the
    subquery `due(tx)` selects (its `?`: now, now again, then `limit`); the rows as leased, their
    `columns`."""
    moment = now or utc_now()
    now_s, until = to_text(moment), to_text(moment + timedelta(seconds=lease_s))

    async def claim(tx: Tx) -> list[Any]:
        return await tx.fetch_all(
            f"UPDATE {table} SET locked_until = ?, attempts = attempts + 1 WHERE id IN ({due(tx)}) "
            f"RETURNING {columns}",
            (until, now_s, now_s, limit),
        )

    return await db.write_one(claim)  # one statement: its own transaction
