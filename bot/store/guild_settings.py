"""Per-server settings (language, default turn deadline, league channel...) as one JSON object.

The store does not know the keys: the services validate them (pydantic). `update` merges in one
transaction under the server's lock (`Tx.lock`), so two admins changing different keys at once,
even through two processes, both keep their change.
"""

from __future__ import annotations

import json
from typing import Any

from bot.store.clock import now_text
from bot.store.connection import Database, Tx

_UPSERT = (
    "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at"
)


def _encode(settings: dict[str, Any]) -> str:
    if not isinstance(settings, dict):
        raise TypeError(f"guild settings must be a dict, got {type(settings).__name__}")
    return json.dumps(settings, sort_keys=True)


async def _read(tx: Tx, guild_id: int) -> dict[str, Any]:
    row = await tx.fetch_one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return json.loads(row[0]) if row else {}


class GuildSettings:
    """Repository of the `guild_settings` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, guild_id: int) -> dict[str, Any]:
        """The server's settings; `{}` for a server that never set any."""
        row = await self._db.fetch_one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def put(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Replace all of the server's settings."""
        text = _encode(settings)
        async def put(tx: Tx) -> None:
            await tx.execute(_UPSERT, (guild_id, text, now_text()))

        await self._db.write(put)

    async def update(self, guild_id: int, **changes: Any) -> dict[str, Any]:
        """Merge `changes` into the stored settings (a value of None removes the key); returns the result."""

        async def merge(tx: Tx) -> dict[str, Any]:
            await tx.lock("guild", guild_id)  # another process merging at once waits, then reads this
            merged = await _read(tx, guild_id)
            for key, value in changes.items():
                if value is None:
                    merged.pop(key, None)
                else:
                    merged[key] = value
            await tx.execute(_UPSERT, (guild_id, _encode(merged), now_text()))
            return merged

        return await self._db.write(merge)


async def hidden_world_names_tx(tx: Tx, guilds: set[int]) -> set[int]:
    """Servers among `guilds` that chose not to show their name in the world ranking
    (`/league settings world_name:off`)."""
    if not guilds:
        return set()
    marks = ", ".join("?" for _ in guilds)
    rows = await tx.fetch_all(f"SELECT guild_id, settings FROM guild_settings WHERE guild_id IN ({marks})",
                              tuple(guilds))
    return {int(r[0]) for r in rows if json.loads(r[1]).get("world_name") is False}
