"""The league tables' rows as the league store reads them (leagues, rounds, runs, results, the
organiser log), their columns, and the helpers every league store file shares."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self, TypeVar

from bot.engine.core.game import ResultKind
from bot.store.connection import Params, Row, Tx, constraint_kind
from bot.store.errors import StoreError

LEAGUE_COLUMNS = ("id, guild_id, name, channel_id, timezone, points, best_rounds, ruleset, modules, dice, "
                  "language, organiser_role, created_by, created_at, game, organisers")
ROUND_COLUMNS = ("id, league_id, number, specials, assistance, power_stage, week, opens_at, closes_at, status, "
                 "seed, seed_hash, dice, ruleset, modules, created_by, created_at, game")
RUN_COLUMNS = ("id, round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, status, "
               "score, power_s, reason, started_at, finished_at, game, score_unit")
RESULT_COLUMNS = ("round_id, league_id, user_id, display_name, position, score, penalty_s, status, reason, points, "
                  "bonus, score_unit")
LOG_COLUMNS = ("id, league_id, round_id, actor_id, action, target_id, seconds, reason, at, corrects, moved_from, "
               "moved_to")
#: the game of every row written before games had a column (migration 11's default), and of a
#: world week asked for without one
CLASSIC = "rallyman"


class Duplicate(StoreError):
    """A unique rule of the league tables refused the row (name taken, second run...)."""

    kind = "duplicate"


@dataclass(frozen=True, slots=True)
class League:
    id: int
    guild_id: int
    name: str
    channel_id: int
    timezone: str
    points: list[int]
    best_rounds: int | None
    ruleset: str
    modules: dict[str, Any]
    dice: str
    language: str
    organiser_role: int | None
    created_by: int
    created_at: str
    game: str = "rallyman"  # the game its rounds are driven in (`bot.games`)
    organisers: tuple[int, ...] = ()  # the members it names as organisers (its creator, until handed on)

    @classmethod
    def from_row(cls, row: Any) -> League:
        d = dict(row)
        d["points"] = json.loads(d["points"])
        d["modules"] = json.loads(d["modules"])
        d["organisers"] = tuple(int(u) for u in json.loads(d["organisers"]))
        return cls(**d)


@dataclass(frozen=True, slots=True)
class Round:
    id: int
    league_id: int | None
    number: int
    specials: list[str]
    assistance: list[bool]
    power_stage: bool
    week: str | None
    opens_at: str
    closes_at: str
    status: str
    seed: str
    seed_hash: str
    dice: str
    ruleset: str
    modules: dict[str, Any]
    created_by: int | None
    created_at: str
    game: str = "rallyman"  # its league's game (a world round: the official stage's)

    @classmethod
    def from_row(cls, row: Any) -> Round:
        d = dict(row)
        d["specials"] = json.loads(d["specials"])
        d["assistance"] = [bool(a) for a in json.loads(d["assistance"])]
        d["power_stage"] = bool(d["power_stage"])
        d["modules"] = json.loads(d["modules"])
        return cls(**d)


class _AsStored:
    """A row whose fields are its table's columns as they are stored: `from_row` takes them as they come."""

    __slots__ = ()

    @classmethod
    def from_row(cls, row: Any) -> Self:
        return cls(**dict(row))


class _Scored(_AsStored):
    """A run's or a result's row: its `score` in its `score_unit` (seconds "s", or victory points)."""

    __slots__ = ()
    score: int | None
    score_unit: str

    @property
    def time_s(self) -> int | None:
        """The result as a time in seconds (None if not finished or not classified, or not a game
        of seconds)."""
        return self.score if self.score_unit == "s" else None


@dataclass(frozen=True, slots=True)
class Run(_Scored):
    id: int
    round_id: int
    user_id: int
    display_name: str
    guild_id: int
    guild_name: str
    rally_id: int | None
    thread_id: int | None
    week: str | None
    status: str
    score: int | None  # the result in `score_unit` (seconds or victory points); None until finished
    power_s: int | None  # classic: the time on the power stage (the round's last special)
    reason: str | None
    started_at: str
    finished_at: str | None
    game: str = "rallyman"
    score_unit: str = "s"


@dataclass(frozen=True, slots=True)
class Result(_Scored):
    round_id: int
    league_id: int
    user_id: int
    display_name: str
    position: int | None
    score: int | None  # the round's result in `score_unit`, penalties included
    penalty_s: int
    status: str
    reason: str | None
    points: int
    bonus: int
    score_unit: str = "s"


@dataclass(frozen=True, slots=True)
class LogEntry(_AsStored):
    id: int
    league_id: int
    round_id: int | None
    actor_id: int
    action: str
    target_id: int | None
    seconds: int | None
    reason: str
    at: str
    corrects: int | None = None  # a correction: the id of the entry it withdraws, changes or lifts
    #: a round moved: its window before and after, each `opens/closes` (stored UTC times, an ISO 8601
    #: interval); None for other entries and for moves logged before the log kept them
    moved_from: str | None = None
    moved_to: str | None = None


R = TypeVar("R")


async def one_row(tx: Tx, make: Callable[[Row], R], sql: str, params: Params = ()) -> R | None:
    """The record `make` makes of the row `sql` reads; None when it reads none."""
    row = await tx.fetch_one(sql, params)
    return make(row) if row else None


async def all_rows(tx: Tx, make: Callable[[Row], R], sql: str, params: Params = ()) -> list[R]:
    """The records `make` makes of the rows `sql` reads, in its order."""
    return [make(row) for row in await tx.fetch_all(sql, params)]


async def insert_once(tx: Tx, make: Callable[[Row], R], sql: str, params: tuple[object, ...],
                      refusal: Duplicate) -> R:
    """The record `make` makes of the row of an `INSERT … RETURNING` a unique rule may refuse:
    refused, `refusal` is raised (the transaction still usable: `tx.attempt`); any other failure
    as it is."""
    try:
        async with tx.attempt():
            row = await tx.fetch_one(sql, params)
    except Exception as exc:
        if constraint_kind(exc) != "unique":
            raise
        raise refusal from None
    assert row is not None
    return make(row)


def as_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def score_key(kind: ResultKind) -> tuple[str, int]:
    """How a score ranks in SQL, from the game's result kind: the key expression (best first when
    ascending) and the sign that turns a score into it. Lower is better: `score` as it is (the
    indexes `runs_by_time`, `runs_week_time` serve it); higher is better: `-score`."""
    return ("score", 1) if kind.better == "lower" else ("-score", -1)
