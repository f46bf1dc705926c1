"""Drivers of a rally: join, leave, kick, seats and missed turns.

The roster is guarded in the same transaction as the change: joining checks the rally is in the
lobby, the driver is not already in, and a seat is free, under the rally's lock (`Tx.lock`, so
across processes too), so two people taking the last seat at the same moment cannot both get it.
Roster changes do not bump the rally's version (the version counts the action log); a driver who
leaves or is kicked once the rally runs keeps the row, with status `left`/`kicked`, so results
and the replay still know them.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from functools import partial

from bot.store.clock import now_text
from bot.store.connection import Database, Tx
from bot.store.errors import AlreadyJoined, NotFound, RallyFull, WrongStatus
from bot.store.rows import DRIVER_COLUMNS, Driver

_SEAT_SHIFT = 1000  # temporary offset while renumbering seats (UNIQUE is checked row by row)


async def _rally_status(tx: Tx, rally_id: int) -> tuple[str, int]:
    """The rally's status and size, read under its lock: the roster change that follows is the only one."""
    await tx.lock("rally", rally_id)
    row = await tx.fetch_one("SELECT status, max_drivers FROM rallies WHERE id = ?", (rally_id,))
    if row is None:
        raise NotFound("store.no_rally", rally_id=rally_id)
    return row["status"], row["max_drivers"]


async def _require_active(tx: Tx, rally_id: int) -> str:
    status, _ = await _rally_status(tx, rally_id)
    if status not in ("lobby", "running"):
        raise WrongStatus("store.drivers_frozen", rally_id=rally_id, status=status)
    return status


def _not_in(rally_id: int, user_id: int, key: str) -> NotFound:
    return NotFound(key, rally_id=rally_id, user_id=user_id)


async def join_tx(tx: Tx, rally_id: int, user_id: int, display_name: str) -> Driver:
    """Inside `tx`: seat the driver in the lowest free seat of a rally in the lobby."""
    status, max_drivers = await _rally_status(tx, rally_id)
    if status != "lobby":
        raise WrongStatus("store.join_lobby_only", rally_id=rally_id, status=status)
    rows = await tx.fetch_all("SELECT user_id, seat FROM drivers WHERE rally_id = ?", (rally_id,))
    mine = [r["seat"] for r in rows if r["user_id"] == user_id]
    if mine:
        raise AlreadyJoined("store.already_joined", rally_id=rally_id, seat=mine[0])
    taken = {r["seat"] for r in rows}
    free = [seat for seat in range(1, max_drivers + 1) if seat not in taken]
    if not free:
        raise RallyFull("store.rally_full", rally_id=rally_id, max_drivers=max_drivers)
    row = await tx.fetch_one(
        "INSERT INTO drivers (rally_id, user_id, display_name, seat, joined_at, missed_turns, status) "
        f"VALUES (?, ?, ?, ?, ?, 0, 'active') RETURNING {DRIVER_COLUMNS}",
        (rally_id, user_id, display_name, free[0], now_text()),
    )
    assert row is not None
    return Driver.from_row(row)


async def remove_tx(tx: Tx, rally_id: int, user_id: int, new_status: str, absent: str) -> None:
    """Inside `tx`: free the seat (lobby) or mark the driver `left`/`kicked` (running rally)."""
    status = await _require_active(tx, rally_id)
    row = await tx.fetch_one("SELECT status FROM drivers WHERE rally_id = ? AND user_id = ?", (rally_id, user_id))
    if row is None or row["status"] != "active":
        raise _not_in(rally_id, user_id, absent)
    if status == "lobby":
        await tx.execute("DELETE FROM drivers WHERE rally_id = ? AND user_id = ?", (rally_id, user_id))
    else:
        await tx.execute(
            "UPDATE drivers SET status = ? WHERE rally_id = ? AND user_id = ?", (new_status, rally_id, user_id)
        )


