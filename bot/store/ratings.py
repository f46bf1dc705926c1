"""Ratings per game and driver: the current rating, the results applied in order,
and each driver's rating after each (`bot/store/rating_schema.py`).

Every function is a transaction step: the ratings service applies a result in the transaction
that stores it (a rally's end, a round's close, a world week's close). The writers take the
game's rating lock first (`lock_game_tx`), so on PostgreSQL two results of one game are applied
one after the other and the events' ids are their order of application.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.store.connection import Tx

RATING_COLUMNS = "game, user_id, display_name, mu, sigma, ordinal, change, events, updated_at"
HISTORY_COLUMNS = "event_id, user_id, game, display_name, rank, mu, sigma, ordinal, change, at"


@dataclass(frozen=True, slots=True)
class Rating:
    """A driver's current rating in a game."""

    game: str
    user_id: int
    display_name: str
    mu: float
    sigma: float
    ordinal: float
    change: float  # the ordinal's change at the latest event (the trend arrow)
    events: int
    updated_at: str

    @classmethod
    def from_row(cls, row: Any) -> Rating:
        return cls(str(row[0]), int(row[1]), str(row[2]), float(row[3]), float(row[4]), float(row[5]),
                   float(row[6]), int(row[7]), str(row[8]))


@dataclass(frozen=True, slots=True)
class Rated:
    """One driver's rank and rating after one event (a history row)."""

    event_id: int
    user_id: int
    game: str
    display_name: str
    rank: int
    mu: float
    sigma: float
    ordinal: float
    change: float
    at: str

    @classmethod
    def from_row(cls, row: Any) -> Rated:
        return cls(int(row[0]), int(row[1]), str(row[2]), str(row[3]), int(row[4]), float(row[5]),
                   float(row[6]), float(row[7]), float(row[8]), str(row[9]))


@dataclass(frozen=True, slots=True)
class RatingEvent:
    """A result applied to a game's ratings: its source ('rally', 'round' or 'week') and id."""

    id: int
    game: str
    source: str
    source_id: int
    applied_at: str


@dataclass(frozen=True, slots=True)
class WeekRun:
    """A run of a world week as the week's rating reads it."""

    user_id: int
    display_name: str
    status: str
    score: int | None


@dataclass(frozen=True, slots=True)
class RallySeats:
    """A live rally as its rating reads it: status, latest snapshot, each driver's name, the
    drivers the host kicked out, and who wrote its last log entry (for an abandoned rally, who
    abandoned it; None: the bot)."""

    status: str
    snapshot: str | None
    names: dict[int, str]
    kicked: frozenset[int]
    last_actor: int | None


async def lock_game_tx(tx: Tx, game: str) -> None:
    """Until the transaction ends, be the only writer of `game`'s ratings (PostgreSQL)."""
    await tx.lock("ratings", zlib.crc32(game.encode()))


async def ratings_of_tx(tx: Tx, game: str, user_ids: Iterable[int]) -> dict[int, Rating]:
    """The current ratings of these drivers in `game` (those rated before)."""
    wanted = sorted(set(user_ids))
    found: dict[int, Rating] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        rows = await tx.fetch_all(f"SELECT {RATING_COLUMNS} FROM ratings WHERE game = ? AND user_id IN "
                                  f"({', '.join('?' for _ in chunk)})", (game, *chunk))
        found.update((int(r[1]), Rating.from_row(r)) for r in rows)
    return found


async def put_ratings_tx(tx: Tx, rows: Sequence[Rating]) -> None:
    """Write these ratings (insert or replace each driver's row)."""
    await tx.execute_many(
        f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, user_id) "
        "DO UPDATE SET display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma, "
        "ordinal = excluded.ordinal, change = excluded.change, events = excluded.events, "
        "updated_at = excluded.updated_at",
        [(r.game, r.user_id, r.display_name, r.mu, r.sigma, r.ordinal, r.change, r.events, r.updated_at)
         for r in rows])


async def add_history_tx(tx: Tx, rows: Sequence[Rated]) -> None:
    await tx.execute_many(
        f"INSERT INTO rating_history ({HISTORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(r.event_id, r.user_id, r.game, r.display_name, r.rank, r.mu, r.sigma, r.ordinal, r.change, r.at)
         for r in rows])


