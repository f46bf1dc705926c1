"""The runs a ghost car may be drawn from: a driver's personal best on a stage, and
the leader of the runs already public to this server's drivers.

A run's stage is its round's `specials` (one special, or a course of several: the same course),
in its round's game. The leader is taken only from **closed** rounds (this server's leagues, or a
world scratch week, whatever server drove it): a run of a round still open is never a leader
ghost, since its place turn by turn would tell a driver what the others did, and with shared dice
the dice themselves (DESIGN §6). A driver's own best is theirs to see wherever it was driven.
"""

from __future__ import annotations

import json

from bot.engine.core.game import ResultKind
from bot.store.connection import Tx
from bot.store.leagues import RUN_COLUMNS, Run

#: the run columns, read through the alias `r` (runs joined with their round `o`)
_RUN = ", ".join(f"r.{c.strip()}" for c in RUN_COLUMNS.split(","))
#: finished runs with their log, of a game, on a course of specials
_ON_STAGE = ("FROM runs r JOIN rounds o ON o.id = r.round_id WHERE r.game = ? AND o.specials = ? "
             "AND r.status = 'finished' AND r.score IS NOT NULL AND r.rally_id IS NOT NULL")
#: public to a server's drivers: its own leagues' rounds, or a world week (bind the guild id)
_SEEN_HERE = "(o.league_id IS NULL OR o.league_id IN (SELECT id FROM leagues WHERE guild_id = ?))"


def _order(kind: ResultKind) -> str:
    return "r.score, r.id" if kind.better == "lower" else "r.score DESC, r.id"


def _specials(specials: list[str]) -> str:
    """The course as the rounds table stores it (`add_round_tx`'s JSON)."""
    return json.dumps(specials, sort_keys=True, separators=(",", ":"))


async def best_run_tx(tx: Tx, user_id: int, game: str, specials: list[str], kind: ResultKind) -> Run | None:
    """The driver's best finished run of `game` on the course `specials`, in any round of any
    server (it is their own); ties: the earliest."""
    row = await tx.fetch_one(f"SELECT {_RUN} {_ON_STAGE} AND r.user_id = ? ORDER BY {_order(kind)} LIMIT 1",
                             (game, _specials(specials), user_id))
    return Run.from_row(row) if row else None


async def leader_run_tx(tx: Tx, guild_id: int, game: str, specials: list[str], kind: ResultKind) -> Run | None:
    """The best finished run of `game` on the course `specials` among the **closed** rounds public
    to the server `guild_id` (its leagues' rounds and the world weeks); never a run of an open round."""
    row = await tx.fetch_one(
        f"SELECT {_RUN} {_ON_STAGE} AND o.status = 'closed' AND {_SEEN_HERE} ORDER BY {_order(kind)} LIMIT 1",
        (game, _specials(specials), guild_id))
    return Run.from_row(row) if row else None


async def open_runs_on_stage_tx(tx: Tx, guild_id: int, game: str, specials: list[str]) -> int:
    """How many finished runs on the course are in rounds not closed yet (for the refusal that
    says why none of them may be a ghost)."""
    row = await tx.fetch_one(f"SELECT COUNT(*) {_ON_STAGE} AND o.status <> 'closed' AND {_SEEN_HERE}",
                             (game, _specials(specials), guild_id))
    return int(row[0]) if row else 0
