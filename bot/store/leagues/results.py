"""A closed round's stored results, the league log (who did what, when, why) and the round's result
cards file."""

from __future__ import annotations

from datetime import datetime

from bot.store.clock import to_text
from bot.store.connection import Tx
from bot.store.leagues.rows import (
    LOG_COLUMNS,
    RESULT_COLUMNS,
    LogEntry,
    Result,
    all_rows,
)


async def write_results_tx(tx: Tx, rows: list[Result]) -> None:
    await tx.execute_many(
        f"INSERT INTO round_results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.round_id, r.league_id, r.user_id, r.display_name, r.position, r.score, r.penalty_s, r.status,
          r.reason, r.points, r.bonus, r.score_unit) for r in rows])


async def running_run_thread_tx(tx: Tx, user_id: int, guild_id: int) -> int | None:
    """The thread of the driver's run in progress on a server, if any (the console sends the
    driver's turn commands there)."""
    row = await tx.fetch_one(
        "SELECT r.thread_id FROM runs r JOIN rallies y ON y.id = r.rally_id WHERE r.user_id = ? "
        "AND r.guild_id = ? AND r.status = 'running' AND y.status = 'running' ORDER BY r.id DESC LIMIT 1",
        (user_id, guild_id))
    return int(row[0]) if row is not None and row[0] is not None else None


async def run_of_thread_tx(tx: Tx, thread_id: int) -> tuple[str, int, str | None, int | None] | None:
    """(driver's name, round number, week, league id) of the run played in a thread, if any."""
    row = await tx.fetch_one(
        "SELECT r.display_name, o.number, o.week, o.league_id FROM runs r JOIN rounds o ON o.id = r.round_id "
        "WHERE r.thread_id = ? LIMIT 1", (thread_id,))
    return (str(row[0]), int(row[1]), row[2], row[3]) if row is not None else None


async def clear_results_tx(tx: Tx, round_id: int) -> None:
    """Forget a round's stored results (they are written again at once, after a penalty)."""
    await tx.execute("DELETE FROM round_results WHERE round_id = ?", (round_id,))


async def logs_of_round_tx(tx: Tx, round_id: int) -> dict[int, list[str]]:
    """The action log of every run counting in the round (driven in it or answering it) in one
    indexed query: rally id → canonical texts."""
    rows = await tx.fetch_all(
        "SELECT a.rally_id, a.action FROM actions a JOIN runs r ON r.rally_id = a.rally_id "
        "WHERE r.round_id = ? OR r.id IN (SELECT run_id FROM run_answers WHERE round_id = ?) "
        "ORDER BY a.rally_id, a.seq", (round_id, round_id))
    logs: dict[int, list[str]] = {}
    for row in rows:
        logs.setdefault(int(row[0]), []).append(str(row[1]))
    return logs


async def results_of_round_tx(tx: Tx, round_id: int) -> list[Result]:
    return await all_rows(tx, Result.from_row,
                          f"SELECT {RESULT_COLUMNS} FROM round_results WHERE round_id = ? "
                          "ORDER BY position IS NULL, position, display_name", (round_id,))


async def results_of_league_tx(tx: Tx, league_id: int) -> list[Result]:
    """Every result of the league's closed rounds (one indexed scan): the standings' input."""
    return await all_rows(tx, Result.from_row,
                          f"SELECT {RESULT_COLUMNS} FROM round_results WHERE league_id = ?", (league_id,))


async def log_tx(tx: Tx, *, league_id: int, actor_id: int, action: str, now: datetime, round_id: int | None = None,
                 target_id: int | None = None, seconds: int | None = None, reason: str = "",
                 corrects: int | None = None, moved: tuple[str, str] | None = None) -> None:
    """One entry of the league log; `moved`: a round's window before and after a move (see `LogEntry`)."""
    moved_from, moved_to = moved if moved is not None else (None, None)
    await tx.execute(
        "INSERT INTO league_log (league_id, round_id, actor_id, action, target_id, seconds, reason, at, corrects, "
        "moved_from, moved_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (league_id, round_id, actor_id, action, target_id, seconds, reason, to_text(now), corrects, moved_from,
         moved_to))


async def log_of_round_tx(tx: Tx, round_id: int) -> list[LogEntry]:
    return await all_rows(tx, LogEntry.from_row,
                          f"SELECT {LOG_COLUMNS} FROM league_log WHERE round_id = ? ORDER BY id", (round_id,))


async def moves_of_league_tx(tx: Tx, league_id: int) -> list[LogEntry]:
    """Every move of the league's rounds, oldest first (what its web page tells of them)."""
    return await all_rows(tx, LogEntry.from_row,
                          f"SELECT {LOG_COLUMNS} FROM league_log WHERE league_id = ? AND action = 'round_move' "
                          "ORDER BY id", (league_id,))


async def put_cards_tx(tx: Tx, round_id: int, body: str) -> None:
    await tx.execute("INSERT INTO round_cards (round_id, body) VALUES (?, ?) "
                     "ON CONFLICT (round_id) DO UPDATE SET body = excluded.body", (round_id, body))


async def cards_tx(tx: Tx, round_id: int) -> str | None:
    row = await tx.fetch_one("SELECT body FROM round_cards WHERE round_id = ?", (round_id,))
    return str(row[0]) if row else None
