"""Leagues, members, rounds, runs, results, the organiser log and result cards (issue 11).

Every function is a transaction step (`*_tx`): the league services compose them with the rally
changes, job scheduling and outbox rows of one command, so a round closes (results, points,
cards, posts, job completion) in one transaction or not at all. Read-only helpers take a `Tx`
too and serve `db.read`. Uniqueness is the database's job: one league name per server whatever
its case (`leagues.name_key`, see `bot.store.league_names`), one run per driver and round, one
official run per driver, game and ISO week (`runs_official`): each game with solo runs has its own
world round a week (`world_round_tx`, unique by game and week since migration 12).

The runs that count in a round are those driven in it and those that answer it (`run_answers`):
a driver's one official run of a week also counts in every league round on that week's official
stage of a league they are in (`link_answers_tx`, see `bot/services/official_runs.py`). Every
reader of a round's runs below reads both (`_COUNTED`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.engine.core.game import ResultKind
from bot.store.clock import to_text
from bot.store.connection import Tx, constraint_kind
from bot.store.errors import StoreError
from bot.store.league_names import name_key

LEAGUE_COLUMNS = ("id, guild_id, name, channel_id, timezone, points, best_rounds, ruleset, modules, dice, "
                  "language, organiser_role, created_by, created_at, game")
ROUND_COLUMNS = ("id, league_id, number, specials, assistance, power_stage, week, opens_at, closes_at, status, "
                 "seed, seed_hash, dice, ruleset, modules, created_by, created_at, game")
RUN_COLUMNS = ("id, round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, status, "
               "score, power_s, reason, started_at, finished_at, game, score_unit")
RESULT_COLUMNS = ("round_id, league_id, user_id, display_name, position, score, penalty_s, status, reason, points, "
                  "bonus, score_unit")
LOG_COLUMNS = "id, league_id, round_id, actor_id, action, target_id, seconds, reason, at, corrects"
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

    @classmethod
    def from_row(cls, row: Any) -> League:
        d = dict(row)
        d["points"] = json.loads(d["points"])
        d["modules"] = json.loads(d["modules"])
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


@dataclass(frozen=True, slots=True)
class Run:
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

    @classmethod
    def from_row(cls, row: Any) -> Run:
        return cls(**dict(row))

    @property
    def time_s(self) -> int | None:
        """The result as a time in seconds (None if not finished, or not a game of seconds)."""
        return self.score if self.score_unit == "s" else None


@dataclass(frozen=True, slots=True)
class Result:
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

    @classmethod
    def from_row(cls, row: Any) -> Result:
        return cls(**dict(row))

    @property
    def time_s(self) -> int | None:
        """The result as a time in seconds (None if not classified, or not a game of seconds)."""
        return self.score if self.score_unit == "s" else None


@dataclass(frozen=True, slots=True)
class LogEntry:
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

    @classmethod
    def from_row(cls, row: Any) -> LogEntry:
        return cls(**dict(row))


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _key(kind: ResultKind) -> tuple[str, int]:
    """How a score ranks in SQL, from the game's result kind: the key expression (best first when
    ascending) and the sign that turns a score into it. Lower is better: `score` as it is (the
    indexes `runs_by_time`, `runs_week_time` serve it); higher is better: `-score`."""
    return ("score", 1) if kind.better == "lower" else ("-score", -1)


# -- leagues -------------------------------------------------------------------------------------

async def create_league_tx(tx: Tx, *, guild_id: int, name: str, channel_id: int, timezone: str, points: list[int],
                           best_rounds: int | None, ruleset: str, modules: dict[str, Any], dice: str,
                           created_by: int, now: datetime, language: str = "en", game: str = "rallyman") -> League:
    try:
        async with tx.attempt():
            row = await tx.fetch_one(
                "INSERT INTO leagues (guild_id, name, name_key, channel_id, timezone, points, best_rounds, ruleset, "
                "modules, dice, language, created_by, created_at, game) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {LEAGUE_COLUMNS}",
                (guild_id, name, name_key(name), channel_id, timezone, _json(points), best_rounds, ruleset,
                 _json(modules), dice, language, created_by, to_text(now), game))
    except Exception as exc:
        if constraint_kind(exc) != "unique":
            raise
        raise Duplicate("league.name_taken", name=name) from None
    assert row is not None
    return League.from_row(row)


async def league_tx(tx: Tx, league_id: int) -> League | None:
    row = await tx.fetch_one(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,))
    return League.from_row(row) if row else None


async def leagues_of_guild_tx(tx: Tx, guild_id: int) -> list[League]:
    rows = await tx.fetch_all(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY id", (guild_id,))
    return [League.from_row(r) for r in rows]


async def all_leagues_tx(tx: Tx) -> list[League]:
    rows = await tx.fetch_all(f"SELECT {LEAGUE_COLUMNS} FROM leagues ORDER BY id")
    return [League.from_row(r) for r in rows]


async def set_organiser_role_tx(tx: Tx, league_id: int, role_id: int | None) -> None:
    await tx.execute("UPDATE leagues SET organiser_role = ? WHERE id = ?", (role_id, league_id))


async def join_league_tx(tx: Tx, league_id: int, user_id: int, display_name: str, now: datetime) -> None:
    try:
        async with tx.attempt():
            await tx.execute("INSERT INTO league_members (league_id, user_id, display_name, joined_at) "
                             "VALUES (?, ?, ?, ?)", (league_id, user_id, display_name, to_text(now)))
    except Exception as exc:
        if constraint_kind(exc) not in ("unique", "primary_key"):
            raise
        raise Duplicate("league.already_member") from None


async def members_tx(tx: Tx, league_id: int) -> list[tuple[int, str]]:
    """The league's members (user id, display name), in the order they joined."""
    rows = await tx.fetch_all("SELECT user_id, display_name FROM league_members WHERE league_id = ? "
                              "ORDER BY joined_at, user_id", (league_id,))
    return [(int(r[0]), str(r[1])) for r in rows]


