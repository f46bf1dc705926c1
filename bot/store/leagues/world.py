"""The world scratch ranking of a game's week: its top, a score's rank, the runs around one, a
driver's history of official runs."""

from __future__ import annotations

from bot.engine.core.game import ResultKind
from bot.store.connection import Tx
from bot.store.leagues.rows import (
    CLASSIC,
    RUN_COLUMNS,
    Run,
    all_rows,
    score_key,
)


async def world_top_tx(tx: Tx, week: str, limit: int, kind: ResultKind, game: str = CLASSIC) -> list[Run]:
    """The week's best finished runs of `game`, the better way of its result `kind` (ties: first run first)."""
    key, _ = score_key(kind)
    return await all_rows(
        tx, Run.from_row,
        f"SELECT {RUN_COLUMNS} FROM runs WHERE game = ? AND week = ? AND status = 'finished' ORDER BY {key}, id "
        "LIMIT ?", (game, week, limit))


async def world_rank_tx(tx: Tx, week: str, score: int, kind: ResultKind, game: str = CLASSIC) -> int:
    """The rank of a score in `game`'s ranking of the week (equal scores share a rank)."""
    key, sign = score_key(kind)
    row = await tx.fetch_one(
        f"SELECT COUNT(*) FROM runs WHERE game = ? AND week = ? AND status = 'finished' AND {key} < ?",
        (game, week, sign * score))
    return (int(row[0]) if row else 0) + 1


async def world_around_tx(tx: Tx, week: str, run: Run, count: int, kind: ResultKind) -> list[Run]:  # run's game
    """Up to `count` finished runs each side of `run` in ranking order: a keyset on the row value
    (score key, id), which SQLite seeks in the index `runs_week_time` instead of walking it."""
    assert run.score is not None
    key, sign = score_key(kind)
    before = await tx.fetch_all(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE game = ? AND week = ? AND status = 'finished' "
        f"AND ({key}, id) < (?, ?) ORDER BY {key} DESC, id DESC LIMIT ?", (run.game, week, sign * run.score, run.id,
                                                                            count))
    after = await tx.fetch_all(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE game = ? AND week = ? AND status = 'finished' "
        f"AND ({key}, id) > (?, ?) ORDER BY {key}, id LIMIT ?", (run.game, week, sign * run.score, run.id, count))
    return [Run.from_row(r) for r in reversed(before)] + [run] + [Run.from_row(r) for r in after]


async def tied_before_tx(tx: Tx, week: str, score: int, run_id: int, game: str = CLASSIC) -> int:
    """How many finished runs of `game` in the week have this score and an earlier id (ranked before it)."""
    row = await tx.fetch_one("SELECT COUNT(*) FROM runs WHERE game = ? AND week = ? AND status = 'finished' "
                             "AND score = ? AND id < ?", (game, week, score, run_id))
    return int(row[0]) if row else 0


async def world_count_tx(tx: Tx, week: str, game: str = CLASSIC) -> int:
    row = await tx.fetch_one("SELECT COUNT(*) FROM runs WHERE game = ? AND week = ? AND status = 'finished'",
                             (game, week))
    return int(row[0]) if row else 0


async def official_history_tx(tx: Tx, user_id: int, limit: int = 10, game: str = CLASSIC) -> list[Run]:
    """The driver's official runs of `game`, latest week first."""
    return await all_rows(
        tx, Run.from_row,
        f"SELECT {RUN_COLUMNS} FROM runs WHERE user_id = ? AND game = ? AND week IS NOT NULL ORDER BY week DESC "
        "LIMIT ?", (user_id, game, limit))
