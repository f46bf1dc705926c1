"""The hash of the slash-command tree last synced to Discord, per scope, kept in the database.

Syncing is rate-limited by Discord (about 200 command creates per day per guild), so the bot
syncs at start-up only when the tree changed since the last sync (DESIGN §3). The hashes are
stored as the bot's own settings: the `guild_settings` row of guild id 0, which no Discord
server can have (snowflakes are positive), so the store needs no new table.
"""

from __future__ import annotations

from bot.store import Store

BOT_ROW = 0
KEY = "command_tree_hash"


class CommandSyncState:
    """`last_hash(scope)` / `remember(scope, digest)`; scope is `global` or `guild:<id>`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def last_hash(self, scope: str) -> str | None:
        settings = await self.store.guilds.get(BOT_ROW)
        return (settings.get(KEY) or {}).get(scope)

    async def remember(self, scope: str, digest: str) -> None:
        settings = await self.store.guilds.get(BOT_ROW)
        hashes = dict(settings.get(KEY) or {})
        hashes[scope] = digest
        await self.store.guilds.update(BOT_ROW, **{KEY: hashes})
