"""Timestamps as the store writes them: UTC, ISO 8601, fixed width, so text order is time order.

`2026-05-09T07:35:25.123456Z` sorts and compares correctly as plain text in SQLite and in
PostgreSQL alike, which keeps `due_at <= ?` portable; local times are computed for display only,
outside the store (DESIGN §3: store UTC). The action log, the largest table, keeps its times as whole milliseconds
since 1970 (UTC) instead: 8 bytes, not 27 (`to_millis`, `millis_text`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


def to_text(moment: datetime) -> str:
    """`moment` (timezone-aware) as stored text; a naive datetime is refused (its zone is unknown)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: give a timezone-aware time (UTC is stored)")
    return moment.astimezone(UTC).strftime(_FORMAT)


def from_text(text: str) -> datetime:
    """Stored text back to a timezone-aware UTC datetime."""
    return datetime.strptime(text, _FORMAT).replace(tzinfo=UTC)


def now_text() -> str:
    """The current time as stored text."""
    return to_text(utc_now())


def to_millis(moment: datetime) -> int:
    """`moment` (timezone-aware) as whole milliseconds since 1970-01-01 UTC (rounded down)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: give a timezone-aware time (UTC is stored)")
    return (moment - _EPOCH) // _MILLISECOND


def millis_text(millis: int) -> str:
    """Stored milliseconds as the store's time text (`2026-05-09T07:35:25.123000Z`)."""
    return to_text(_EPOCH + millis * _MILLISECOND)
