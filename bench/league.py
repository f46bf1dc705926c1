"""Championship benchmark: a round's close, `/scratch`, and the scheduler tick, at scale.

Everything runs on one temporary SQLite file through the real `Store` and services, with a fake
clock:

- `close_ms`: the `league.close` job of a round of `RUNS` finished runs, timed as the scheduler
  runs it (`DeadlineService.run_due()`, routed to `bot/services/league/round_close.py` `close_round`):
  classification with gaps and points, the `round_results` rows, the cards file (every run's
  whole action log read), the season standings and the two outbox rows, in one transaction. The
  league and the round are made through the services (`/league create`, `join`, `round add`
  opening "now" and closing "+2d", opened by its job); one genuine run is driven to its end by the
  AI in its thread, then its rally, driver, action log, run row and league membership are copied
  `RUNS - 1` times in one transaction with other driver ids and varied times (a bench fixture:
  the bot never writes rows this way). The reminders are run first, untimed; then the clock moves
  past the close and one `run_due()` is timed. One measurement (a round closes once).
- `rating_ms`: inside that same close, the rating update of the round's `RUNS`
  drivers (`bot/services/career/ratings.py` `rate_closed_round_tx`, the call `close_round` makes in its
  transaction: the ranking read from the stored results, the OpenSkill update, the ratings and
  history rows), timed around that call on the close's own path (so it is part of `close_ms`);
  `rated` says how many drivers it rated. Goal: `rating_ms` ≤ 0.2 × `close_ms` (same run).
- `scratch_ms`: `/scratch` (`ScratchService.ranking`) with `RESULTS` finished runs in the week's
  world round, asked by a driver ranked mid-table (so the neighbourhood query runs): the queries,
  the table spec and the outbox row, not drawing the image (the outbox sender draws it later,
  see `bench render`). Median of `CALLS` calls.
- `tick_ms`: one `run_due()` with `JOBS` pending jobs not yet due (a turn clock per rally of the
  close, league round jobs for the rest) plus `DUE` due ones (stale turn reminders of a finished
  rally: claimed, checked, completed), median of `CALLS` ticks; `idle_tick_ms` the same with
  nothing due.
- `select_ms`, the baseline of the same run: `SELECT id FROM runs WHERE id = ?` for one row
  through the same store (`store.db.fetch_one`), median of `SELECTS` calls.

Goals: close ≤ 2000 ms, scratch ≤ 20 ms, tick ≤ 10 ms; rating ≤ 0.2 × close.
`python -m bot bench league [--runs N] [--results N] [--jobs N]` prints one JSON line.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.engine.core.official import week_of
from bot.engine.rallyman.ai import choose_action
from bot.services import Actor, Place, RallyService
from bot.services.league import round_close
from bot.services.play.deadlines import DeadlineService
from bot.services.world.rounds import ensure_week_tx
from bot.store import Store
from bot.store.clock import from_text, to_text
from bot.store.connection import Tx

RUNS = 1_000
RESULTS = 100_000
JOBS = 100_000
CALLS = 50
DUE = 3
SELECTS = 500

START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)  # a Monday: the round and the world week share W48
GUILD, CHANNEL, THREAD = 10, 20, 900_000
BASE_USER = 400_000_000_000_000_000  # snowflake-sized ids, so the template's id is never a substring
ORGANISER = Actor(1004, "Mod", can_manage=True)
STAGE = "ridge-and-moor"
MAX_ACTIONS = 400


class Clock:
    """The bot's time, moved by the bench."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def _value(store: Store, sql: str, params: tuple[Any, ...] = ()) -> Any:
    """The first column of the first row of a query (a count, a status...)."""
    row = await store.db.fetch_one(sql, params)
    assert row is not None, sql
    return row[0]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


async def _timed(call: Any) -> tuple[float, Any]:
    began = time.perf_counter()
    result = await call
    return time.perf_counter() - began, result


