"""A server's name, as the world scratch ranking shows it beside a run: kept in its settings.

The bot keeps no server in memory (no gateway intent: bot/client.py), so a server's name is asked
of Discord (by the caller's `fetch`) when a run starts and the name kept is missing or older than
REFRESH, then kept in the server's settings (`store.guilds`: one short entry a server that ever
started a run, under NAME and NAME_AT). A day: a server renamed shows its new name on the next
day's runs, and a busy server costs Discord one request a day. A fetch that fails (None) gives the
name kept, however old, else "" (shown as —), and is tried again at the next run.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.store import Store
from bot.store.clock import from_text, to_text

REFRESH = timedelta(days=1)
NAME = "server_name"
NAME_AT = "server_name_at"


async def server_name(store: Store, guild_id: int, now: datetime, fetch: Callable[[], Awaitable[str | None]]) -> str:
    """The server's name: kept, else fetched (`fetch()`: the name, or None when Discord failed) and kept."""
    settings = await store.guilds.get(guild_id)
    kept, at = settings.get(NAME), settings.get(NAME_AT)
    if isinstance(kept, str) and isinstance(at, str) and now - from_text(at) < REFRESH:
        return kept
    fetched = await fetch()
    if fetched is None:
        return kept if isinstance(kept, str) else ""
    await store.guilds.update(guild_id, **{NAME: fetched, NAME_AT: to_text(now)})
    return fetched
