"""Careers' SQL: each human driver's result of each finished rally, and the
achievements earned (tables: bot/store/career_schema.py).

**What a server may see**: `visible` is the one filter every read of another
driver's card goes through. A row is shown to a server when it was driven there, or is already
public: a world scratch run (an official run: the world ranking shows it), a run of a closed
round of a public league (`/league web public`, as the web page shows it), or a rally played in a
public league's channel. Nothing of another server's private league or rallies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.store.connection import Tx
from bot.store.rows import ACTION_COLUMNS, DRIVER_COLUMNS, RALLY_COLUMNS, Action, Driver, Rally

RESULT_COLUMNS = ("rally_id, user_id, game, guild_id, stage, seats, status, place, score, unit, gap, "
                  "started_last, counters, ended_at, specials, behind")

#: the rows of `career_results c` a server (the one `?`) may see: see the module docstring
VISIBLE = (
    "(c.guild_id = ? "
    "OR EXISTS (SELECT 1 FROM runs r WHERE r.rally_id = c.rally_id AND r.week IS NOT NULL) "
    "OR EXISTS (SELECT 1 FROM runs r JOIN rounds o ON o.id = r.round_id JOIN leagues l ON l.id = o.league_id "
    "WHERE r.rally_id = c.rally_id AND o.status = 'closed' AND l.web_public = 1) "
    "OR EXISTS (SELECT 1 FROM rallies y JOIN leagues l ON l.guild_id = y.guild_id AND l.channel_id = y.channel_id "
    "WHERE y.id = c.rally_id AND l.web_public = 1))"
)


@dataclass(frozen=True)
class CareerResult:
    """One driver's result of one rally, as a career counts it."""

    rally_id: int
    user_id: int
    game: str
    guild_id: int
    stage: str | None  # the rally's one special, else None (a rally of several)
    seats: int  # the cars it was placed among: the rally's, a league round's field, a world week's
    status: str  # finished | dnf | dsq (a steward's disqualification)
    place: int | None  # None: not finished, or a run whose round has not closed yet
    score: int | None  # the result after any penalty (a run: as its round classified it)
    unit: str
    gap: int | None  # to the winner, in `unit` (None: not finished, or raced alone)
    started_last: bool
    counters: dict[str, int]
    ended_at: str
    specials: tuple[tuple[str, int], ...] = ()  # (stage, time) of each special crossed, in order
    #: the cars of its field placed behind it (a worse place, not finished, disqualified); None:
    #: not placed (yet), or a row written before careers kept it
    behind: int | None = None

    def values(self) -> tuple[Any, ...]:
        return (self.rally_id, self.user_id, self.game, self.guild_id, self.stage, self.seats, self.status,
                self.place, self.score, self.unit, self.gap, int(self.started_last),
                json.dumps(self.counters, sort_keys=True, separators=(",", ":")), self.ended_at,
                json.dumps([list(s) for s in self.specials], separators=(",", ":")), self.behind)

    @classmethod
    def from_row(cls, row: Any) -> CareerResult:
        v = dict(zip(RESULT_COLUMNS.split(", "), tuple(row)))
        v["counters"] = json.loads(v["counters"])
        v["started_last"] = bool(v["started_last"])
        v["specials"] = tuple((str(stage), int(time)) for stage, time in json.loads(v["specials"] or "[]"))
        return cls(**v)


@dataclass(frozen=True)
class Earned:
    """An achievement a driver earned, where and when."""

    achievement: str
    game: str
    guild_id: int
    rally_id: int | None
    earned_at: str


