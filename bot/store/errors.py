"""Errors of the store. Each one's `str()` is ready to show to a user, like every `RallyError`.

A refusal (stale version, busy channel, full rally...) is raised after the transaction was rolled
back, so the database is exactly as it was before the call. `key` and `params` name the message
for the catalogue (`data/i18n`), so a translation can replace the English text later without
touching the store.
"""

from __future__ import annotations

from bot.engine.errors import RallyError


class StoreError(RallyError):
    """Base of every error the store raises on purpose."""

    kind = "store"
    key = "store.error"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.params = params


class StaleVersion(StoreError):
    """The rally moved on since the caller read it: another action was committed first."""

    kind = "stale_version"
    key = "store.stale_version"

    def __init__(self, rally_id: int, expected: int, current: int) -> None:
        super().__init__(
            "Someone acted first: this turn has moved on. Look at the board and try again.",
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
            detail = "finish or abandon it first, or use another channel."
        else:
            state = "is waiting in its lobby" if status == "lobby" else f"is {status}"
            detail = f"rally #{rally_id} {state}. Finish or abandon it first, or use another channel."
        super().__init__(f"This channel already has a rally: {detail}", channel_id=channel_id, rally_id=rally_id)
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


class SchemaTooNew(StoreError):
    """The database was written by a newer rallybot; this code refuses to touch it."""

    kind = "schema_too_new"
    key = "store.schema_too_new"

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"The database {path} has schema version {found}, but this rallybot only knows up to "
            f"version {known}. Upgrade rallybot (or restore a backup made by this version); "
            "the database was left untouched.",
            path=path,
            found=found,
            known=known,
        )
        self.found = found
        self.known = known


class SchemaTooOld(StoreError):
    """The database needs migrating and the caller asked not to migrate (read-only tools)."""

    kind = "schema_too_old"
    key = "store.schema_too_old"

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"The database {path} has schema version {found}; this rallybot uses version {known}. "
            "Back it up (`python -m bot db backup PATH`), then run `python -m bot db migrate`.",
            path=path,
            found=found,
            known=known,
        )
        self.found = found
        self.known = known
