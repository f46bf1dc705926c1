"""Scheduled jobs: turn deadlines and reminders today, league rounds later.

`claim_due` takes due jobs atomically with `UPDATE … RETURNING` and leases them (`locked_until`):
a job whose process died before it was completed becomes claimable again when the lease ends, so
every overdue job runs after a restart, late (its `due_at` says how late). Handlers must be
idempotent. A job may name its rally (`rally_id`): the jobs of one rally are then found through
an index (`jobs_by_rally`), never by listing every pending job, and scheduling or cancelling them
happens inside the transaction of the action that causes it (the `*_tx` functions).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.store.clock import from_text, now_text, to_text, utc_now
from bot.store.connection import Database, Tx
from bot.store.errors import NotFound
from bot.store.leases import claim_leased
from bot.store.rows import JOB_COLUMNS, Job
from bot.store.shards import Shards

DEFAULT_LEASE_S = 300


async def schedule_tx(tx: Tx, kind: str, ref: str, due_at: datetime, rally_id: int | None = None,
                      guild_id: int | None = None) -> Job:
    """Inside `tx`: a new pending job; `due_at` must be timezone-aware. `guild_id`: the server it
    belongs to (a rally's is taken from the rally); None for world jobs (see `Shards`)."""
    row = await tx.fetch_one(
        "INSERT INTO jobs (kind, ref, due_at, attempts, created_at, rally_id, guild_id) "
        "VALUES (?, ?, ?, 0, ?, ?, "
        "COALESCE(?, (SELECT guild_id FROM rallies WHERE id = ?))) "
        f"RETURNING {JOB_COLUMNS}",
        (kind, ref, to_text(due_at), now_text(), rally_id, guild_id, rally_id),
    )
    assert row is not None
    return Job.from_row(row)


async def cancel_rally_tx(tx: Tx, rally_id: int, kinds: Iterable[str]) -> int:
    """Inside `tx`: delete the rally's pending jobs of these kinds (indexed by rally and kind)."""
    wanted = tuple(kinds)
    marks = ", ".join("?" for _ in wanted)
    return await tx.execute(
        f"DELETE FROM jobs WHERE rally_id = ? AND kind IN ({marks}) AND done_at IS NULL", (rally_id, *wanted)
    )


async def cancel_round_jobs_tx(tx: Tx, round_id: int) -> int:
    """Inside `tx`: drop the pending league jobs of a round (opening, reminders, close) of a round
    that was cancelled; how many."""
    return await tx.execute("DELETE FROM jobs WHERE ref LIKE ? AND kind LIKE 'league.%' AND done_at IS NULL",
                            (f"round:{round_id}:%",))


async def pending_for_rally_tx(tx: Tx, rally_id: int, kinds: Iterable[str]) -> list[Job]:
    """Inside `tx`: the rally's pending jobs of these kinds, by due time (indexed)."""
    wanted = tuple(kinds)
    marks = ", ".join("?" for _ in wanted)
    rows = await tx.fetch_all(
        f"SELECT {JOB_COLUMNS} FROM jobs WHERE rally_id = ? AND kind IN ({marks}) AND done_at IS NULL "
        "ORDER BY due_at, id",
        (rally_id, *wanted),
    )
    return [Job.from_row(r) for r in rows]


async def complete_tx(tx: Tx, job_id: int, now: datetime | None = None) -> bool:
    """Inside `tx`: mark a pending job done; False if it was not pending any more (cancelled)."""
    return await tx.execute(
        "UPDATE jobs SET done_at = ?, locked_until = NULL WHERE id = ? AND done_at IS NULL",
        (to_text(now or utc_now()), job_id),
    ) == 1


class Jobs:
    """Repository of the `jobs` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def schedule(self, kind: str, ref: str, due_at: datetime, rally_id: int | None = None) -> Job:
        """A new pending job; `ref` names its object (e.g. `rally:12:turn`). `due_at` must be timezone-aware."""
        to_text(due_at)  # refuse a naive time before opening a transaction

        async def insert(tx: Tx) -> Job:
            return await schedule_tx(tx, kind, ref, due_at, rally_id)

        return await self._db.write(insert)

    async def next_due(self, until: datetime) -> datetime | None:
        """When the earliest pending job falls due, if one does by `until` (the console's clock)."""
        row = await self._db.fetch_one("SELECT MIN(due_at) FROM jobs WHERE done_at IS NULL AND due_at <= ?",
                                       (to_text(until),))
        return from_text(row[0]) if row is not None and row[0] is not None else None

    async def claim_due(
        self, now: datetime | None = None, *, limit: int = 20, lease_s: int = DEFAULT_LEASE_S,
        shards: Shards | None = None,
    ) -> list[Job]:
        """Take up to `limit` due, unclaimed (or lease-expired) jobs of this process's `shards`,
        oldest due first; counts an attempt. Two processes claiming at once get different jobs."""
        ours = (shards or Shards.everything()).where("guild_id")
        rows = await claim_leased(
            self._db, "jobs",
            lambda tx: "SELECT id FROM jobs WHERE done_at IS NULL AND due_at <= ? "
                       f"AND (locked_until IS NULL OR locked_until <= ?) AND {ours} ORDER BY due_at, id LIMIT ?"
                       f"{tx.skip_locked('jobs')}",
            JOB_COLUMNS, now, lease_s, limit)
        return sorted((Job.from_row(r) for r in rows), key=lambda j: (j.due_at, j.id))

    async def _finish(self, job_id: int, sql: str, params: tuple[object, ...]) -> None:
        async def finish(tx: Tx) -> None:
            if await tx.execute(sql, params) != 1:
                raise NotFound("store.no_pending_job", job_id=job_id)

        await self._db.write(finish)

    async def complete(self, job_id: int, now: datetime | None = None) -> None:
        """Mark a pending job done."""
        await self._finish(
            job_id,
            "UPDATE jobs SET done_at = ?, locked_until = NULL WHERE id = ? AND done_at IS NULL",
            (to_text(now or utc_now()), job_id),
        )

    async def fail(self, job_id: int, error: str, retry_at: datetime | None = None) -> None:
        """Record a failure: retried at `retry_at`, or given up (done, with the error) when None."""
        if retry_at is None:
            sql = "UPDATE jobs SET last_error = ?, locked_until = NULL, done_at = ? WHERE id = ? AND done_at IS NULL"
            params: tuple[object, ...] = (error, now_text(), job_id)
        else:
            sql = "UPDATE jobs SET last_error = ?, locked_until = NULL, due_at = ? WHERE id = ? AND done_at IS NULL"
            params = (error, to_text(retry_at), job_id)
        await self._finish(job_id, sql, params)

    async def cancel(self, kind: str, ref: str) -> int:
        """Delete the pending jobs of (`kind`, `ref`)."""

        async def cancel(tx: Tx) -> int:
            return await tx.execute("DELETE FROM jobs WHERE kind = ? AND ref = ? AND done_at IS NULL", (kind, ref))

        return await self._db.write(cancel)

    async def prune(self, before: datetime) -> int:
        """Forget jobs done before `before`; returns how many. Pending jobs stay."""

        async def prune(tx: Tx) -> int:
            return await tx.execute("DELETE FROM jobs WHERE done_at IS NOT NULL AND done_at < ?", (to_text(before),))

        return await self._db.write(prune)

    async def get(self, job_id: int) -> Job:
        row = await self._db.fetch_one(f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
        if row is None:
            raise NotFound("store.no_job", job_id=job_id)
        return Job.from_row(row)

    async def for_rally(self, rally_id: int, kinds: Iterable[str]) -> list[Job]:
        """The rally's pending jobs of these kinds (indexed by rally and kind)."""
        return await self._db.read_one(lambda tx: pending_for_rally_tx(tx, rally_id, kinds))

    async def pending(self, kind: str | None = None) -> list[Job]:
        """Jobs not done yet, by due time (tools and tests; the services ask `for_rally`)."""
        sql = f"SELECT {JOB_COLUMNS} FROM jobs WHERE done_at IS NULL"
        params: tuple[object, ...] = ()
        if kind is not None:
            sql += " AND kind = ?"
            params = (kind,)
        rows = await self._db.fetch_all(sql + " ORDER BY due_at, id", params)
        return [Job.from_row(r) for r in rows]
