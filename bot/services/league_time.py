"""Times an organiser types, in the league's time zone, and the weekly cadence of rounds.

Everything is stored in UTC (DESIGN §3); a league's time zone only decides what "Monday 20:00"
means. A weekly cadence keeps the same local hour across daylight-saving changes: each round is
computed from the local date and hour, then converted, so a round closing a week after it opened
may last 167 or 169 hours of real time around a change. Input is hostile: a time is a strict
`YYYY-MM-DD HH:MM`, `now`, or `+N` days/hours (`+3d`, `+12h`), nothing else.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.services.errors import ServiceError

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MAX_ROUND = timedelta(days=60)
MAX_AHEAD = timedelta(days=400)
MAX_WEEKLY_ROUNDS = 26
_ABSOLUTE = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})")
_RELATIVE = re.compile(r"\+(\d{1,3})([dh])")


def zone(name: object) -> ZoneInfo:
    """An IANA time zone by name (`Europe/Paris`, `UTC`); anything else is refused."""
    text = str(name).strip() if name is not None else ""
    if not text or len(text) > 64 or (text not in available_timezones() and text != "UTC"):
        raise ServiceError("league.bad_timezone", value=text[:64])
    try:
        return ZoneInfo(text)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError("league.bad_timezone", value=text[:64]) from None


def moment(option: str, value: object, tz: ZoneInfo, now: datetime) -> datetime:
    """A time the organiser typed, as UTC: local `YYYY-MM-DD HH:MM`, `now`, `+3d`, `+12h`."""
    text = str(value).strip().lower() if value is not None else ""
    if text == "now":
        return now
    relative = _RELATIVE.fullmatch(text)
    if relative:
        n = int(relative.group(1))
        step = timedelta(days=n) if relative.group(2) == "d" else timedelta(hours=n)
        if step > MAX_AHEAD:
            raise ServiceError("league.time_too_far", option=option)
        return now + step
    absolute = _ABSOLUTE.fullmatch(text)
    if not absolute:
        raise ServiceError("league.bad_time", option=option, value=str(value)[:40])
    try:
        year, month, day, hour, minute = (int(g) for g in absolute.groups())
        local = datetime(year, month, day, hour, minute, tzinfo=tz)
    except ValueError:
        raise ServiceError("league.bad_time", option=option, value=text[:40]) from None
    result = local.astimezone(UTC)
    if abs(result - now) > MAX_AHEAD:
        raise ServiceError("league.time_too_far", option=option)
    return result


def window(opens: datetime, closes: datetime, now: datetime) -> None:
    """A round's window must close after it opens, in the future, and last at most 60 days."""
    if closes <= opens:
        raise ServiceError("league.closes_before_opens")
    if closes <= now:
        raise ServiceError("league.closes_in_past")
    if closes - opens > MAX_ROUND:
        raise ServiceError("league.round_too_long", days=MAX_ROUND.days)


def weekday(value: object) -> int:
    text = str(value).strip().lower()[:3] if value is not None else ""
    if text not in DAYS:
        raise ServiceError("league.bad_day", value=str(value)[:20])
    return DAYS.index(text)


def hour_of(value: object) -> int:
    text = str(value).strip() if value is not None else ""
    if not re.fullmatch(r"\d{1,2}", text) or not 0 <= int(text) <= 23:
        raise ServiceError("league.bad_hour", value=text[:20])
    return int(text)


def weekly(day: int, hour: int, tz: ZoneInfo, now: datetime, count: int) -> list[tuple[datetime, datetime]]:
    """`count` consecutive weekly windows: each opens on the next `day` at `hour` local time (after
    `now`) and closes a week later at the same local hour, whatever daylight saving does."""
    local_now = now.astimezone(tz)
    first = local_now.date() + timedelta(days=(day - local_now.weekday()) % 7)
    if _at(first, hour, tz) <= now:
        first += timedelta(days=7)
    return [(_at(first + timedelta(weeks=i), hour, tz), _at(first + timedelta(weeks=i + 1), hour, tz))
            for i in range(count)]


def _at(day: date, hour: int, tz: ZoneInfo) -> datetime:
    """Local `day` at `hour` as UTC (a nonexistent local hour in a spring-forward gap resolves
    forward, as zoneinfo's fold=0 does)."""
    return datetime.combine(day, time(hour), tzinfo=tz).astimezone(UTC)
