"""What organisers take out of a league: `/league export` (the standings and every round's results
as CSV files) and `/league calendar` (the rounds as an iCalendar `.ics` file). Both are private
answers with files attached (`Reply.files`); nothing is posted and nothing changes.

CSV: the standard library's `csv`, UTF-8 with a header row in the league's language (like its
posts), one file for the standings (rank, driver, points, each closed round's score, wins,
rounds counted and dropped, total time) and one for the results (one row per driver and closed
round: round, stage, driver, position, time in seconds and as m:ss.s, gap, status finished / dnf /
dsq, reason, penalty, points, bonus). A cell a spreadsheet would read as a formula (a driver's
name starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a leading `'`
(CSV injection), so opening the file never runs anything.

Calendar: `icalendar`, the maintained RFC 5545 library: one VEVENT per round from its opening to
its close, in UTC, with the league's time zone named (`X-WR-TIMEZONE` and in each description);
each round's UID is fixed (league and round ids), so importing the file again updates the events
instead of adding copies, and a cancelled round is marked `STATUS:CANCELLED`. The league's web
page does not exist yet: no link.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from icalendar import Calendar, Event

from bot import games
from bot.engine.core.text import msg
from bot.i18n import render
from bot.services.errors import ServiceError
from bot.services.league_rounds import league_language, round_title, specials_text
from bot.services.leagues import LeagueService
from bot.services.reply import Actor, Place, Reply
from bot.services.round_close import league_standings, reason_text, scores_of
from bot.services.table_games import is_table_game
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.leagues import League, Result, Round, results_of_league_tx, rounds_of_league_tx

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


def _csv(header: list[str], rows: Iterable[Sequence[object]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(h) for h in header])
    writer.writerows([safe_cell(c) for c in row] for row in rows)
    return out.getvalue().encode("utf-8")


#: The columns of the two files (`export.col_<name>` in the catalogue); the standings put one
#: column per closed round between its head and its tail.
STANDINGS_HEAD = ("rank", "driver", "driver_id", "points")
STANDINGS_TAIL = ("wins", "counted", "dropped", "time_s")
RESULTS_COLUMNS = ("round_number", "stage", "position", "driver", "driver_id", "time_s", "time", "gap_s", "gap",
                   "status", "reason", "penalty_s", "points", "bonus")
#: A table game's league (issue 25: scored in VP, ranked within each table): its score instead of times.
TABLE_STANDINGS_TAIL = ("wins", "counted", "dropped", "vp")
TABLE_RESULTS_COLUMNS = ("round_number", "stage", "position", "driver", "driver_id", "vp", "status", "reason",
                         "penalty_vp", "points")


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
    return _csv(header, rows)


def results_csv(league: League, rounds: list[Round], results: list[Result]) -> bytes:
    """Every closed round's classification: one row per driver and round, rounds in order."""
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
                   key=games.get(rnd.game).result.key, default=None)
        stage = render(specials_text(rnd.specials, rnd.game), lang)
        for res in stored:
            gap = abs(res.score - best) if res.score is not None and best is not None else None
            reason = render(reason_text(res.reason), lang) if res.status != "classified" else ""
            if tables:  # the position is the one in the driver's table; the score is VP
                rows.append([rnd.number, stage, res.position or "", res.display_name, res.user_id,
                             "" if res.score is None else res.score, STATUS.get(res.status, res.status), reason,
                             res.penalty_s, res.points])
                continue
            rows.append([rnd.number, stage, res.position or "", res.display_name, res.user_id,
                         "" if res.time_s is None else res.time_s, seconds_text(res.time_s),
                         "" if gap is None else gap, seconds_text(gap), STATUS.get(res.status, res.status),
                         reason, res.penalty_s, res.points, res.bonus])
    return _csv(header, rows)


def round_uid(league: League, rnd: Round) -> str:
    """A round's calendar id: the same in every export, so a re-import updates the event."""
    return f"rallybot-league-{league.id}-round-{rnd.id}"


def calendar_ics(league: League, rounds: list[Round], now: datetime) -> bytes:
    """The league's rounds as an iCalendar file: open → close in UTC, the league's zone noted."""
    lang = league_language(league)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", league.name)
    cal.add("x-wr-timezone", league.timezone)
    for rnd in rounds:
        event = Event()
        event.add("uid", round_uid(league, rnd))
        event.add("dtstamp", now)
        event.add("dtstart", from_text(rnd.opens_at))
        event.add("dtend", from_text(rnd.closes_at))
        event.add("summary", render(round_title(rnd, league.name), lang))
        event.add("description", render(msg("export.event", stages=specials_text(rnd.specials, rnd.game),
                                            status=msg(f"league.status_{rnd.status}"), tz=league.timezone), lang))
        event.add("status", "CANCELLED" if rnd.status == "cancelled" else "CONFIRMED")
        event.add("sequence", 1 if rnd.status == "cancelled" else 0)
        cal.add_component(event)
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

        async def read(tx: Tx) -> tuple[list[Round], list[Result]]:
            return await rounds_of_league_tx(tx, found.id), await results_of_league_tx(tx, found.id)

        rounds, results = await self.store.db.read(read)
        closed = sum(1 for r in rounds if r.status == "closed")
        stem = file_stem(found)
        files = ((f"{stem}-standings.csv", standings_csv(found, rounds, results)),
                 (f"{stem}-results.csv", results_csv(found, rounds, results)))
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