# -- the close ------------------------------------------------------------------------------------

async def _drive(service: RallyService, actor: Actor, thread: Place) -> None:
    """Drive a run to its end with the AI's choices, typed as the driver would."""
    for _ in range(MAX_ACTIONS):
        rally = await service.store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
        if rally is None or rally.status != "running":
            return
        await service.act(thread, actor, str(choose_action(service.work.state_of(rally))))
    raise RuntimeError("the template run did not end")


async def _template_round(service: RallyService, deadlines: DeadlineService) -> tuple[int, int, int]:
    """A league, one open round and one genuine finished run: (league id, round id, rally id)."""
    champs = service.championships
    place = Place(GUILD, CHANNEL)
    driver = Actor(BASE_USER, "Driver 0")
    await champs.leagues.create(place, ORGANISER, "Bench league", "Europe/Paris")
    await champs.rounds.round_add(place, ORGANISER, STAGE, opens="now", closes="+2d")
    await deadlines.run_due()  # league.open
    await champs.leagues.join(place, driver)
    rnd, league = await champs.check_run(place, driver)
    await champs.start_run(place, driver, rnd, league, THREAD, "Bench server")
    await _drive(service, driver, Place(GUILD, THREAD))
    row = await service.store.db.fetch_one("SELECT rally_id, status FROM runs WHERE round_id = ? AND user_id = ?",
                                           (rnd.id, BASE_USER))
    assert row is not None and row["status"] == "finished", "the template run did not finish"
    return league.id, rnd.id, int(row["rally_id"])


