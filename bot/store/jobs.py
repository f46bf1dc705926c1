"""Scheduled jobs for the deadline scheduler (turn deadlines, league stage opening and closing).

Only the table and its helpers live here; the loop and the handlers come with the scheduler.
`claim_due` takes due jobs atomically with `UPDATE … RETURNING` and leases them (`locked_until`):
a job whose process died before `complete` becomes claimable again when the lease ends, so every
overdue job runs after a restart, late (its `due_at` says how late). Handlers must be idempotent.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.store.clock import now_text, to_text, utc_now
from bot.store.connection import Database, Tx
from bot.store.errors import NotFound
from bot.store.rows import JOB_COLUMNS, Job

DEFAULT_LEASE_S = 300


class Jobs:
    """Repository of the `jobs` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def schedule(self, kind: str, ref: str, due_at: datetime) -> Job:
        """A new pending job; `ref` names its object (e.g. `rally:12:v40`). `due_at` must be timezone-aware."""
        values = (kind, ref, to_text(due_at), now_text())

        def insert(tx: Tx) -> Job:
            row = tx.fetch_one(
                "INSERT INTO jobs (kind, ref, due_at, attempts, created_at) VALUES (?, ?, ?, 0, ?) "
                f"RETURNING {JOB_COLUMNS}",
                values,
            )
            assert row is not None
            return Job.from_row(row)

        return await self._db.write(insert)

    async def claim_due(
        self, now: datetime | None = None, *, limit: int = 20, lease_s: int = DEFAULT_LEASE_S
    ) -> list[Job]:
        """Take up to `limit` due, unclaimed (or lease-expired) jobs, oldest due first; counts an attempt."""
        moment = now or utc_now()
        now_s = to_text(moment)
        until = to_text(moment + timedelta(seconds=lease_s))
        rows = await self._db.write(
            lambda tx: tx.fetch_all(
                "UPDATE jobs SET locked_until = ?, attempts = attempts + 1 WHERE id IN ("
                "SELECT id FROM jobs WHERE done_at IS NULL AND due_at <= ? "
                "AND (locked_until IS NULL OR locked_until <= ?) ORDER BY due_at, id LIMIT ?"
                f") RETURNING {JOB_COLUMNS}",
                (until, now_s, now_s, limit),
            )
        )
        return sorted((Job.from_row(r) for r in rows), key=lambda j: (j.due_at, j.id))

    async def _finish(self, job_id: int, sql: str, params: tuple[object, ...]) -> None:
        def finish(tx: Tx) -> None:
            if tx.execute(sql, params) != 1:
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
        """Delete the pending jobs of (`kind`, `ref`), e.g. the old deadline once a turn is played."""
        return await self._db.write(
            lambda tx: tx.execute("DELETE FROM jobs WHERE kind = ? AND ref = ? AND done_at IS NULL", (kind, ref))
        )

    async def get(self, job_id: int) -> Job:
        row = await self._db.fetch_one(f"SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
        if row is None:
            raise NotFound("store.no_job", job_id=job_id)
        return Job.from_row(row)

    async def pending(self, kind: str | None = None) -> list[Job]:
        """Jobs not done yet, by due time."""
        sql = f"SELECT {JOB_COLUMNS} FROM jobs WHERE done_at IS NULL"
        params: tuple[object, ...] = ()
        if kind is not None:
            sql += " AND kind = ?"
            params = (kind,)
        rows = await self._db.fetch_all(sql + " ORDER BY due_at, id", params)
        return [Job.from_row(r) for r in rows]
