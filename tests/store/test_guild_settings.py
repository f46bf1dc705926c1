"""Per-server settings: a JSON object, replaced or merged in one transaction."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import dump


async def test_unknown_guild_has_empty_settings(store):
    assert await store.guilds.get(1) == {}


async def test_put_replaces_and_update_merges(store):
    await store.guilds.put(1, {"lang": "fr", "deadline_h": 24})
    assert await store.guilds.get(1) == {"lang": "fr", "deadline_h": 24}
    assert await store.guilds.update(1, deadline_h=48, league="Sunday") == {
        "lang": "fr", "deadline_h": 48, "league": "Sunday"
    }
    assert await store.guilds.update(1, league=None) == {"lang": "fr", "deadline_h": 48}
    await store.guilds.put(1, {"lang": "de"})
    assert await store.guilds.get(1) == {"lang": "de"}
    assert await store.guilds.get(2) == {}


async def test_concurrent_updates_of_different_keys_both_stick(store):
    await asyncio.gather(*(store.guilds.update(1, **{f"k{i}": i}) for i in range(10)))
    assert await store.guilds.get(1) == {f"k{i}": i for i in range(10)}


async def test_settings_that_are_not_json_are_refused_and_change_nothing(store):
    await store.guilds.put(1, {"lang": "fr"})
    before = await dump(store)
    with pytest.raises(TypeError):
        await store.guilds.update(1, when=object())
    with pytest.raises(TypeError):
        await store.guilds.put(1, ["not", "a", "dict"])
    assert await dump(store) == before