async def leave_league_tx(tx: Tx, league_id: int, user_id: int) -> bool:
    """Take a driver out of the league's members (their results stay in `round_results`); False
    when they were not a member."""
    return await tx.execute("DELETE FROM league_members WHERE league_id = ? AND user_id = ?",
                            (league_id, user_id)) == 1


async def member_tx(tx: Tx, league_id: int, user_id: int) -> str | None:
    """The member's display name, or None when they are not in the league."""
    row = await tx.fetch_one("SELECT display_name FROM league_members WHERE league_id = ? AND user_id = ?",
                             (league_id, user_id))
    return str(row[0]) if row else None


# -- rounds --------------------------------------------------------------------------------------

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
    try:
        async with tx.attempt():
            row = await tx.fetch_one(
                "INSERT INTO rounds (league_id, number, specials, assistance, power_stage, week, opens_at, closes_at, "
                "seed, seed_hash, dice, ruleset, modules, created_by, created_at, game) "
                f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {ROUND_COLUMNS}",
                (league_id, number, _json(specials), _json(assistance), int(power_stage), week, to_text(opens_at),
                 to_text(closes_at), seed, seed_hash, dice, ruleset, _json(modules), created_by, to_text(now), game))
    except Exception as exc:
        if constraint_kind(exc) != "unique":
            raise
        raise Duplicate("scratch.week_exists", week=week) from None
    assert row is not None
    return Round.from_row(row)


