"""Message ids the Discord layer must find again: one current message per (rally, kind)."""

from __future__ import annotations

import pytest
from store_helpers import dump, new_rally

from bot.store import NotFound


async def test_put_replaces_and_returns_the_previous_message(store):
    rally = await new_rally(store)
    assert await store.messages.put(rally.id, "turn", 500, 1001) is None
    previous = await store.messages.put(rally.id, "turn", 500, 1002)
    assert previous is not None and previous.message_id == 1001
    assert (await store.messages.get(rally.id, "turn")).message_id == 1002
    await store.messages.put(rally.id, "lobby", 500, 900)
    assert [m.kind for m in await store.messages.list(rally.id)] == ["lobby", "turn"]


async def test_delete_forgets_a_message(store):
    rally = await new_rally(store)
    await store.messages.put(rally.id, "turn", 500, 1001)
    assert await store.messages.delete(rally.id, "turn") is True
    assert await store.messages.delete(rally.id, "turn") is False
    assert await store.messages.get(rally.id, "turn") is None


async def test_message_for_a_missing_rally_is_refused(store):
    before = await dump(store)
    with pytest.raises(NotFound):
        await store.messages.put(77, "turn", 500, 1001)
    assert await dump(store) == before
