"""Answers given in a window that several seats answer at once (Road Rally USA's stage window,
RULES C10.8), kept apart from the rally until the window closes.

An answer is tied to the window, not to the rally's version: it is written here, beside the
rally, and the rally itself (its version, snapshot, log, `updated_at`) does not change, so nothing
public moves while the window is open (the web page's version token, its live stream, the posts).
When the window closes, the service logs the answers on the rally in one change and deletes them
here (`clear_tx`). One row per seat (`user_id`: a person's id or an AI seat's negative id);
`action` is the game's canonical log entry of the answer. Never shown to anyone but its seat.
"""

from __future__ import annotations

from bot.store.clock import now_text
from bot.store.connection import Tx

SCHEMA_WINDOW_ANSWERS: tuple[str, ...] = (
    """CREATE TABLE window_answers (
        rally_id   INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        user_id    BIGINT  NOT NULL,
        action     TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (rally_id, user_id)
    )""",
)


async def put_tx(tx: Tx, rally_id: int, user_id: int, action: str) -> None:
    """Inside `tx`: keep a seat's answer (the service refused a second one before)."""
    await tx.execute("INSERT INTO window_answers (rally_id, user_id, action, created_at) VALUES (?, ?, ?, ?)",
                     (rally_id, user_id, action, now_text()))


async def answers_tx(tx: Tx, rally_id: int) -> list[tuple[int, str]]:
    """Inside `tx`: the rally's kept answers, (seat's user id, action) by user id."""
    rows = await tx.fetch_all("SELECT user_id, action FROM window_answers WHERE rally_id = ? ORDER BY user_id",
                              (rally_id,))
    return [(int(r[0]), str(r[1])) for r in rows]


async def clear_tx(tx: Tx, rally_id: int) -> None:
    """Inside `tx`: forget the rally's answers (its window closed)."""
    await tx.execute("DELETE FROM window_answers WHERE rally_id = ?", (rally_id,))
