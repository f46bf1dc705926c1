"""A league's rounds and the world rounds: add, find, move, renumber, change their status (one
world round per game and week: `world_round_tx`, unique by game and week since migration 12)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.store.clock import to_text
from bot.store.connection import Tx
from bot.store.leagues.rows import (
    CLASSIC,
    ROUND_COLUMNS,
    Duplicate,
    Round,
    all_rows,
    as_json,
    insert_once,
    one_row,
)


async def add_round_tx(tx: Tx, *, league_id: int | None, specials: list[str], assistance: list[bool],
                       power_stage: bool, week: str | None, opens_at: datetime, closes_at: datetime, seed: str,
                       seed_hash: str, dice: str, ruleset: str, modules: dict[str, Any], created_by: int | None,
                       now: datetime, number: int | None = None, game: str = "rallyman") -> Round:
    """A new scheduled round of `game`, numbered after the league's last one (a world round: its week)."""
    if number is None:
        if league_id is not None:
            await tx.lock("league", league_id)  # two processes adding rounds at once number them in turn
        row = await tx.fetch_one("SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE league_id = ?", (league_id,))
        number = int(row[0]) if row else 1
    return await insert_once(
        tx, Round.from_row,
        "INSERT INTO rounds (league_id, number, specials, assistance, power_stage, week, opens_at, closes_at, "
        "seed, seed_hash, dice, ruleset, modules, created_by, created_at, game) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {ROUND_COLUMNS}",
        (league_id, number, as_json(specials), as_json(assistance), int(power_stage), week, to_text(opens_at),
         to_text(closes_at), seed, seed_hash, dice, ruleset, as_json(modules), created_by, to_text(now), game),
        Duplicate("scratch.week_exists", week=week))


async def round_tx(tx: Tx, round_id: int) -> Round | None:
    return await one_row(tx, Round.from_row, f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ?", (round_id,))


async def rounds_of_seed_hash_tx(tx: Tx, seed_hash: str) -> list[Round]:
    """The rounds whose seed hash (published at their opening) is `seed_hash`: one, or the week's
    official rounds (the world round and the leagues' rounds on it share its seed)."""
    return await all_rows(tx, Round.from_row,
                          f"SELECT {ROUND_COLUMNS} FROM rounds WHERE seed_hash = ? ORDER BY id", (seed_hash,))


async def round_count_tx(tx: Tx) -> int:
    """How many rounds (league and world) the database holds: the console's `--seed` numbers its
    round secrets on from there, so a new round never gets a secret already published."""
    row = await tx.fetch_one("SELECT COUNT(*) FROM rounds", ())
    return int(row[0]) if row else 0


async def rounds_of_league_tx(tx: Tx, league_id: int) -> list[Round]:
    return await all_rows(tx, Round.from_row,
                          f"SELECT {ROUND_COLUMNS} FROM rounds WHERE league_id = ? ORDER BY number", (league_id,))


async def world_round_tx(tx: Tx, week: str, game: str = CLASSIC) -> Round | None:
    """The world round of `game` in the ISO week (one per game and week), if made yet."""
    return await one_row(tx, Round.from_row,
                         f"SELECT {ROUND_COLUMNS} FROM rounds WHERE league_id IS NULL AND game = ? AND week = ?",
                         (game, week))


async def move_round_tx(tx: Tx, round_id: int, opens_at: datetime, closes_at: datetime) -> bool:
    """A scheduled or open round's new window; False when it is neither any more."""
    return await tx.execute("UPDATE rounds SET opens_at = ?, closes_at = ? WHERE id = ? "
                            "AND status IN ('scheduled', 'open')", (to_text(opens_at), to_text(closes_at),
                                                                     round_id)) == 1


async def set_round_numbers_tx(tx: Tx, numbers: dict[int, int]) -> None:
    """Give rounds (by id) their numbers (the league's rounds renumbered by date)."""
    await tx.execute_many("UPDATE rounds SET number = ? WHERE id = ?",
                          [(number, round_id) for round_id, number in numbers.items()])


async def set_round_status_tx(tx: Tx, round_id: int, old: tuple[str, ...], new: str) -> bool:
    """Move a round on (scheduled → open → closed, or → cancelled); False if it was not in `old`
    (a job run twice, a close racing a cancel): the caller then does nothing."""
    marks = ", ".join("?" for _ in old)
    return await tx.execute(f"UPDATE rounds SET status = ? WHERE id = ? AND status IN ({marks})",
                            (new, round_id, *old)) == 1
