"""Errors of the store. Each one's `str()` is ready to show to a user, like every `RallyError`.

A refusal (stale version, busy channel, full rally...) is raised after the transaction was rolled
back, so the database is exactly as it was before the call. The text comes from the message
catalogue (`data/i18n/<lang>/store.json`) by `key`, filled with `params`.
"""

from __future__ import annotations

from bot.engine.core.errors import RallyError
from bot.engine.core.text import msg


class StoreError(RallyError):
    """Base of every error the store raises on purpose."""

    kind = "store"
    key = "store.error"

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(msg(key, **params))
        self.key = key
        self.params = params


class StaleVersion(StoreError):
    """The rally moved on since the caller read it: another action was committed first."""

    kind = "stale_version"
    key = "store.stale_version"

    def __init__(self, rally_id: int, expected: int, current: int) -> None:
        super().__init__(
            "store.stale_version",
            rally_id=rally_id,
            expected=expected,
            current=current,
        )
        self.rally_id = rally_id
        self.expected = expected
        self.current = current


class NotFound(StoreError):
    """The rally (or driver, job...) the caller named does not exist."""

    kind = "not_found"
    key = "store.not_found"


class ChannelBusy(StoreError):
    """A channel already holds a rally in the lobby or running (one active rally per channel)."""

    kind = "channel_busy"
    key = "store.channel_busy"

    def __init__(self, channel_id: int, rally_id: int | None, status: str | None) -> None:
        if rally_id is None:
            key = "store.channel_busy_unknown"
        else:
            key = "store.channel_busy_lobby" if status == "lobby" else "store.channel_busy"
        super().__init__(key, channel_id=channel_id, rally_id=rally_id, status=status)
        self.channel_id = channel_id
        self.rally_id = rally_id


class RallyFull(StoreError):
    """Every seat of the rally is taken."""

    kind = "rally_full"
    key = "store.rally_full"


class AlreadyJoined(StoreError):
    """The driver is already in this rally."""

    kind = "already_joined"
    key = "store.already_joined"


class WrongStatus(StoreError):
    """The rally's status forbids the change (joining a rally that has started, for example)."""

    kind = "wrong_status"
    key = "store.wrong_status"


class SchemaMismatch(StoreError):
    """The database's schema version (`found`) is not the one this code runs on (`known`)."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(self.key, path=path, found=found, known=known)
        self.found = found
        self.known = known


class SchemaTooNew(SchemaMismatch):
    """The database was written by a newer rallybot; this code refuses to touch it."""

    kind = "schema_too_new"
    key = "store.schema_too_new"


class SchemaTooOld(SchemaMismatch):
    """The database needs migrating and the caller asked not to migrate (read-only tools)."""

    kind = "schema_too_old"
    key = "store.schema_too_old"
