"""A click on a turn button: the same action as typing it, refused when the turn has moved on.

A button carries the rally id and version it was drawn for (`rally:<id>:<version>:<action>`).
A click on an older turn, or on a button of a rally that is no longer the channel's, gets
"This turn is over"; a click by someone else gets the engine's "not your turn".
"""

from __future__ import annotations

from bot.services.errors import ServiceError
from bot.services.rallies import RallyService
from bot.services.reply import Actor, Place, Reply


async def press(rallies: RallyService, place: Place, actor: Actor, rally_id: int, version: int,
                action: str) -> Reply:
    rally = await rallies.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
    if rally is None or rally.id != rally_id:
        raise ServiceError("turn.stale")
    return await rallies.act(place, actor, action, expected_version=version)