async def round_tx(tx: Tx, round_id: int) -> Round | None:
    row = await tx.fetch_one(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ?", (round_id,))
    return Round.from_row(row) if row else None


async def rounds_of_seed_hash_tx(tx: Tx, seed_hash: str) -> list[Round]:
    """The rounds whose seed hash (published at their opening) is `seed_hash`: one, or the week's
    official rounds (the world round and the leagues' rounds on it share its seed)."""
    rows = await tx.fetch_all(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE seed_hash = ? ORDER BY id", (seed_hash,))
    return [Round.from_row(row) for row in rows]


async def round_count_tx(tx: Tx) -> int:
    """How many rounds (league and world) the database holds: the console's `--seed` numbers its
    round secrets on from there, so a new round never gets a secret already published."""
    row = await tx.fetch_one("SELECT COUNT(*) FROM rounds", ())
    return int(row[0]) if row else 0


async def rounds_of_league_tx(tx: Tx, league_id: int) -> list[Round]:
    rows = await tx.fetch_all(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE league_id = ? ORDER BY number", (league_id,))
    return [Round.from_row(r) for r in rows]


async def world_round_tx(tx: Tx, week: str, game: str = CLASSIC) -> Round | None:
    """The world round of `game` in the ISO week (one per game and week), if made yet."""
    row = await tx.fetch_one(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE league_id IS NULL AND game = ? AND week = ?",
                             (game, week))
    return Round.from_row(row) if row else None


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


# -- runs ----------------------------------------------------------------------------------------

async def start_run_tx(tx: Tx, *, round_id: int, user_id: int, display_name: str, guild_id: int, guild_name: str,
                       rally_id: int, thread_id: int, week: str | None, now: datetime) -> Run:
    try:
        async with tx.attempt():
            row = await tx.fetch_one(
                "INSERT INTO runs (round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, "
                "started_at, game) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT game FROM rounds WHERE id = ?)) "
                f"RETURNING {RUN_COLUMNS}",  # a run is driven in its round's game
                (round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, to_text(now),
                 round_id))
    except Exception as exc:
        if constraint_kind(exc) != "unique":
            raise
        raise Duplicate("run.already_ran") from None
    assert row is not None
    return Run.from_row(row)


async def run_of_rally_tx(tx: Tx, rally_id: int) -> Run | None:
    row = await tx.fetch_one(f"SELECT {RUN_COLUMNS} FROM runs WHERE rally_id = ?", (rally_id,))
    return Run.from_row(row) if row else None


async def runs_of_rally_tx(tx: Tx, rally_id: int) -> list[Run]:
    """Every run played in a rally: one for a solo run, one per seat for a table game's table."""
    rows = await tx.fetch_all(f"SELECT {RUN_COLUMNS} FROM runs WHERE rally_id = ? ORDER BY id", (rally_id,))
    return [Run.from_row(r) for r in rows]


async def run_of_tx(tx: Tx, round_id: int, user_id: int) -> Run | None:
    """The driver's run that counts in the round: driven in it, or answering it."""
    row = await tx.fetch_one(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE user_id = ? AND (round_id = ? OR id IN "
        "(SELECT run_id FROM run_answers WHERE round_id = ? AND user_id = ?))", (user_id, round_id, round_id, user_id))
    return Run.from_row(row) if row else None


async def official_run_tx(tx: Tx, week: str, user_id: int, game: str = CLASSIC) -> Run | None:
    """The driver's one official run of `game` in the week (one per game: `runs_official`)."""
    row = await tx.fetch_one(f"SELECT {RUN_COLUMNS} FROM runs WHERE game = ? AND week = ? AND user_id = ?",
                             (game, week, user_id))
    return Run.from_row(row) if row else None


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
    rows = await tx.fetch_all(f"SELECT {RUN_COLUMNS} FROM runs WHERE round_id = ? ORDER BY id", (round_id,))
    return [Run.from_row(r) for r in rows]


# The runs that count in round ? (bound twice): driven in it, or answering it.
_COUNTED = "(round_id = ? OR id IN (SELECT run_id FROM run_answers WHERE round_id = ?))"


async def counted_runs_tx(tx: Tx, round_id: int) -> list[Run]:
    """Every run that counts in the round (its results, cards and penalties read these)."""
    rows = await tx.fetch_all(f"SELECT {RUN_COLUMNS} FROM runs WHERE {_COUNTED} ORDER BY id", (round_id, round_id))
    return [Run.from_row(r) for r in rows]


async def faster_runs_tx(tx: Tx, round_id: int, score: int, kind: ResultKind) -> int:
    """How many finished runs counting in the round have a better score than `score`, the better
    way of the game's result `kind` (indexed range count)."""
    key, sign = _key(kind)
    row = await tx.fetch_one(
        f"SELECT COUNT(*) FROM runs WHERE {_COUNTED} AND status = 'finished' AND {key} < ?",
        (round_id, round_id, sign * score))
    return int(row[0]) if row else 0


async def finished_count_tx(tx: Tx, round_id: int) -> int:
    row = await tx.fetch_one(f"SELECT COUNT(*) FROM runs WHERE {_COUNTED} AND status = 'finished'",
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
    rows = await tx.fetch_all(
        f"SELECT {ROUND_COLUMNS} FROM rounds WHERE game = ? AND week = ? AND status IN ('scheduled', 'open') "
        "AND league_id IN (SELECT league_id FROM league_members WHERE user_id = ?) ORDER BY id", (game, week, user_id))
    return [Round.from_row(r) for r in rows]


async def official_rounds_of_league_tx(tx: Tx, league_id: int) -> list[Round]:
    """The league's not yet closed rounds on an official stage (what a new member's runs answer)."""
    rows = await tx.fetch_all(
        f"SELECT {ROUND_COLUMNS} FROM rounds WHERE league_id = ? AND week IS NOT NULL "
        "AND status IN ('scheduled', 'open') ORDER BY id", (league_id,))
    return [Round.from_row(r) for r in rows]


async def rounds_answered_tx(tx: Tx, run_id: int) -> list[Round]:
    """The rounds a run answers (driven elsewhere, counted there), by id."""
    rows = await tx.fetch_all(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id IN "
                              "(SELECT round_id FROM run_answers WHERE run_id = ?) ORDER BY id", (run_id,))
    return [Round.from_row(r) for r in rows]


# -- world ranking -------------------------------------------------------------------------------

async def world_top_tx(tx: Tx, week: str, limit: int, kind: ResultKind, game: str = CLASSIC) -> list[Run]:
    """The week's best finished runs of `game`, the better way of its result `kind` (ties: first run first)."""
    key, _ = _key(kind)
    rows = await tx.fetch_all(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE game = ? AND week = ? AND status = 'finished' ORDER BY {key}, id "
        "LIMIT ?", (game, week, limit))
    return [Run.from_row(r) for r in rows]


async def world_rank_tx(tx: Tx, week: str, score: int, kind: ResultKind, game: str = CLASSIC) -> int:
    """The rank of a score in `game`'s ranking of the week (equal scores share a rank)."""
    key, sign = _key(kind)
    row = await tx.fetch_one(
        f"SELECT COUNT(*) FROM runs WHERE game = ? AND week = ? AND status = 'finished' AND {key} < ?",
        (game, week, sign * score))
    return (int(row[0]) if row else 0) + 1


async def world_around_tx(tx: Tx, week: str, run: Run, count: int, kind: ResultKind) -> list[Run]:  # run's game
    """Up to `count` finished runs each side of `run` in ranking order: a keyset on the row value
    (score key, id), which SQLite seeks in the index `runs_week_time` instead of walking it."""
    assert run.score is not None
    key, sign = _key(kind)
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
    rows = await tx.fetch_all(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE user_id = ? AND game = ? AND week IS NOT NULL ORDER BY week DESC "
        "LIMIT ?", (user_id, game, limit))
    return [Run.from_row(r) for r in rows]


# -- results, standings, log, cards --------------------------------------------------------------

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
    rows = await tx.fetch_all(f"SELECT {RESULT_COLUMNS} FROM round_results WHERE round_id = ? "
                              "ORDER BY position IS NULL, position, display_name", (round_id,))
    return [Result.from_row(r) for r in rows]


async def results_of_league_tx(tx: Tx, league_id: int) -> list[Result]:
    """Every result of the league's closed rounds (one indexed scan): the standings' input."""
    rows = await tx.fetch_all(f"SELECT {RESULT_COLUMNS} FROM round_results WHERE league_id = ?", (league_id,))
    return [Result.from_row(r) for r in rows]


async def log_tx(tx: Tx, *, league_id: int, actor_id: int, action: str, now: datetime, round_id: int | None = None,
                 target_id: int | None = None, seconds: int | None = None, reason: str = "",
                 corrects: int | None = None) -> None:
    await tx.execute(
        "INSERT INTO league_log (league_id, round_id, actor_id, action, target_id, seconds, reason, at, corrects) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (league_id, round_id, actor_id, action, target_id, seconds, reason,
                                               to_text(now), corrects))


async def log_of_round_tx(tx: Tx, round_id: int) -> list[LogEntry]:
    rows = await tx.fetch_all(f"SELECT {LOG_COLUMNS} FROM league_log WHERE round_id = ? ORDER BY id", (round_id,))
    return [LogEntry.from_row(r) for r in rows]


async def put_cards_tx(tx: Tx, round_id: int, body: str) -> None:
    await tx.execute("INSERT INTO round_cards (round_id, body) VALUES (?, ?) "
                     "ON CONFLICT (round_id) DO UPDATE SET body = excluded.body", (round_id, body))


async def cards_tx(tx: Tx, round_id: int) -> str | None:
    row = await tx.fetch_one("SELECT body FROM round_cards WHERE round_id = ?", (round_id,))
    return str(row[0]) if row else None
