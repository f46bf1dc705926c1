"""Notification preferences (`notify_prefs`, migration 8) on both backends: one row per user,
each option changed alone, users without a row absent (both off)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.store.notify import NotifyPrefs, prefs_tx, set_pref_tx

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def test_each_option_is_set_alone_and_kept_when_the_other_changes(store):
    await store.db.write(lambda tx: set_pref_tx(tx, 7, "dm", True, NOW))
    await store.db.write(lambda tx: set_pref_tx(tx, 7, "next_turn", True, NOW))
    await store.db.write(lambda tx: set_pref_tx(tx, 8, "next_turn", True, NOW))
    await store.db.write(lambda tx: set_pref_tx(tx, 8, "next_turn", False, NOW))
    prefs = await store.db.read(lambda tx: prefs_tx(tx, [7, 8, 9]))
    assert prefs == {7: NotifyPrefs(7, dm=True, next_turn=True), 8: NotifyPrefs(8, dm=False, next_turn=False)}
    assert await store.db.read(lambda tx: prefs_tx(tx, [])) == {}
