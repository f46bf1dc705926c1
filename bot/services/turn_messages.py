"""Where the current turn message of each rally is (the one with buttons), so it can be edited.

The Discord layer posts a new turn message after every action and removes the buttons of the
previous one; the message ids live in the store's `messages` table (kind `turn`), so this works
across restarts. Cogs never touch the store: they call this service.
"""

from __future__ import annotations

from bot.services.reply import Place
from bot.store import Message, Store

TURN = "turn"


class TurnMessages:
    """The `turn` message of each rally."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def replace(self, rally_id: int, channel_id: int, message_id: int) -> Message | None:
        """Record the new turn message; returns the previous one (whose buttons must go), if any."""
        old = await self.store.messages.put(rally_id, TURN, channel_id, message_id)
        return old if old is not None and old.message_id != message_id else None

    async def current(self, rally_id: int) -> Message | None:
        return await self.store.messages.get(rally_id, TURN)

    async def close_channel_turn(self, place: Place) -> Message | None:
        """When the channel's latest rally is over (finished or abandoned): forget its turn
        message and return it so its buttons can be removed. None while a rally is active."""
        if await self.store.rallies.get_active_in_channel(place.guild_id, place.channel_id) is not None:
            return None
        over = [r for r in await self.store.rallies.list_by_status(("finished", "abandoned"), guild_id=place.guild_id)
                if r.channel_id == place.channel_id]
        if not over:
            return None
        message = await self.store.messages.get(over[-1].id, TURN)
        if message is not None:
            await self.store.messages.delete(over[-1].id, TURN)
        return message
