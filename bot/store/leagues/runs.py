"""Championship runs: start, finish, find, and the runs that count in a round: those driven in it
and those that answer it (`run_answers`: a driver's one official run of a week also counts in
every league round on that week's official stage of a league they are in, `link_answers_tx`, see
`bot/services/league/official_runs.py`). Every reader of a round's runs here reads both (`COUNTED`)."""

from __future__ import annotations

from datetime import datetime

from bot.engine.core.game import ResultKind
from bot.store.clock import to_text
from bot.store.connection import Tx
from bot.store.leagues.rows import (
    CLASSIC,
    ROUND_COLUMNS,
    RUN_COLUMNS,
    Duplicate,
    Round,
    Run,
    all_rows,
    insert_once,
    one_row,
    score_key,
)


async def start_run_tx(tx: Tx, *, round_id: int, user_id: int, display_name: str, guild_id: int, guild_name: str,
                       rally_id: int, thread_id: int, week: str | None, now: datetime) -> Run:
    return await insert_once(
        tx, Run.from_row,
        "INSERT INTO runs (round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, "
        "started_at, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT game FROM rounds WHERE id = ?)) "
        f"RETURNING {RUN_COLUMNS}",  # a run is driven in its round's game
        (round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, to_text(now), round_id),
        Duplicate("run.already_ran"))


async def run_of_rally_tx(tx: Tx, rally_id: int) -> Run | None:
    return await one_row(tx, Run.from_row, f"SELECT {RUN_COLUMNS} FROM runs WHERE rally_id = ?", (rally_id,))


async def runs_of_rally_tx(tx: Tx, rally_id: int) -> list[Run]:
    """Every run played in a rally: one for a solo run, one per seat for a table game's table."""
    return await all_rows(tx, Run.from_row,
                          f"SELECT {RUN_COLUMNS} FROM runs WHERE rally_id = ? ORDER BY id", (rally_id,))


async def run_of_tx(tx: Tx, round_id: int, user_id: int) -> Run | None:
    """The driver's run that counts in the round: driven in it, or answering it."""
    return await one_row(
        tx, Run.from_row,
        f"SELECT {RUN_COLUMNS} FROM runs WHERE user_id = ? AND (round_id = ? OR id IN "
        "(SELECT run_id FROM run_answers WHERE round_id = ? AND user_id = ?))", (user_id, round_id, round_id, user_id))


async def official_run_tx(tx: Tx, week: str, user_id: int, game: str = CLASSIC) -> Run | None:
    """The driver's one official run of `game` in the week (one per game: `runs_official`)."""
    return await one_row(tx, Run.from_row,
                         f"SELECT {RUN_COLUMNS} FROM runs WHERE game = ? AND week = ? AND user_id = ?",
                         (game, week, user_id))


async def finish_run_tx(tx: Tx, run_id: int, *, status: str, score: int | None, unit: str, power_s: int | None,
                        reason: str | None, now: datetime) -> bool:
    """Record a run's end once (finished with its score in its game's `unit`, or DNF with why);
    False if it had ended."""
    return await tx.execute(
        "UPDATE runs SET status = ?, score = ?, score_unit = ?, power_s = ?, reason = ?, finished_at = ? "
        "WHERE id = ? AND status = 'running'",
        (status, score, unit, power_s, reason, to_text(now), run_id)) == 1


async def runs_of_round_tx(tx: Tx, round_id: int) -> list[Run]:
    """The runs driven in the round (its own rallies: what its close or cancel ends)."""
    return await all_rows(tx, Run.from_row,
                          f"SELECT {RUN_COLUMNS} FROM runs WHERE round_id = ? ORDER BY id", (round_id,))


# The runs that count in round ? (bound twice): driven in it, or answering it.
COUNTED = "(round_id = ? OR id IN (SELECT run_id FROM run_answers WHERE round_id = ?))"


