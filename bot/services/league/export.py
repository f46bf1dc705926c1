"""What organisers take out of a league: `/league export` (the standings and every round's results
as CSV files) and `/league calendar` (the rounds as an iCalendar `.ics` file). Both are private
answers with files attached (`Reply.files`); nothing is posted and nothing changes.

CSV: the standard library's `csv`, UTF-8 with a byte-order mark (Excel then reads accents right)
and a header row in the league's language (like its posts); columns separated by `;` in French and
German (their spreadsheets' list separator: a comma-separated file opens as one column there), by
`,` otherwise. One file for the standings (rank, driver, points, each closed round's score, wins,
rounds counted and dropped, total time) and one for the results (one row per driver and closed
round: round, stage, driver, position, time in seconds and as m:ss.s, gap, status finished / dnf /
dsq, reason, penalty in seconds and its reasons, points, bonus). A cell a spreadsheet would read as
a formula (a driver's name starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written
with a leading `'` (CSV injection), so opening the file never runs anything.

Calendar: `icalendar`, the maintained RFC 5545 library: two short events per round, its opening and
its close (a 15-minute mark, free time, not a blocked week), in UTC with the league's time zone
named (`X-WR-TIMEZONE` and in each description); the close of a round still to come carries a
reminder a day before. Each event's UID is fixed for this bot's league (its server, id and creation
time hashed, the round's id): importing the file again updates the events instead of adding
copies, and two bots' leagues never share one. A cancelled round is marked `STATUS:CANCELLED`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot import games
from bot.engine.core.text import msg
from bot.i18n import render
from bot.services.errors import ServiceError
from bot.services.league.leagues import LeagueService
from bot.services.league.round_close import judged, league_standings, reason_text, scores_of
from bot.services.league.round_kit import league_language, round_title, specials_text
from bot.services.league.table_games import is_table_game
from bot.services.reply import Actor, Place, Reply
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.leagues import (
    League,
    LogEntry,
    Result,
    Round,
    log_of_round_tx,
    results_of_league_tx,
    rounds_of_league_tx,
)

if TYPE_CHECKING:  # imported where a calendar is made: a rare command, kept out of the bot's start-up
    from icalendar import Event

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
STATUS = {"classified": "finished", "dnf": "dnf", "dsq": "dsq"}
PRODID = "-//rallybot//leagues//EN"


def safe_cell(value: object) -> str:
    """A cell as text, with a leading `'` when a spreadsheet would take it for a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def seconds_text(seconds: int | None) -> str:
    """A time as m:ss.s (`1:05.0`); empty when there is none."""
    if seconds is None:
        return ""
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}:{rest:04.1f}"


#: The languages whose spreadsheets separate a CSV's columns with `;` (their decimal mark is a comma):
#: Excel in French or German reads a comma-separated file as one column.
SEMICOLON_LANGUAGES = ("fr", "de")


def _csv(header: list[str], rows: Iterable[Sequence[object]], lang: str = "en") -> bytes:
    """UTF-8 with a byte-order mark (so Excel reads the accents of names right), CRLF lines, `;`
    between columns in a language whose spreadsheets expect it, `,` otherwise."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", delimiter=";" if lang in SEMICOLON_LANGUAGES else ",")
    writer.writerow([safe_cell(h) for h in header])
    writer.writerows([safe_cell(c) for c in row] for row in rows)
    return out.getvalue().encode("utf-8-sig")


#: The columns of the two files (`export.col_<name>` in the catalogue); the standings put one
#: column per closed round between its head and its tail.
STANDINGS_HEAD = ("rank", "driver", "driver_id", "points")
STANDINGS_TAIL = ("wins", "counted", "dropped", "time_s")
RESULTS_COLUMNS = ("round_number", "stage", "position", "driver", "driver_id", "time_s", "time", "gap_s", "gap",
                   "status", "reason", "penalty_s", "penalty_reason", "points", "bonus")
#: A table game's league (scored in VP, ranked within each table): its score instead of times.
TABLE_STANDINGS_TAIL = ("wins", "counted", "dropped", "vp")
TABLE_RESULTS_COLUMNS = ("round_number", "stage", "position", "driver", "driver_id", "vp", "status", "reason",
                         "penalty_vp", "penalty_reason", "points")


def _head(lang: str, *keys: str) -> list[str]:
    return [render(msg(f"export.col_{key}"), lang) for key in keys]


def standings_csv(league: League, rounds: list[Round], results: list[Result]) -> bytes:
    """The season table: one row per driver, in standings order, with each closed round's score."""
    lang = league_language(league)
    closed = [r for r in rounds if r.status == "closed"]
    scored = {(res.round_id, res.user_id): res.points + res.bonus for res in results}
    header = _head(lang, *STANDINGS_HEAD)
    header += [render(msg("export.col_round", number=r.number), lang) for r in closed]
    tables = is_table_game(league.game)
    header += _head(lang, *(TABLE_STANDINGS_TAIL if tables else STANDINGS_TAIL))
    rows = []
    for s in league_standings(league, scores_of(results)):
        per_round = [scored.get((r.id, s.user_id), "") for r in closed]
        rows.append([s.position, s.name, s.user_id, s.points, *per_round, s.wins, s.counted, s.dropped, s.time_s])
    return _csv(header, rows, lang)


