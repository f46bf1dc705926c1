"""Times an organiser types, in the league's time zone, and the weekly cadence of rounds.

Everything is stored in UTC (DESIGN §3); a league's time zone only decides what "Monday 20:00"
means. A weekly cadence keeps the same local hour across daylight-saving changes: each round is
computed from the local date and hour, then converted, so a round closing a week after it opened
may last 167 or 169 hours of real time around a change; a weekly hour a change removes (the
round takes the hour after) or doubles (it takes the first) is said in the answer and the post
(`shifts`), never moved silently. Input is hostile: a time is a strict
`YYYY-MM-DD HH:MM`, `now`, or `+N` days/hours (`+3d`, `+12h`), nothing else; a time zone an
IANA Area/Location name or UTC; a day its exact name or number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.engine.core.text import Listed, msg
from bot.i18n import catalogue, languages
from bot.services.errors import ServiceError
from bot.services.inputs import shown, text_option

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # the `day` choices' values; 1 = Monday
#: The areas of the tz database's Area/Location names (its legacy aliases are not among them).
AREAS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian",
         "Pacific")
MAX_ZONE = 64
MAX_MOMENT = 40
MAX_ROUND = timedelta(days=60)
MAX_AHEAD = timedelta(days=400)
MAX_WEEKLY_ROUNDS = 26
_ABSOLUTE = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})")
_RELATIVE = re.compile(r"\+(\d{1,3})([dh])")


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """The time zones a league may have: `UTC` and the tz database's Area/Location names
    (`Europe/Paris`, `America/Argentina/Buenos_Aires`). Not the legacy aliases (`EST5EDT`, `GB`,
    `US/Eastern`), `Etc/GMT+5` (whose sign reads backwards), the system's `localtime` or the
    database's placeholder `Factory`: a league's time is a place's time."""
    return ("UTC", *sorted(z for z in available_timezones() if "/" in z and z.split("/")[0] in AREAS))


@lru_cache(maxsize=1)
def _zones_by_key() -> dict[str, str]:
    return {z.casefold(): z for z in zone_names()}


def zone(name: object) -> ZoneInfo:
    """A league's time zone as the organiser typed it: one of `zone_names` (in any case:
    `europe/paris` is Europe/Paris); anything else is refused with examples."""
    text = text_option("timezone", name, MAX_ZONE) if name is not None else ""
    found = _zones_by_key().get(text.casefold())
    if found is None:
        raise ServiceError("league.bad_timezone", value=text)
    return stored_zone(found)


def stored_zone(name: str) -> ZoneInfo:
    """The time zone a league was created with (checked then; kept as it was by older rules)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ServiceError("league.bad_timezone", value=shown(name, MAX_ZONE)) from None


def moment(option: str, value: object, tz: ZoneInfo, now: datetime) -> datetime:
    """A time the organiser typed, as UTC: local `YYYY-MM-DD HH:MM`, `now`, `+3d`, `+12h`."""
    typed = text_option(option, str(value) if value is not None else "", MAX_MOMENT)
    text = typed.lower()
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
        raise ServiceError("league.bad_time", option=option, value=typed)
    try:
        year, month, day, hour, minute = (int(g) for g in absolute.groups())
        local = datetime(year, month, day, hour, minute, tzinfo=tz)
    except ValueError:
        raise ServiceError("league.bad_time", option=option, value=typed) from None
    result = local.astimezone(UTC)
    if result.astimezone(tz).replace(tzinfo=None) != local.replace(tzinfo=None):  # a spring-forward gap
        raise ServiceError("league.time_in_gap", option=option, value=typed, tz=tz.key,
                           later=result.astimezone(tz).strftime("%Y-%m-%d %H:%M"))
    if abs(result - now) > MAX_AHEAD:
        raise ServiceError("league.time_too_far", option=option)
    return result


def is_relative(value: object) -> bool:
    """`+3d`, `+12h`: a time counted from now."""
    return isinstance(value, str) and _RELATIVE.fullmatch(value.strip().lower()) is not None


def window(opens: datetime, closes: datetime, now: datetime, relative_close: bool = False) -> None:
    """A round's window must close after it opens, in the future, and last at most 60 days;
    `relative_close`: the close was typed `+N`, which counts from now (the refusal says so)."""
    if closes <= opens:
        if relative_close:
            raise ServiceError("league.closes_counts_from_now")
        raise ServiceError("league.closes_before_opens")
    if closes <= now:
        raise ServiceError("league.closes_in_past")
    if closes - opens > MAX_ROUND:
        raise ServiceError("league.round_too_long", days=MAX_ROUND.days)


@lru_cache(maxsize=1)
def _day_names() -> dict[str, int]:
    """Every way to name a day, casefolded → its index (0 = Monday): the `day` choices' values
    (`mon`), the numbers 1–7 (ISO: 1 is Monday) and each language's exact name (`day.mon`:
    Monday, lundi, Montag). Every language's at once: no name means two days in two of them."""
    names = {code: i for i, code in enumerate(DAYS)} | {str(i + 1): i for i in range(len(DAYS))}
    for lang in languages():
        names |= {catalogue(lang)[f"day.{code}"].casefold(): i for i, code in enumerate(DAYS)}
    return names