async def counted_runs_tx(tx: Tx, round_id: int) -> list[Run]:
    """Every run that counts in the round (its results, cards and penalties read these)."""
    return await all_rows(tx, Run.from_row,
                          f"SELECT {RUN_COLUMNS} FROM runs WHERE {COUNTED} ORDER BY id", (round_id, round_id))


async def faster_runs_tx(tx: Tx, round_id: int, score: int, kind: ResultKind) -> int:
    """How many finished runs counting in the round have a better score than `score`, the better
    way of the game's result `kind` (indexed range count)."""
    key, sign = score_key(kind)
    row = await tx.fetch_one(
        f"SELECT COUNT(*) FROM runs WHERE {COUNTED} AND status = 'finished' AND {key} < ?",
        (round_id, round_id, sign * score))
    return int(row[0]) if row else 0


async def finished_count_tx(tx: Tx, round_id: int) -> int:
    row = await tx.fetch_one(f"SELECT COUNT(*) FROM runs WHERE {COUNTED} AND status = 'finished'",
                             (round_id, round_id))
    return int(row[0]) if row else 0


async def not_finished_members_tx(tx: Tx, league_id: int, round_id: int) -> list[int]:
    """Members of the league without a finished or DNF run counting in the round (the reminders'
    list): a driver whose official run of the week answers the round is not asked to drive it."""
    rows = await tx.fetch_all(
        "SELECT m.user_id FROM league_members m WHERE m.league_id = ? AND NOT EXISTS (SELECT 1 FROM runs r "
        "WHERE r.user_id = m.user_id AND r.status <> 'running' AND (r.round_id = ? OR r.id IN "
        "(SELECT a.run_id FROM run_answers a WHERE a.round_id = ? AND a.user_id = m.user_id))) ORDER BY m.joined_at",
        (league_id, round_id, round_id))
    return [int(r[0]) for r in rows]


async def link_answers_tx(tx: Tx, rnd: Round) -> int:
    """Inside `tx`, under the round's lock, the round not closed: every member of its league whose
    official run of the round's week was driven elsewhere (the world round, another league) and
    started before this round's close gets that run counted here too. Idempotent: how many were
    linked now. A round that is not a league round on the official stage links nothing."""
    if rnd.week is None or rnd.league_id is None:
        return 0
    return await tx.execute(
        "INSERT INTO run_answers (round_id, user_id, run_id) SELECT ?, r.user_id, r.id FROM league_members m "
        "JOIN runs r ON r.game = ? AND r.week = ? AND r.user_id = m.user_id WHERE m.league_id = ? AND r.round_id <> ? "
        "AND r.started_at < ? ON CONFLICT (round_id, user_id) DO NOTHING",
        (rnd.id, rnd.game, rnd.week, rnd.league_id, rnd.id, rnd.closes_at))


async def official_rounds_of_driver_tx(tx: Tx, week: str, user_id: int, game: str = CLASSIC) -> list[Round]:
    """The not yet closed league rounds of `game`'s official stage of the week in the leagues the
    driver is in (the rounds a new official run of theirs in that game answers)."""
    return await all_rows(
        tx, Round.from_row,
        f"SELECT {ROUND_COLUMNS} FROM rounds WHERE game = ? AND week = ? AND status IN ('scheduled', 'open') "
        "AND league_id IN (SELECT league_id FROM league_members WHERE user_id = ?) ORDER BY id", (game, week, user_id))


async def official_rounds_of_league_tx(tx: Tx, league_id: int) -> list[Round]:
    """The league's not yet closed rounds on an official stage (what a new member's runs answer)."""
    return await all_rows(
        tx, Round.from_row,
        f"SELECT {ROUND_COLUMNS} FROM rounds WHERE league_id = ? AND week IS NOT NULL "
        "AND status IN ('scheduled', 'open') ORDER BY id", (league_id,))


async def rounds_answered_tx(tx: Tx, run_id: int) -> list[Round]:
    """The rounds a run answers (driven elsewhere, counted there), by id."""
    return await all_rows(tx, Round.from_row,
                          f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id IN "
                          "(SELECT round_id FROM run_answers WHERE run_id = ?) ORDER BY id", (run_id,))
