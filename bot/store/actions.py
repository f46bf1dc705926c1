"""The action log of each rally, and `append`: the store's key operation (one action per turn step).

`append` writes the action, the new snapshot, the version bump and the status in one transaction,
or nothing at all (stale version, missing rally, finished rally).
"""

from __future__ import annotations

from bot.store.connection import Database, Tx
from bot.store.rows import ACTION_COLUMNS, Action
from bot.store.versioning import advance


class Actions:
    """Repository of the `actions` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def append(
        self,
        rally_id: int,
        expected_version: int,
        actor: int | None,
        action: str,
        snapshot_json: str,
        status: str | None = None,
    ) -> int:
        """Log `action` as number `expected_version + 1`, store the snapshot; returns the new version.

        `StaleVersion` if the rally is no longer at `expected_version` (someone acted first),
        `NotFound` if there is no such rally, `WrongStatus` if it is finished or abandoned.
        """
        async def append(tx: Tx) -> int:
            return await advance(
                tx, rally_id, expected_version, actor=actor, action=action, snapshot_json=snapshot_json, status=status
            )

        return await self._db.write(append)

    async def list(self, rally_id: int, *, after_seq: int = 0) -> list[Action]:
        """The rally's actions in order (those after `after_seq`, to catch up from a known point)."""
        rows = await self._db.fetch_all(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE rally_id = ? AND seq > ? ORDER BY seq",
            (rally_id, after_seq),
        )
        return [Action.from_row(r) for r in rows]

    async def count(self, rally_id: int | None = None) -> int:
        """Number of actions of one rally, or of all rallies."""
        if rally_id is None:
            row = await self._db.fetch_one("SELECT COUNT(*) FROM actions")
        else:
            row = await self._db.fetch_one("SELECT COUNT(*) FROM actions WHERE rally_id = ?", (rally_id,))
        return int(row[0]) if row else 0
