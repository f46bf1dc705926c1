"""Discord messages the bot must find again for a rally: one current message per kind.

For example `turn` (the message with the buttons of the current turn) or `lobby`. `put` replaces
the previous message of that kind and returns it, so the Discord layer can remove its buttons.
"""

from __future__ import annotations

from bot.store.clock import now_text
from bot.store.connection import Database, Tx
from bot.store.errors import NotFound
from bot.store.rows import MESSAGE_COLUMNS, Message


async def put_tx(tx: Tx, rally_id: int, kind: str, channel_id: int, message_id: int) -> Message | None:
    """Inside `tx`: record the current message of `kind`; returns the one it replaces (another
    message), if any. `NotFound` if the rally does not exist."""
    found = await _replace_tx(tx, rally_id, kind, channel_id, message_id)
    return found if found is not None and found.message_id != message_id else None


async def _replace_tx(tx: Tx, rally_id: int, kind: str, channel_id: int, message_id: int) -> Message | None:
    """Inside `tx`: record the message of `kind`; returns the row it replaced (maybe the same id)."""
    if await tx.fetch_one("SELECT id FROM rallies WHERE id = ?", (rally_id,)) is None:
        raise NotFound("store.no_rally", rally_id=rally_id)
    old = await tx.fetch_one(
        f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rally_id = ? AND kind = ?", (rally_id, kind)
    )
    await tx.execute(
        "INSERT INTO messages (rally_id, kind, channel_id, message_id, created_at) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (rally_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
        "message_id = excluded.message_id, created_at = excluded.created_at",
        (rally_id, kind, channel_id, message_id, now_text()),
    )
    return Message.from_row(old) if old else None


async def take_tx(tx: Tx, rally_id: int, kind: str) -> Message | None:
    """Inside `tx`: forget the message of `kind` and return it (None if there was none)."""
    old = await tx.fetch_one(
        f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rally_id = ? AND kind = ?", (rally_id, kind)
    )
    if old is None:
        return None
    await tx.execute("DELETE FROM messages WHERE rally_id = ? AND kind = ?", (rally_id, kind))
    return Message.from_row(old)


class Messages:
    """Repository of the `messages` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def put(self, rally_id: int, kind: str, channel_id: int, message_id: int) -> Message | None:
        """Record the current message of `kind`; returns the one it replaces, if any."""

        async def put(tx: Tx) -> Message | None:
            return await _replace_tx(tx, rally_id, kind, channel_id, message_id)

        return await self._db.write(put)

    async def get(self, rally_id: int, kind: str) -> Message | None:
        row = await self._db.fetch_one(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rally_id = ? AND kind = ?", (rally_id, kind)
        )
        return Message.from_row(row) if row else None

    async def list(self, rally_id: int) -> list[Message]:
        rows = await self._db.fetch_all(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE rally_id = ? ORDER BY kind", (rally_id,)
        )
        return [Message.from_row(r) for r in rows]

    async def delete(self, rally_id: int, kind: str) -> bool:
        """Forget the message of `kind`; False if there was none."""
        async def delete(tx: Tx) -> bool:
            return await tx.execute("DELETE FROM messages WHERE rally_id = ? AND kind = ?", (rally_id, kind)) == 1

        return await self._db.write(delete)