async def get_tx(tx: Tx, rally_id: int, user_id: int) -> Driver | None:
    row = await tx.fetch_one(
        f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ? AND user_id = ?", (rally_id, user_id)
    )
    return Driver.from_row(row) if row else None


async def add_missed_turn_tx(tx: Tx, rally_id: int, user_id: int) -> int:
    """Inside `tx`: one more missed turn (deadline passed); returns the new count."""
    row = await tx.fetch_one(
        "UPDATE drivers SET missed_turns = missed_turns + 1 WHERE rally_id = ? AND user_id = ? RETURNING missed_turns",
        (rally_id, user_id),
    )
    if row is None:
        raise _not_in(rally_id, user_id, "store.driver_not_in")
    return int(row[0])


async def reset_missed_turns_tx(tx: Tx, rally_id: int, user_id: int) -> bool:
    """Inside `tx`: the driver played, so their missed-turn count starts again; False if not a driver."""
    return await tx.execute(
        "UPDATE drivers SET missed_turns = 0 WHERE rally_id = ? AND user_id = ? AND missed_turns > 0",
        (rally_id, user_id),
    ) == 1


class Drivers:
    """Repository of the `drivers` table (each change also exists as a `*_tx` function of this
    module, for a service that puts it in a larger transaction)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def join(self, rally_id: int, user_id: int, display_name: str) -> Driver:
        """Seat the driver in the lowest free seat of a rally in the lobby."""
        return await self._db.write(partial(join_tx, rally_id=rally_id, user_id=user_id, display_name=display_name))

    async def leave(self, rally_id: int, user_id: int) -> None:
        """Leave: in the lobby the seat is freed; in a running rally the driver is marked `left`."""
        await self._db.write(partial(remove_tx, rally_id=rally_id, user_id=user_id, new_status="left",
                                     absent="store.you_are_not_in"))

    async def kick(self, rally_id: int, user_id: int) -> None:
        """Remove another driver: freed in the lobby, marked `kicked` in a running rally."""
        await self._db.write(partial(remove_tx, rally_id=rally_id, user_id=user_id, new_status="kicked",
                                     absent="store.driver_not_in"))

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

    async def set_seats(self, rally_id: int, user_ids: Sequence[int]) -> builtins.list[Driver]:
        """Renumber seats 1..n in the order of `user_ids`, which must name every driver once."""
        order = list(user_ids)

        async def renumber(tx: Tx) -> builtins.list[Driver]:
            await _require_active(tx, rally_id)
            current = [r[0] for r in await tx.fetch_all("SELECT user_id FROM drivers WHERE rally_id = ?", (rally_id,))]
            if sorted(current) != sorted(order) or len(set(order)) != len(order):
                raise ValueError(f"set_seats needs each driver of rally #{rally_id} exactly once: {sorted(current)}")
            await tx.execute("UPDATE drivers SET seat = seat + ? WHERE rally_id = ?", (_SEAT_SHIFT, rally_id))
            await tx.execute_many(
                "UPDATE drivers SET seat = ? WHERE rally_id = ? AND user_id = ?",
                [(seat, rally_id, user) for seat, user in enumerate(order, start=1)],
            )
            rows = await tx.fetch_all(
                f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ? ORDER BY seat", (rally_id,)
            )
            return [Driver.from_row(r) for r in rows]

        return await self._db.write(renumber)

    async def add_missed_turn(self, rally_id: int, user_id: int) -> int:
        """Count one more missed turn (deadline passed); returns the new count."""
        return await self._db.write(partial(add_missed_turn_tx, rally_id=rally_id, user_id=user_id))

    async def reset_missed_turns(self, rally_id: int, user_id: int) -> None:
        """The driver played: their missed-turn count starts again from zero."""

        async def reset(tx: Tx) -> None:
            if await get_tx(tx, rally_id, user_id) is None:
                raise _not_in(rally_id, user_id, "store.driver_not_in")
            await reset_missed_turns_tx(tx, rally_id, user_id)

        await self._db.write(reset)