def _insert(table: str, names: list[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"


async def _clone_runs(store: Store, league_id: int, rally_id: int, runs: int, seed: int) -> None:
    """Bench fixture: `runs - 1` copies of the template run (rally, driver, log, run, membership)."""
    rng = random.Random(seed)

    async def one(tx: Tx, sql: str, params: tuple[Any, ...]) -> dict[str, Any]:
        row = await tx.fetch_one(sql, params)
        assert row is not None, sql
        return dict(row)

    async def clone(tx: Tx) -> None:
        rally = await one(tx, "SELECT * FROM rallies WHERE id = ?", (rally_id,))
        driver = await one(tx, "SELECT * FROM drivers WHERE rally_id = ?", (rally_id,))
        actions = [dict(r) for r in await tx.fetch_all("SELECT * FROM actions WHERE rally_id = ? ORDER BY seq",
                                                       (rally_id,))]
        run = await one(tx, "SELECT * FROM runs WHERE rally_id = ?", (rally_id,))
        member = await one(tx, "SELECT * FROM league_members WHERE league_id = ? AND user_id = ?",
                           (league_id, BASE_USER))
        first = int((await one(tx, "SELECT MAX(id) AS top FROM rallies", ()))["top"]) + 1
        old = str(BASE_USER)
        time_s = int(run["score"])
        rally_cols = [c for c in rally if c != "id"] + ["id"]
        run_cols = [c for c in run if c != "id"]
        rallies, drivers, logs, run_rows, members = [], [], [], [], []
        for i in range(1, runs):
            new_id, user = first + i - 1, BASE_USER + i
            new = str(user)

            def swap(value: Any, new: str = new) -> Any:
                return value.replace(old, new) if isinstance(value, str) else value

            r = {**rally, "host_id": user, "channel_id": THREAD + i, "snapshot": swap(rally["snapshot"]),
                 "modules": swap(rally["modules"]), "id": new_id}
            rallies.append(tuple(r[c] for c in rally_cols))
            drivers.append(tuple({**driver, "rally_id": new_id, "user_id": user,
                                  "display_name": f"Driver {i}"}[c] for c in driver))
            logs += [tuple({**a, "rally_id": new_id, "actor": user if a["actor"] is not None else None,
                            "action": swap(a["action"])}[c] for c in a) for a in actions]
            took = max(60, time_s + rng.randint(-time_s // 5, time_s // 2))
            run_rows.append(tuple({**run, "user_id": user, "display_name": f"Driver {i}", "rally_id": new_id,
                                   "thread_id": THREAD + i, "score": took, "power_s": took}[c] for c in run_cols))
            members.append(tuple({**member, "user_id": user, "display_name": f"Driver {i}"}[c] for c in member))
        await tx.execute_many(_insert("rallies", rally_cols), rallies)
        await tx.execute_many(_insert("drivers", list(driver)), drivers)
        await tx.execute_many(_insert("actions", list(actions[0])), logs)
        await tx.execute_many(_insert("runs", run_cols), run_rows)
        await tx.execute_many(_insert("league_members", list(member)), members)

    await store.db.write(clone)


async def _close(store: Store, service: RallyService, deadlines: DeadlineService, clock: Clock, runs: int,
                 seed: int) -> dict[str, Any]:
    league_id, round_id, rally_id = await _template_round(service, deadlines)
    await _clone_runs(store, league_id, rally_id, runs, seed)
    closes = from_text(await _value(store, "SELECT closes_at FROM rounds WHERE id = ?", (round_id,)))
    clock.now = closes - timedelta(minutes=30)
    await deadlines.run_due()  # the 24 h and 1 h reminders, untimed
    clock.now = closes + timedelta(minutes=1)
    rating: list[tuple[float, int]] = []
    rate = round_close.rate_closed_round_tx

    async def timed_rating(tx: Tx, rnd: Any, now: datetime) -> int:
        began = time.perf_counter()
        rated = await rate(tx, rnd, now)
        rating.append((time.perf_counter() - began, rated))
        return rated

    round_close.rate_closed_round_tx = timed_rating  # the close's own call, timed where it is made
    try:
        took, acted = await _timed(deadlines.run_due())
    finally:
        round_close.rate_closed_round_tx = rate
    status = await _value(store, "SELECT status FROM rounds WHERE id = ?", (round_id,))
    results = await _value(store, "SELECT COUNT(*) FROM round_results WHERE round_id = ?", (round_id,))
    cards = await _value(store, "SELECT length(CAST(body AS BLOB)) FROM round_cards WHERE round_id = ?", (round_id,))
    if acted != 1 or status != "closed" or results != runs:
        raise RuntimeError(f"the close did not run as expected: acted {acted}, status {status}, "
                           f"{results} results for {runs} runs")
    if len(rating) != 1 or rating[0][1] != runs:
        raise RuntimeError(f"the close did not rate its {runs} drivers once: {rating}")
    counted = await _value(store, "SELECT COUNT(*) FROM runs WHERE round_id = ?", (round_id,))
    return {"close_ms": _ms(took), "rating_ms": _ms(rating[0][0]), "rated": rating[0][1],
            "runs": int(counted), "cards_kib": round(int(cards) / 1024, 1),
            "round_id": round_id, "rally_id": rally_id}


# -- /scratch ------------------------------------------------------------------------------------

async def _world_runs(store: Store, clock: Clock, results: int, seed: int) -> tuple[str, int]:
    """Bench fixture: `results` finished runs in the clock's week; returns (week, a mid-table user)."""
    rng = random.Random(seed)
    now = clock()
    week = week_of(now)
    rnd = await store.db.write(lambda tx: ensure_week_tx(tx, week, now, lambda: "ab" * 32))
    first_user = BASE_USER + 10_000_000
    times = [rng.randint(400, 1400) for _ in range(results)]
    started = to_text(now - timedelta(hours=2))
    done = to_text(now - timedelta(hours=1))
    rows = [(rnd.id, first_user + i, f"World {i}", 1_000 + i % 500, f"Server {i % 500}", None, None, week,
             "finished", t, t, None, started, done) for i, t in enumerate(times)]

    async def insert(tx: Tx) -> None:
        await tx.execute_many(
            "INSERT INTO runs (round_id, user_id, display_name, guild_id, guild_name, rally_id, thread_id, week, "
            "status, score, power_s, reason, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
            "?, ?)", rows)

    await store.db.write(insert)
    for hidden in (1_000, 1_001, 1_002):  # a few servers hide their name
        await store.guilds.update(hidden, world_name=False)
    middle = sorted(range(results), key=lambda i: (times[i], i))[results // 2]
    return week, first_user + middle


async def _scratch(store: Store, service: RallyService, deadlines: DeadlineService, clock: Clock, results: int,
                   calls: int, seed: int) -> dict[str, Any]:
    week, asker = await _world_runs(store, clock, results, seed)
    await deadlines.run_due()  # the week's overdue scratch.open job, untimed
    scratch = service.championships.scratch
    place, actor = Place(GUILD, CHANNEL), Actor(asker, "Asker")
    reply = await scratch.ranking(place, actor)  # warm-up
    if not reply.outbox:
        raise RuntimeError(f"/scratch posted nothing: {reply.lines}")
    times = [(await _timed(scratch.ranking(place, actor)))[0] for _ in range(calls)]
    counted = await _value(store, "SELECT COUNT(*) FROM runs WHERE week = ? AND status = 'finished'", (week,))
    return {"scratch_ms": _ms(statistics.median(times)), "results": int(counted)}


# -- the scheduler tick --------------------------------------------------------------------------

async def _pending_jobs(store: Store, clock: Clock, jobs: int, rally_ids: list[int], seed: int) -> None:
    """Bench fixture: `jobs` pending jobs due from 10 minutes to 14 days from now: a turn clock
    (reminder + deadline) for each rally given, as a rally has at most one, and league round
    reminders and closes for the rest."""
    rng = random.Random(seed)
    now = clock()
    created = to_text(now)
    rows: list[tuple[str, str, str, str, int | None]] = []
    for rally in rally_ids[:jobs // 2]:
        left = rng.randint(1_200, 2 * 86_400)  # seconds to the deadline; the reminder is at half time
        rows.append(("turn.remind", f"rally:{rally}:turn", to_text(now + timedelta(seconds=left // 2)), created,
                     rally))
        rows.append(("turn.deadline", f"rally:{rally}:turn", to_text(now + timedelta(seconds=left)), created, rally))
    for i in range(jobs - len(rows)):
        kind = ("league.remind", "league.close")[i % 2]
        due = to_text(now + timedelta(seconds=rng.randint(600, 14 * 86_400)))
        rows.append((kind, f"round:{1_000_000 + i // 2}:{'1h' if kind == 'league.remind' else 'close'}", due,
                     created, None))

    async def insert(tx: Tx) -> None:
        await tx.execute_many("INSERT INTO jobs (kind, ref, due_at, attempts, created_at, rally_id) "
                              "VALUES (?, ?, ?, 0, ?, ?)", rows)

    await store.db.write(insert)


async def _due_jobs(store: Store, clock: Clock, count: int, rally_id: int) -> None:
    """`count` turn reminders due now for a finished rally: the tick claims each, finds it stale
    and completes it (the cheapest real handler path)."""
    due = to_text(clock() - timedelta(seconds=1))

    async def insert(tx: Tx) -> None:
        await tx.execute_many("INSERT INTO jobs (kind, ref, due_at, attempts, created_at, rally_id) "
                              "VALUES ('turn.remind', ?, ?, 0, ?, ?)",
                              [(f"rally:{rally_id}:turn", due, due, rally_id)] * count)

    await store.db.write(insert)


async def _tick(store: Store, deadlines: DeadlineService, clock: Clock, jobs: int, calls: int, rally_id: int,
                seed: int) -> dict[str, Any]:
    rows = await store.db.fetch_all("SELECT id FROM rallies WHERE id <> ? ORDER BY id", (rally_id,))
    await _pending_jobs(store, clock, jobs, [int(r[0]) for r in rows], seed)
    await deadlines.run_due()  # anything left due from the set-up, untimed
    pending = await _value(store, "SELECT COUNT(*) FROM jobs WHERE done_at IS NULL")
    busy, idle = [], []
    for _ in range(calls):
        await _due_jobs(store, clock, DUE, rally_id)
        took, _ = await _timed(deadlines.run_due())
        busy.append(took)
        left = await _value(store, "SELECT COUNT(*) FROM jobs WHERE done_at IS NULL AND due_at <= ?",
                            (to_text(clock()),))
        if left:
            raise RuntimeError(f"{left} due jobs were left by the tick")
        idle.append((await _timed(deadlines.run_due()))[0])
    return {"tick_ms": _ms(statistics.median(busy)), "idle_tick_ms": _ms(statistics.median(idle)),
            "pending_jobs": int(pending)}


# -- the baseline and the whole run --------------------------------------------------------------

async def _select(store: Store, count: int, seed: int) -> float:
    """One bare indexed SELECT of one row through the store: median seconds."""
    rng = random.Random(seed)
    highest = int(await _value(store, "SELECT MAX(id) FROM runs"))
    times = []
    for _ in range(count):
        took, _row = await _timed(store.db.fetch_one("SELECT id FROM runs WHERE id = ?", (rng.randint(1, highest),)))
        times.append(took)
    return statistics.median(times)


async def _measure(folder: Path, runs: int, results: int, jobs: int, calls: int, seed: int) -> dict[str, Any]:
    clock = Clock(START)
    store = await Store.open(folder / "league.sqlite3")
    try:
        service = RallyService(store, seed_source=lambda: 42, clock=clock)
        deadlines = DeadlineService(service.work, clock=clock)
        close = await _close(store, service, deadlines, clock, runs, seed)
        scratch = await _scratch(store, service, deadlines, clock, results, calls, seed)
        tick = await _tick(store, deadlines, clock, jobs, calls, close["rally_id"], seed)
        select_s = await _select(store, SELECTS, seed)
    finally:
        await store.close()
    return {
        "bench": "league",
        "close_ms": close["close_ms"],
        "rating_ms": close["rating_ms"],
        "rating_over_close": round(close["rating_ms"] / close["close_ms"], 3),
        "scratch_ms": scratch["scratch_ms"],
        "tick_ms": tick["tick_ms"],
        "select_ms": _ms(select_s),
        "idle_tick_ms": tick["idle_tick_ms"],
        "runs": close["runs"],
        "results": scratch["results"],
        "pending_jobs": tick["pending_jobs"],
        "cards_kib": close["cards_kib"],
        "rated": close["rated"],
        "goals_ms": {"close": 2000, "scratch": 20, "tick": 10},
        "goals": {"rating_over_close": 0.2},
    }


def run(runs: int = RUNS, results: int = RESULTS, jobs: int = JOBS, *, calls: int = CALLS, seed: int = 11) -> dict:
    """Run the league benchmark on a temporary database; returns the issue-11 record."""
    if runs < 1 or results < 1 or jobs < 1 or calls < 1:
        raise ValueError("runs, results, jobs and calls must be at least 1")
    with tempfile.TemporaryDirectory(prefix="rallybot-bench-league-") as tmp:
        return asyncio.run(_measure(Path(tmp), runs, results, jobs, calls, seed))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="league benchmark: prints one JSON line")
    parser.add_argument("--runs", type=int, default=RUNS, help="finished runs in the closed round")
    parser.add_argument("--results", type=int, default=RESULTS, help="finished runs in the world ranking")
    parser.add_argument("--jobs", type=int, default=JOBS, help="pending jobs not yet due at the tick")
    parser.add_argument("--calls", type=int, default=CALLS, help="timed /scratch calls and ticks")
    args = parser.parse_args(argv)
    print(json.dumps(run(args.runs, args.results, args.jobs, calls=args.calls)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
