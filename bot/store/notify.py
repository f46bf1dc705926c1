"""Drivers' notification preferences (`notify_prefs`): DMs for their turn and a round's close,
and a heads-up by DM when the driver before them starts their turn. One row per user, shared by
every server (a DM reaches the user, not a server); no row means both off."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from bot.store.clock import to_text
from bot.store.connection import Tx


@dataclass(frozen=True)
class NotifyPrefs:
    """What a user asked for: `dm` (their turn, a round closing, by DM), `next_turn` (a heads-up
    by DM when the driver before them starts their turn)."""

    user_id: int
    dm: bool = False
    next_turn: bool = False


_UPSERT = {
    "dm": "INSERT INTO notify_prefs (user_id, dm, updated_at) VALUES (?, ?, ?) "
          "ON CONFLICT (user_id) DO UPDATE SET dm = excluded.dm, updated_at = excluded.updated_at",
    "next_turn": "INSERT INTO notify_prefs (user_id, next_turn, updated_at) VALUES (?, ?, ?) "
                 "ON CONFLICT (user_id) DO UPDATE SET next_turn = excluded.next_turn, "
                 "updated_at = excluded.updated_at",
}


async def set_pref_tx(tx: Tx, user_id: int, what: str, on: bool, now: datetime) -> None:
    """Inside `tx`: turn one preference (`dm` or `next_turn`) of a user on or off."""
    await tx.execute(_UPSERT[what], (user_id, int(on), to_text(now)))


async def prefs_tx(tx: Tx, user_ids: Iterable[int]) -> dict[int, NotifyPrefs]:
    """Inside `tx`: the preferences of these users (those with none set are missing: both off)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    marks = ", ".join("?" for _ in wanted)
    rows = await tx.fetch_all(f"SELECT user_id, dm, next_turn FROM notify_prefs WHERE user_id IN ({marks})",
                              tuple(wanted))
    return {int(r[0]): NotifyPrefs(int(r[0]), bool(r[1]), bool(r[2])) for r in rows}