async def rally_log_tx(tx: Tx, rally_id: int) -> tuple[Rally, list[Driver], list[Action]] | None:
    """A rally, its drivers and its action log (what a career replays, and what the consistency
    check replays); None if it is gone."""
    row = await tx.fetch_one(f"SELECT {RALLY_COLUMNS} FROM rallies WHERE id = ?", (rally_id,))
    if row is None:
        return None
    drivers = await tx.fetch_all(f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ? ORDER BY seat", (rally_id,))
    actions = await tx.fetch_all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE rally_id = ? ORDER BY seq", (rally_id,))
    return Rally.from_row(row), [Driver.from_row(d) for d in drivers], [Action.from_row(a) for a in actions]


async def put_results_tx(tx: Tx, rows: list[CareerResult]) -> None:
    """Write (or write again: a rebuild) the results of one rally."""
    for result in rows:
        await tx.execute(
            f"INSERT INTO career_results ({RESULT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (rally_id, user_id) DO UPDATE SET game = excluded.game, guild_id = excluded.guild_id, "
            "stage = excluded.stage, seats = excluded.seats, status = excluded.status, place = excluded.place, "
            "score = excluded.score, unit = excluded.unit, gap = excluded.gap, "
            "started_last = excluded.started_last, counters = excluded.counters, ended_at = excluded.ended_at, "
            "specials = excluded.specials, behind = excluded.behind",
            result.values())


async def results_tx(tx: Tx, user_id: int, game: str | None = None, viewer_guild: int | None = None
                     ) -> list[CareerResult]:
    """A driver's results, oldest first: of one game or all; those `viewer_guild` may see (None:
    every one, for the driver's achievements, never shown as such)."""
    where: list[str] = ["c.user_id = ?"]
    params: list[object] = [user_id]
    if game is not None:
        where.append("c.game = ?")
        params.append(game)
    if viewer_guild is not None:
        where.append(VISIBLE)
        params.append(viewer_guild)
    columns = ", ".join(f"c.{c}" for c in RESULT_COLUMNS.split(", "))
    rows = await tx.fetch_all(f"SELECT {columns} FROM career_results c WHERE {' AND '.join(where)} "
                              "ORDER BY c.ended_at, c.rally_id", tuple(params))
    return [CareerResult.from_row(r) for r in rows]


async def place_result_tx(tx: Tx, rally_id: int, user_id: int, seats: int, status: str, place: int | None,
                          score: int | None, gap: int | None, behind: int | None) -> bool:
    """A run's row placed as its round (or world week) classified it: among how many, where, its
    score after penalties, its gap to the winner and how many cars it was ahead of. False: no
    such row (a run never started)."""
    return await tx.execute(
        "UPDATE career_results SET seats = ?, status = ?, place = ?, score = ?, gap = ?, behind = ? "
        "WHERE rally_id = ? AND user_id = ?", (seats, status, place, score, gap, behind, rally_id, user_id)) == 1


async def top_three_tx(tx: Tx, rally_ids: list[int]) -> list[CareerResult]:
    """The rows of those rallies placed third or better (what a round's close may newly earn:
    a win, a podium), by batches of ids."""
    found: list[CareerResult] = []
    for start in range(0, len(rally_ids), 500):
        batch = rally_ids[start:start + 500]
        marks = ", ".join("?" for _ in batch)
        rows = await tx.fetch_all(f"SELECT {RESULT_COLUMNS} FROM career_results WHERE rally_id IN ({marks}) "
                                  "AND status = 'finished' AND place <= 3 ORDER BY rally_id, user_id", tuple(batch))
        found += [CareerResult.from_row(r) for r in rows]
    return found


async def week_rallies_tx(tx: Tx, game: str, week: str) -> list[tuple[int, int, str, int | None, str]]:
    """(rally, driver, status, score, name) of every ended official run of `game`'s world week,
    driven on any server: the field a week's career places are counted in."""
    rows = await tx.fetch_all("SELECT rally_id, user_id, status, score, display_name FROM runs WHERE game = ? "
                              "AND week = ? AND status IN ('finished', 'dnf') AND rally_id IS NOT NULL ORDER BY id",
                              (game, week))
    return [(int(r[0]), int(r[1]), str(r[2]), None if r[3] is None else int(r[3]), str(r[4])) for r in rows]


async def closed_rounds_tx(tx: Tx) -> list[int]:
    """Every closed round, league or world, oldest first (a rebuild places their runs again)."""
    rows = await tx.fetch_all("SELECT id FROM rounds WHERE status = 'closed' ORDER BY id")
    return [int(r[0]) for r in rows]


async def earn_tx(tx: Tx, user_id: int, achievement: str, game: str, guild_id: int, rally_id: int | None,
                  now: str) -> bool:
    """Record an achievement; False when the driver had it already (earned once: the key)."""
    changed = await tx.execute(
        "INSERT INTO career_achievements (user_id, achievement, game, guild_id, rally_id, earned_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, achievement) DO NOTHING",
        (user_id, achievement, game, guild_id, rally_id, now))
    return changed == 1


async def earned_tx(tx: Tx, user_id: int, viewer_guild: int | None = None) -> list[Earned]:
    """A driver's achievements, oldest first; those `viewer_guild` may see (earned there, or in a
    rally it may see) when given."""
    where, params = "a.user_id = ?", [user_id]
    if viewer_guild is not None:
        where += (" AND (a.guild_id = ? OR EXISTS (SELECT 1 FROM career_results c WHERE c.rally_id = a.rally_id "
                  f"AND c.user_id = a.user_id AND {VISIBLE}))")
        params += [viewer_guild, viewer_guild]
    rows = await tx.fetch_all("SELECT a.achievement, a.game, a.guild_id, a.rally_id, a.earned_at "
                              f"FROM career_achievements a WHERE {where} ORDER BY a.earned_at, a.achievement",
                              tuple(params))
    return [Earned(str(r[0]), str(r[1]), int(r[2]), None if r[3] is None else int(r[3]), str(r[4])) for r in rows]


async def ended_rallies_tx(tx: Tx) -> list[int]:
    """The rallies a career may count (finished, or abandoned: a run's DNF), oldest first (a rebuild)."""
    rows = await tx.fetch_all("SELECT id FROM rallies WHERE status IN ('finished', 'abandoned') ORDER BY id")
    return [int(r[0]) for r in rows]


async def clear_results_tx(tx: Tx) -> None:
    """Forget every career result (a rebuild writes them again from the logs)."""
    await tx.execute("DELETE FROM career_results")