def penalty_reasons(log: list[LogEntry]) -> dict[int, str]:
    """The reasons of each driver's penalties in force in a round (a withdrawn or changed one is
    not: `round_close.judged`), joined by `; `."""
    in_force = judged(log)
    corrected = {e.corrects for e in log if e.corrects is not None}
    reasons: dict[int, list[str]] = {}
    for e in log:
        if e.action in ("penalty", "penalty_change") and e.target_id in in_force.penalties and e.id not in corrected:
            reasons.setdefault(e.target_id, []).append(e.reason)
    return {user: "; ".join(texts) for user, texts in reasons.items()}


def results_csv(league: League, rounds: list[Round], results: list[Result],
                logs: dict[int, list[LogEntry]] | None = None) -> bytes:
    """Every closed round's classification: one row per driver and round, rounds in order; `logs`:
    each round's league log (by round id), for the penalties' reasons."""
    lang = league_language(league)
    tables = is_table_game(league.game)
    header = _head(lang, *(TABLE_RESULTS_COLUMNS if tables else RESULTS_COLUMNS))
    by_round: dict[int, list[Result]] = {}
    for res in results:
        by_round.setdefault(res.round_id, []).append(res)
    rows = []
    for rnd in rounds:
        if rnd.status != "closed":
            continue
        stored = sorted(by_round.get(rnd.id, []), key=lambda r: (r.position is None, r.position or 0,
                                                                  r.status, r.display_name.lower()))
        best = min((r.score for r in stored if r.score is not None and r.status == "classified"),
                   key=games.get(rnd.game).rules.result.key, default=None)
        stage = render(specials_text(rnd.specials, rnd.game), lang)
        why = penalty_reasons((logs or {}).get(rnd.id, []))
        for res in stored:
            gap = abs(res.score - best) if res.score is not None and best is not None else None
            reason = render(reason_text(res.reason), lang) if res.status != "classified" else ""
            if tables:  # the position is the one in the driver's table; the score is VP
                rows.append([rnd.number, stage, res.position or "", res.display_name, res.user_id,
                             "" if res.score is None else res.score, STATUS.get(res.status, res.status), reason,
                             res.penalty_s, why.get(res.user_id, "") if res.penalty_s else "", res.points])
                continue
            rows.append([rnd.number, stage, res.position or "", res.display_name, res.user_id,
                         "" if res.time_s is None else res.time_s, seconds_text(res.time_s),
                         "" if gap is None else gap, seconds_text(gap), STATUS.get(res.status, res.status),
                         reason, res.penalty_s, why.get(res.user_id, "") if res.penalty_s else "", res.points,
                         res.bonus])
    return _csv(header, rows, lang)


#: How long a round's opening and close events last in a calendar (a moment, not a blocked week)
MARK = timedelta(minutes=15)
#: The reminder before a round's close
REMINDER = timedelta(hours=24)
EVENT_TITLES = {"opens": "export.event_opens", "closes": "export.event_closes"}


