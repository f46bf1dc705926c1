"""The official stage of each ISO week (world scratch ranking): generated from the week
alone, so every bot process on every server names the same stage with no shared state.

`official_stage("2026-W48")` is a generated stage `gen-SEED-LENGTH` (see stage_catalogue): SEED and
LENGTH come from the SHA-256 of the week's name; the generator is deterministic (RULES A24).
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, date, datetime, time, timedelta

_WEEK = re.compile(r"(\d{4})-W(\d{2})")
LENGTHS = (24, 40)


def week_of(moment: datetime | date) -> str:
    """The ISO week of a moment (UTC) or a date: `2026-W48`."""
    day = moment.astimezone(UTC).date() if isinstance(moment, datetime) else moment
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def parse_week(text: str) -> tuple[int, int]:
    """(ISO year, week) of `2026-W48`; ValueError for anything else (a week that does not exist too)."""
    match = _WEEK.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not an ISO week like 2026-W48: {text[:20]!r}")
    year, week = int(match.group(1)), int(match.group(2))
    if not 2000 <= year <= 9998:
        raise ValueError(f"week out of range: {text[:20]!r}")
    try:
        date.fromisocalendar(year, week, 1)
    except ValueError:
        raise ValueError(f"week {week} does not exist in {year}") from None
    return year, week


def week_bounds(week: str) -> tuple[datetime, datetime]:
    """Monday 00:00 UTC of the week, and of the next one."""
    year, number = parse_week(week)
    start = datetime.combine(date.fromisocalendar(year, number, 1), time(0), tzinfo=UTC)
    return start, start + timedelta(days=7)


def next_week(week: str) -> str:
    return week_of(week_bounds(week)[1])


def official_stage(week: str) -> str:
    """The name of the week's official stage (the same everywhere, for ever)."""
    parse_week(week)
    digest = hashlib.sha256(f"rallybot/official/{week}".encode()).digest()
    seed = int.from_bytes(digest[:4], "big") % 1_000_000_000
    low, high = LENGTHS
    return f"gen-{seed}-{low + digest[4] % (high - low + 1)}"