def weekday(value: object) -> int:
    """The day weekly rounds open on, by exact name or number (not a prefix: `monkey` is no
    day); refused with the days' names in the reader's language."""
    text = text_option("day", value, 20) if value is not None else ""
    found = _day_names().get(text.casefold())
    if found is None:
        raise ServiceError("league.bad_day", value=text,
                           days=Listed([msg(f"day.{code}") for code in DAYS], "comma"))
    return found


def hour_of(value: object) -> int:
    text = text_option("hour", str(value), 20) if value is not None else ""
    if not re.fullmatch(r"[0-9]{1,2}", text) or not 0 <= int(text) <= 23:
        raise ServiceError("league.bad_hour", value=text)
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


@dataclass(frozen=True)
class Shift:
    """A weekly round's open or close whose local hour daylight saving changes: in a spring-forward
    gap (`gap`: the hour does not exist that day, the round takes the same instant, an hour later
    on the clock) or a fall-back fold (`fold`: the hour happens twice, the round takes the first)."""

    window: int  # which of the weekly windows, from 0
    closes: bool  # its close (else its open)
    gap: bool  # a gap (else a fold)
    day: date  # the local day
    hour: int  # the local hour asked for
    at: datetime  # the time the round takes, UTC

    def line(self, number: int, tz: ZoneInfo) -> str:
        """What the organiser and the league's channel are told: which round, which end, the hour
        asked for and the time it takes, in the league's zone."""
        local = self.at.astimezone(tz)
        offset = local.strftime("%z")
        params = {"number": number, "date": self.day.isoformat(), "hour": f"{self.hour:02d}:00", "tz": tz.key,
                  "time": f"{local:%H:%M} (UTC{offset[:3]}:{offset[3:]})"}
        if self.gap:
            return msg("league.dst_gap_closes" if self.closes else "league.dst_gap_opens", **params)
        return msg("league.dst_fold_closes" if self.closes else "league.dst_fold_opens", **params)


def shifts(windows: list[tuple[datetime, datetime]], hour: int, tz: ZoneInfo) -> list[Shift]:
    """The opens and closes of weekly `windows` (at `hour` local) that fall in a daylight-saving
    gap or fold of `tz`, in order: said to the organiser and the drivers, never moved silently."""
    found = []
    for index, edges in enumerate(windows):
        for closes, at in enumerate(edges):
            local = at.astimezone(tz)
            day = local.date() if local.hour >= hour else local.date() - timedelta(days=1)
            wall = datetime.combine(day, time(hour), tzinfo=tz)
            if local.hour != hour:
                found.append(Shift(index, bool(closes), True, day, hour, at))
            elif wall.utcoffset() != wall.replace(fold=1).utcoffset():
                found.append(Shift(index, bool(closes), False, day, hour, at))
    return found


def _at(day: date, hour: int, tz: ZoneInfo) -> datetime:
    """Local `day` at `hour` as UTC (a nonexistent local hour in a spring-forward gap resolves
    forward, as zoneinfo's fold=0 does)."""
    return datetime.combine(day, time(hour), tzinfo=tz).astimezone(UTC)