def round_uid(league: League, rnd: Round, what: str) -> str:
    """A round's opening or close event id: the same in every export of this bot's league, so a
    re-import updates the event; another bot's league (another server, or the same one's league
    made anew) has other ids: the league's server, id and creation time are hashed in."""
    owner = hashlib.sha256(f"{league.guild_id}:{league.id}:{league.created_at}".encode()).hexdigest()[:20]
    return f"{owner}-round-{rnd.id}-{what}@rallybot"


def _event(league: League, rnd: Round, what: str, at: datetime, now: datetime, lang: str) -> Event:
    from icalendar import Event

    event = Event()
    event.add("uid", round_uid(league, rnd, what))
    event.add("dtstamp", now)
    event.add("dtstart", at)
    event.add("dtend", at + MARK)
    event.add("transp", "TRANSPARENT")  # a mark in the calendar, never busy time
    event.add("summary", render(msg(EVENT_TITLES[what], title=round_title(rnd, league.name)), lang))
    event.add("description", render(msg("export.event", stages=specials_text(rnd.specials, rnd.game),
                                        status=msg(f"league.status_{rnd.status}"), tz=league.timezone), lang))
    event.add("status", "CANCELLED" if rnd.status == "cancelled" else "CONFIRMED")
    event.add("sequence", 1 if rnd.status == "cancelled" else 0)
    return event


def calendar_ics(league: League, rounds: list[Round], now: datetime) -> bytes:
    """The league's rounds as an iCalendar file: each round's opening and its close as two short
    events (times in UTC, the league's zone noted), the close with a reminder a day before."""
    from icalendar import Alarm, Calendar

    lang = league_language(league)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", league.name)
    cal.add("x-wr-timezone", league.timezone)
    for rnd in rounds:
        cal.add_component(_event(league, rnd, "opens", from_text(rnd.opens_at), now, lang))
        close = _event(league, rnd, "closes", from_text(rnd.closes_at), now, lang)
        if rnd.status in ("scheduled", "open"):
            alarm = Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("trigger", -REMINDER)
            alarm.add("description", render(msg("export.event_reminder", title=round_title(rnd, league.name)),
                                            lang))
            close.add_component(alarm)
        cal.add_component(close)
    return cal.to_ical()


def file_stem(league: League) -> str:
    """A file name from the league's name: lower-case letters, digits and dashes."""
    stem = re.sub(r"[^a-z0-9]+", "-", league.name.lower()).strip("-")
    return stem[:40] or f"league-{league.id}"


class LeagueExport:
    """`/league export` (organisers) and `/league calendar` (anybody), as private answers with files."""

    def __init__(self, leagues: LeagueService) -> None:
        self.leagues = leagues
        self.store = leagues.store

    async def export(self, place: Place, actor: Actor, league: object = None) -> Reply:
        """The standings and every closed round's results as two CSV files: organisers only."""
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)

        async def read(tx: Tx) -> tuple[list[Round], list[Result], dict[int, list[LogEntry]]]:
            rounds = await rounds_of_league_tx(tx, found.id)
            logs = {r.id: await log_of_round_tx(tx, r.id) for r in rounds if r.status == "closed"}
            return rounds, await results_of_league_tx(tx, found.id), logs

        rounds, results, logs = await self.store.db.read(read)
        closed = sum(1 for r in rounds if r.status == "closed")
        stem = file_stem(found)
        files = ((f"{stem}-standings.csv", standings_csv(found, rounds, results)),
                 (f"{stem}-results.csv", results_csv(found, rounds, results, logs)))
        return Reply([msg("export.ready", name=found.name, rounds=closed, files=", ".join(n for n, _ in files))],
                     ephemeral=True, files=files)

    async def calendar(self, place: Place, actor: Actor, league: object = None) -> Reply:
        """The league's rounds as an `.ics` file, for any member (the rounds are public)."""
        found = await self.leagues.league_here(place, league)
        rounds = await self.store.db.read(lambda tx: rounds_of_league_tx(tx, found.id))
        if not rounds:
            raise ServiceError("league.no_rounds", name=found.name)
        name = f"{file_stem(found)}.ics"
        return Reply([msg("export.calendar_ready", name=found.name, rounds=len(rounds), file=name)],
                     ephemeral=True, files=((name, calendar_ics(found, rounds, self.leagues.clock())),))