async def add_event_tx(tx: Tx, game: str, source: str, source_id: int, at: str) -> int | None:
    """Record that a result is applied now, after every earlier one; None if it was already."""
    row = await tx.fetch_one(
        "INSERT INTO rating_events (game, source, source_id, applied_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (source, source_id) DO NOTHING RETURNING id", (game, source, source_id, at))
    return int(row[0]) if row is not None else None


async def event_of_tx(tx: Tx, source: str, source_id: int) -> RatingEvent | None:
    row = await tx.fetch_one("SELECT id, game, source, source_id, applied_at FROM rating_events "
                             "WHERE source = ? AND source_id = ?", (source, source_id))
    return RatingEvent(int(row[0]), str(row[1]), str(row[2]), int(row[3]), str(row[4])) if row else None


async def events_tx(tx: Tx, game: str, first_id: int = 0) -> list[RatingEvent]:
    """`game`'s applied results from event `first_id` on, in the order they were applied."""
    rows = await tx.fetch_all("SELECT id, game, source, source_id, applied_at FROM rating_events "
                              "WHERE game = ? AND id >= ? ORDER BY id", (game, first_id))
    return [RatingEvent(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in rows]


async def rated_games_tx(tx: Tx) -> list[str]:
    """The games some result was applied to."""
    return [str(r[0]) for r in await tx.fetch_all("SELECT DISTINCT game FROM rating_events ORDER BY game")]


async def rewind_tx(tx: Tx, game: str, first_id: int) -> None:
    """Forget what events `first_id` and later did to `game`'s ratings: their history rows go and
    each driver's rating is again their latest remaining history row (drivers with none: no row)."""
    await tx.execute("DELETE FROM rating_history WHERE game = ? AND event_id >= ?", (game, first_id))
    await tx.execute("DELETE FROM ratings WHERE game = ?", (game,))
    await tx.execute(
        f"INSERT INTO ratings ({RATING_COLUMNS}) SELECT h.game, h.user_id, h.display_name, h.mu, h.sigma, "
        "h.ordinal, h.change, c.n, h.at FROM rating_history h JOIN (SELECT user_id, MAX(event_id) AS last, "
        "COUNT(*) AS n FROM rating_history WHERE game = ? GROUP BY user_id) c "
        "ON c.user_id = h.user_id AND c.last = h.event_id WHERE h.game = ?", (game, game))


#: who a list may name: in a server's, the drivers who drove the game there (a rally, a run or a
#: league table whose rally is in that server); in the world's, the drivers the world scratch
#: ranking of the game already shows (a finished official run)
_DROVE_HERE = ("EXISTS (SELECT 1 FROM drivers d JOIN rallies y ON y.id = d.rally_id WHERE d.user_id = r.user_id "
               "AND y.guild_id = ? AND y.game = ?)")
_IN_WORLD_RANKING = ("EXISTS (SELECT 1 FROM runs w WHERE w.user_id = r.user_id AND w.game = ? AND w.week IS NOT NULL "
                     "AND w.status = 'finished')")


def _shown(game: str, guild_id: int | None) -> tuple[str, tuple[object, ...]]:
    if guild_id is None:
        return _IN_WORLD_RANKING, (game,)
    return _DROVE_HERE, (guild_id, game)


async def top_tx(tx: Tx, game: str, limit: int, guild_id: int | None = None) -> list[Rating]:
    """`game`'s best ratings by ordinal (ties: the lower user id first) among the drivers a list
    may name: with `guild_id`, those who drove the game in that server; without, those in the
    game's world scratch ranking (`_DROVE_HERE`, `_IN_WORLD_RANKING`)."""
    where, params = _shown(game, guild_id)
    rows = await tx.fetch_all(f"SELECT {RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND {where} "
                              "ORDER BY r.ordinal DESC, r.user_id LIMIT ?", (game, *params, limit))
    return [Rating.from_row(r) for r in rows]


async def rated_count_tx(tx: Tx, game: str, guild_id: int | None = None) -> int:
    """How many drivers `top_tx` ranks (in the world, or in one server)."""
    where, params = _shown(game, guild_id)
    row = await tx.fetch_one(f"SELECT COUNT(*) FROM ratings r WHERE r.game = ? AND {where}", (game, *params))
    return int(row[0]) if row else 0


async def shown_rating_tx(tx: Tx, game: str, user_id: int, guild_id: int | None) -> Rating | None:
    """The driver's rating in `game` when a list seen from `guild_id` may name them (`top_tx`'s
    rule: they drove the game in that server, or the game's world scratch ranking shows them);
    with `guild_id` None, their rating whatever the rule (their own card)."""
    where, params = ("1 = 1", ()) if guild_id is None else (f"({_DROVE_HERE} OR {_IN_WORLD_RANKING})",
                                                             (guild_id, game, game))
    row = await tx.fetch_one(f"SELECT {RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND r.user_id = ? "
                             f"AND {where}", (game, user_id, *params))
    return Rating.from_row(row) if row else None


async def counts_tx(tx: Tx) -> tuple[int, int]:
    """(games rated, drivers rated in at least one game)."""
    row = await tx.fetch_one("SELECT COUNT(DISTINCT game), COUNT(DISTINCT user_id) FROM ratings")
    return (int(row[0]), int(row[1])) if row else (0, 0)


async def all_ratings_tx(tx: Tx) -> list[Rating]:
    """Every rating, by game and driver (the rebuild's comparison, an export)."""
    rows = await tx.fetch_all(f"SELECT {RATING_COLUMNS} FROM ratings ORDER BY game, user_id")
    return [Rating.from_row(r) for r in rows]


async def history_tx(tx: Tx, user_id: int, game: str, limit: int = 50) -> list[Rated]:
    """The driver's latest `limit` rated events in `game`, oldest first (the card's sparkline)."""
    rows = await tx.fetch_all(f"SELECT {HISTORY_COLUMNS} FROM rating_history WHERE user_id = ? AND game = ? "
                              "ORDER BY event_id DESC LIMIT ?", (user_id, game, limit))
    return [Rated.from_row(r) for r in reversed(rows)]


async def all_history_tx(tx: Tx) -> list[Rated]:
    rows = await tx.fetch_all(f"SELECT {HISTORY_COLUMNS} FROM rating_history ORDER BY event_id, user_id")
    return [Rated.from_row(r) for r in rows]


async def week_runs_tx(tx: Tx, game: str, week: str) -> list[WeekRun]:
    """The ended runs of `game`'s world week (finished or DNF, every server): its ranking's input."""
    rows = await tx.fetch_all("SELECT user_id, display_name, status, score FROM runs WHERE game = ? AND week = ? "
                              "AND status IN ('finished', 'dnf') ORDER BY id", (game, week))
    return [WeekRun(int(r[0]), str(r[1]), str(r[2]), None if r[3] is None else int(r[3])) for r in rows]


async def first_actors_tx(tx: Tx, rally_id: int, actions: Iterable[str]) -> dict[str, int]:
    """Of these logged action texts, who (a person, not the bot) first wrote each in the rally's log."""
    wanted = sorted(set(actions))
    if not wanted:
        return {}
    rows = await tx.fetch_all(f"SELECT action, actor FROM actions WHERE rally_id = ? AND actor IS NOT NULL AND action "
                              f"IN ({', '.join('?' for _ in wanted)}) ORDER BY seq", (rally_id, *wanted))
    found: dict[str, int] = {}
    for action, actor in rows:
        found.setdefault(str(action), int(actor))
    return found


async def rally_seats_tx(tx: Tx, rally_id: int) -> RallySeats | None:
    """What a live rally's rating reads of it (`RallySeats`); None if it is gone."""
    row = await tx.fetch_one("SELECT status, snapshot FROM rallies WHERE id = ?", (rally_id,))
    if row is None:
        return None
    drivers = await tx.fetch_all("SELECT user_id, display_name, status FROM drivers WHERE rally_id = ?", (rally_id,))
    last = await tx.fetch_one("SELECT actor FROM actions WHERE rally_id = ? ORDER BY seq DESC LIMIT 1", (rally_id,))
    return RallySeats(str(row[0]), None if row[1] is None else str(row[1]),
                      {int(r[0]): str(r[1]) for r in drivers},
                      frozenset(int(r[0]) for r in drivers if r[2] == "kicked"),
                      None if last is None or last[0] is None else int(last[0]))
