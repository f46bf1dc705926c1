"""Drivers of a rally: join, leave, kick, seats and missed turns.

The roster is guarded in the same transaction as the change: joining checks the rally is in the
lobby, the driver is not already in, and a seat is free, so two people taking the last seat at the
same moment cannot both get it. Roster changes do not bump the rally's version (the version
counts the action log); a driver who leaves or is kicked once the rally runs keeps the row, with
status `left`/`kicked`, so results and the replay still know them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.clock import now_text
from bot.store.connection import Database, Tx
from bot.store.errors import AlreadyJoined, NotFound, RallyFull, WrongStatus
from bot.store.rows import DRIVER_COLUMNS, Driver

_SEAT_SHIFT = 1000  # temporary offset while renumbering seats (UNIQUE is checked row by row)


def _rally_status(tx: Tx, rally_id: int) -> tuple[str, int]:
    row = tx.fetch_one("SELECT status, max_drivers FROM rallies WHERE id = ?", (rally_id,))
    if row is None:
        raise NotFound("store.no_rally", rally_id=rally_id)
    return row["status"], row["max_drivers"]


def _require_active(tx: Tx, rally_id: int) -> str:
    status, _ = _rally_status(tx, rally_id)
    if status not in ("lobby", "running"):
        raise WrongStatus("store.drivers_frozen", rally_id=rally_id, status=status)
    return status


def _not_in(rally_id: int, user_id: int, key: str) -> NotFound:
    return NotFound(key, rally_id=rally_id, user_id=user_id)


class Drivers:
    """Repository of the `drivers` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def join(self, rally_id: int, user_id: int, display_name: str) -> Driver:
        """Seat the driver in the lowest free seat of a rally in the lobby."""

        def join(tx: Tx) -> Driver:
            status, max_drivers = _rally_status(tx, rally_id)
            if status != "lobby":
                raise WrongStatus("store.join_lobby_only", rally_id=rally_id, status=status)
            rows = tx.fetch_all("SELECT user_id, seat FROM drivers WHERE rally_id = ?", (rally_id,))
            mine = [r["seat"] for r in rows if r["user_id"] == user_id]
            if mine:
                raise AlreadyJoined("store.already_joined", rally_id=rally_id, seat=mine[0])
            taken = {r["seat"] for r in rows}
            free = [seat for seat in range(1, max_drivers + 1) if seat not in taken]
            if not free:
                raise RallyFull("store.rally_full", rally_id=rally_id, max_drivers=max_drivers)
            row = tx.fetch_one(
                "INSERT INTO drivers (rally_id, user_id, display_name, seat, joined_at, missed_turns, status) "
                f"VALUES (?, ?, ?, ?, ?, 0, 'active') RETURNING {DRIVER_COLUMNS}",
                (rally_id, user_id, display_name, free[0], now_text()),
            )
            assert row is not None
            return Driver.from_row(row)

        return await self._db.write(join)

    async def _remove(self, rally_id: int, user_id: int, new_status: str, absent: str) -> None:
        def remove(tx: Tx) -> None:
            status = _require_active(tx, rally_id)
            row = tx.fetch_one("SELECT status FROM drivers WHERE rally_id = ? AND user_id = ?", (rally_id, user_id))
            if row is None or row["status"] != "active":
                raise _not_in(rally_id, user_id, absent)
            if status == "lobby":
                tx.execute("DELETE FROM drivers WHERE rally_id = ? AND user_id = ?", (rally_id, user_id))
            else:
                tx.execute(
                    "UPDATE drivers SET status = ? WHERE rally_id = ? AND user_id = ?", (new_status, rally_id, user_id)
                )

        await self._db.write(remove)

    async def leave(self, rally_id: int, user_id: int) -> None:
        """Leave: in the lobby the seat is freed; in a running rally the driver is marked `left`."""
        await self._remove(rally_id, user_id, "left", "store.you_are_not_in")

    async def kick(self, rally_id: int, user_id: int) -> None:
        """Remove another driver: freed in the lobby, marked `kicked` in a running rally."""
        await self._remove(rally_id, user_id, "kicked", "store.driver_not_in")

    async def get(self, rally_id: int, user_id: int) -> Driver | None:
        row = await self._db.fetch_one(
            f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ? AND user_id = ?", (rally_id, user_id)
        )
        return Driver.from_row(row) if row else None

    async def list(self, rally_id: int, *, active_only: bool = False) -> list[Driver]:
        """The rally's drivers by seat."""
        sql = f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ?"
        if active_only:
            sql += " AND status = 'active'"
        rows = await self._db.fetch_all(sql + " ORDER BY seat", (rally_id,))
        return [Driver.from_row(r) for r in rows]

    async def set_seats(self, rally_id: int, user_ids: Sequence[int]) -> list[Driver]:
        """Renumber seats 1..n in the order of `user_ids`, which must name every driver once."""
        order = list(user_ids)

        def renumber(tx: Tx) -> list[Driver]:
            _require_active(tx, rally_id)
            current = [r[0] for r in tx.fetch_all("SELECT user_id FROM drivers WHERE rally_id = ?", (rally_id,))]
            if sorted(current) != sorted(order) or len(set(order)) != len(order):
                raise ValueError(f"set_seats needs each driver of rally #{rally_id} exactly once: {sorted(current)}")
            tx.execute("UPDATE drivers SET seat = seat + ? WHERE rally_id = ?", (_SEAT_SHIFT, rally_id))
            tx.execute_many(
                "UPDATE drivers SET seat = ? WHERE rally_id = ? AND user_id = ?",
                [(seat, rally_id, user) for seat, user in enumerate(order, start=1)],
            )
            rows = tx.fetch_all(f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ? ORDER BY seat", (rally_id,))
            return [Driver.from_row(r) for r in rows]

        return await self._db.write(renumber)

    async def add_missed_turn(self, rally_id: int, user_id: int) -> int:
        """Count one more missed turn (deadline passed); returns the new count."""

        def add(tx: Tx) -> int:
            row = tx.fetch_one(
                "UPDATE drivers SET missed_turns = missed_turns + 1 WHERE rally_id = ? AND user_id = ? "
                "RETURNING missed_turns",
                (rally_id, user_id),
            )
            if row is None:
                raise _not_in(rally_id, user_id, "store.driver_not_in")
            return int(row[0])

        return await self._db.write(add)

    async def reset_missed_turns(self, rally_id: int, user_id: int) -> None:
        """The driver played: their missed-turn count starts again from zero."""

        def reset(tx: Tx) -> None:
            changed = tx.execute(
                "UPDATE drivers SET missed_turns = 0 WHERE rally_id = ? AND user_id = ?", (rally_id, user_id)
            )
            if changed != 1:
                raise _not_in(rally_id, user_id, "store.driver_not_in")

        await self._db.write(reset)
