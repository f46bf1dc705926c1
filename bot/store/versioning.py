"""The one way a rally's game state changes: log an action, replace the snapshot, bump the version.

DESIGN §2: every change is an action; the action log is the truth and the snapshot a cache the
log rebuilds. So every versioned change (a die roll, starting the rally, abandoning it) appends
exactly one action, and the invariant is simple: `version` == number of actions, and the actions
are numbered 1..version. The change is optimistic: the caller says which version it read; if
another change was committed since, nothing is written and `StaleVersion` is raised.

Status changes are checked here too, because two people can race to change it: a finished or
abandoned rally is frozen, and a running rally never goes back to the lobby.
"""

from __future__ import annotations

from bot.store.clock import to_millis, to_text, utc_now
from bot.store.connection import Tx
from bot.store.errors import NotFound, StaleVersion, WrongStatus
from bot.store.rows import RALLY_STATUSES

KEEP = object()
"""Marker for `snapshot_json`: leave the stored snapshot as it is."""

# For each target status, the statuses a rally may be in to take it (None: status unchanged).
ALLOWED_FROM: dict[str | None, tuple[str, ...]] = {
    None: ("lobby", "running"),
    "lobby": ("lobby",),
    "running": ("lobby", "running"),
    "finished": ("lobby", "running"),
    "abandoned": ("lobby", "running"),
}


def check_arguments(expected_version: int, action: str, status: str | None, snapshot_json: object = KEEP) -> None:
    """Programming errors (wrong types, unknown status), refused before anything is written."""
    if status is not None and status not in RALLY_STATUSES:
        raise ValueError(f"unknown rally status {status!r}; expected one of {', '.join(RALLY_STATUSES)}")
    if not isinstance(expected_version, int) or expected_version < 0:
        raise ValueError(f"expected_version must be an int >= 0, got {expected_version!r}")
    if not isinstance(action, str) or not action.strip():
        raise ValueError("an action needs a non-empty text")
    if snapshot_json is not KEEP and snapshot_json is not None and not isinstance(snapshot_json, str):
        raise TypeError("snapshot_json must be the JSON text (str) of the game state")


async def _explain_refusal(tx: Tx, rally_id: int, expected_version: int, status: str | None) -> Exception:
    """Why the guarded UPDATE matched no row: missing rally, stale version, or a forbidden status."""
    row = await tx.fetch_one("SELECT version, status FROM rallies WHERE id = ?", (rally_id,))
    if row is None:
        return NotFound("store.no_rally", rally_id=rally_id)
    if row["version"] != expected_version:
        return StaleVersion(rally_id, expected_version, row["version"])
    current = row["status"]
    if current in ("finished", "abandoned"):
        return WrongStatus("store.rally_closed", rally_id=rally_id, current=current)
    return WrongStatus("store.cannot_go_back", rally_id=rally_id, current=current, status=status)


async def advance(
    tx: Tx,
    rally_id: int,
    expected_version: int,
    *,
    actor: int | None,
    action: str,
    snapshot_json: object = KEEP,
    status: str | None = None,
) -> int:
    """Inside `tx`: check the version, append action `version+1`, update the rally; returns the new version.

    On refusal raises (the caller's transaction then rolls back, so nothing is written).
    """
    check_arguments(expected_version, action, status, snapshot_json)
    sources = ALLOWED_FROM[status]
    marks = ", ".join("?" for _ in sources)
    moment = utc_now()
    now = to_text(moment)
    new_version = expected_version + 1
    if snapshot_json is KEEP:
        changed = await tx.execute(
            "UPDATE rallies SET version = ?, status = COALESCE(?, status), updated_at = ? "
            f"WHERE id = ? AND version = ? AND status IN ({marks})",
            (new_version, status, now, rally_id, expected_version, *sources),
        )
    else:
        changed = await tx.execute(
            "UPDATE rallies SET version = ?, snapshot = ?, status = COALESCE(?, status), updated_at = ? "
            f"WHERE id = ? AND version = ? AND status IN ({marks})",
            (new_version, snapshot_json, status, now, rally_id, expected_version, *sources),
        )
    if changed != 1:
        raise await _explain_refusal(tx, rally_id, expected_version, status)
    await tx.execute(
        "INSERT INTO actions (rally_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
        (rally_id, new_version, actor, action, to_millis(moment)),
    )
    return new_version
