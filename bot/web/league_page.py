"""A public league's page: the season standings (points, dropped rounds, DNFs, DSQs, penalties) as
`/league standings` computes them (`round_close.league_standings` over the stored results), the
chart of the standings over the rounds (bot/web/league_chart.py), and its rounds, past and to
come, with their times in the league's time zone."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.engine.core.text import msg
from bot.services.images import table_spec
from bot.services.league.points import Standing
from bot.services.league.round_close import league_standings, scores_of, standings_rule, standings_table
from bot.services.league.round_kit import specials_text
from bot.services.league.table_games import is_table_game
from bot.services.league.timing import stored_zone
from bot.services.play.provisional import any_provisional
from bot.store import Store
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.leagues import (
    League,
    LogEntry,
    Round,
    members_tx,
    moves_of_league_tx,
    results_of_league_tx,
    rounds_of_league_tx,
)
from bot.store.web import public_league_tx
from bot.web.league_chart import TOP, Chart, league_chart

TIME_FORMAT = "%Y-%m-%d %H:%M"
ROUND_COLUMNS = 8  # the latest closed rounds that get a column of points in the standings (where there is room)


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    dnfs: int  # rounds not finished (a disqualification is not one: `dsqs`)
    penalty_s: int
    dsqs: int = 0
    per_round: list[str] = field(default_factory=list)  # points in each of `LeaguePage.columns` ("" = no run)


@dataclass(frozen=True)
class RoundRow:
    round: Round
    stage: str
    opens: str
    closes: str
    moved: object = None  # its latest move, as `moved_line` tells it (None: never moved)


@dataclass(frozen=True)
class LeaguePage:
    league: League
    rows: list[StandingRow]
    rounds: list[RoundRow]
    zone: str
    rule: str  # which rounds count
    ties: str = ""  # how ties are broken (a table game: by VP)
    vp: bool = False  # a table game: the total VP, the first tie-break, has its column
    chart: Chart | None = None  # the standings over the closed rounds (None: none closed yet)
    chart_top: int = TOP  # how many drivers the chart draws at most
    columns: list[int] = field(default_factory=list)  # numbers of the closed rounds with a column (the latest)


def local_time(text: str, zone: str) -> str:
    """A stored UTC time as the league's clock shows it."""
    return from_text(text).astimezone(stored_zone(zone)).strftime(TIME_FORMAT)


def moved_line(entry: LogEntry, names: dict[int, str], zone: str) -> str:
    """A round's move as the league's channel was told it (`league.round_moved`): by whom (the
    member's name; an organiser who never joined: "an organiser"), when, the window it took and the
    one it left in the league's time, and why. A move logged before the log kept the windows: who,
    when and why."""
    by = names.get(entry.actor_id) or msg("web.an_organiser")
    at = local_time(entry.at, zone)
    if entry.moved_from is None or entry.moved_to is None:
        return msg("web.round_moved_before", by=by, at=at, reason=entry.reason)
    (old_opens, old_closes), (opens, closes) = (w.split("/", 1) for w in (entry.moved_from, entry.moved_to))
    return msg("web.round_moved", by=by, at=at, opens=local_time(opens, zone), closes=local_time(closes, zone),
               old_opens=local_time(old_opens, zone), old_closes=local_time(old_closes, zone), reason=entry.reason)


async def moves_tx(tx: Tx, league: League) -> dict[int, list[str]]:
    """Each moved round's moves (its id → their lines, oldest first)."""
    names = dict(await members_tx(tx, league.id))
    moves: dict[int, list[str]] = {}
    for entry in await moves_of_league_tx(tx, league.id):
        if entry.round_id is not None:
            moves.setdefault(entry.round_id, []).append(moved_line(entry, names, league.timezone))
    return moves


def local_now(now: datetime, zone: str) -> str:
    return now.astimezone(stored_zone(zone)).strftime(TIME_FORMAT)


async def league_page_tx(tx: Tx, league_id: int) -> LeaguePage | None:
    """The page of a public league; None when it is not public (or does not exist)."""
    league = await public_league_tx(tx, league_id)
    if league is None:
        return None
    results = await results_of_league_tx(tx, league.id)
    table = league_standings(league, scores_of(results))  # a table game's ties: by VP
    dnfs: dict[int, int] = {}
    dsqs: dict[int, int] = {}
    penalties: dict[int, int] = {}
    points: dict[tuple[int, int], int] = {}
    for r in results:
        dnfs[r.user_id] = dnfs.get(r.user_id, 0) + (r.status == "dnf")
        dsqs[r.user_id] = dsqs.get(r.user_id, 0) + (r.status == "dsq")
        penalties[r.user_id] = penalties.get(r.user_id, 0) + r.penalty_s
        points[r.user_id, r.round_id] = r.points + r.bonus
    stored = await rounds_of_league_tx(tx, league.id)
    shown = [r for r in stored if r.status == "closed"][-ROUND_COLUMNS:]
    rows = [StandingRow(s, dnfs.get(s.user_id, 0), penalties.get(s.user_id, 0), dsqs.get(s.user_id, 0),
                        [str(points[s.user_id, r.id]) if (s.user_id, r.id) in points else "" for r in shown])
            for s in table]
    moves = await moves_tx(tx, league)
    rounds = [RoundRow(r, specials_text(r.specials, r.game), local_time(r.opens_at, league.timezone),
                       local_time(r.closes_at, league.timezone), moves[r.id][-1] if r.id in moves else None)
              for r in stored]
    tables = is_table_game(league.game)
    chart = league_chart(league, results, stored, {s.user_id: s.name for s in table})
    return LeaguePage(league, rows, rounds, league.timezone, standings_rule(league),
                      msg("league.rule_ties_vp" if tables else "league.rule_ties"), tables, chart,
                      columns=[r.number for r in shown])


async def league_page(store: Store, league_id: int) -> LeaguePage | None:
    return await store.db.read(lambda tx: league_page_tx(tx, league_id))


async def standings_picture_tx(tx: Tx, league_id: int) -> dict[str, Any] | None:
    """The spec of the standings picture the league's channel is posted (`round_close.standings_table`:
    a column per closed round), for a public league with a closed round; else None."""
    league = await public_league_tx(tx, league_id)
    if league is None:
        return None
    scores = scores_of(await results_of_league_tx(tx, league.id))
    rounds = await rounds_of_league_tx(tx, league.id)
    if not scores:
        return None
    provisional = any_provisional((r.game, r.ruleset) for r in rounds if r.status == "closed")
    return table_spec(standings_table(league, scores, {r.id: r.number for r in rounds}, provisional))


async def league_files_tx(tx: Tx, league_id: int) -> tuple[League, list[Round], list[Any]] | None:
    """(the public league, its rounds, its results), what its calendar and CSV files are made of."""
    league = await public_league_tx(tx, league_id)
    if league is None:
        return None
    return league, await rounds_of_league_tx(tx, league.id), await results_of_league_tx(tx, league.id)
