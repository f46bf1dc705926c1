"""Consistency check: does every rally's action log rebuild its stored snapshot?

The snapshot is a cache of the log (DESIGN §2), so for every rally the replay of its actions
must give the stored snapshot back. The replay itself belongs to the rules engine and is passed
in: `replay(rally_row, actions) -> snapshot_json`, where `rally_row` is the rally as a dict (every
column except `snapshot`, so the replay cannot just copy it) plus `drivers` (list of driver
dicts, by seat), and `actions` the log as dicts in order. The check also verifies the log's shape
(numbered 1..version) and the database's own integrity check. The rallies that pass are marked
(`check_marks`: their version and snapshot hash), so the next check can replay only the rallies
that changed since (`changed_only`; `python -m bot db check` does, `--all` replays everything).

A rally whose replay parts from its snapshot has diverged (played under a rules bug since fixed):
the report names it and the first action known to replay differently (the one the replay refuses,
when the replay says which, `seq` on its exception; else the last, the log keeping no earlier
snapshot). The stored snapshot stays as it is: it is what the drivers saw.

Each logged text must also be in the log's canonical form (one JSON text per entry, the rally's
game's codec, e.g. `bot.engine.rallyman.action_codec`): that check belongs to the game and is
passed in as `log_problem(text, game) -> reason | None` (the rally row's game); every entry it
refuses is reported with its rally and seq.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.store.careers import rally_log_tx
from bot.store.clock import now_text
from bot.store.connection import Database, Tx
from bot.store.rows import Action

Replay = Callable[[dict[str, Any], list[dict[str, Any]]], str | None]
LogProblem = Callable[[str, str | None], str | None]

_SHOWN = 80  # characters of a differing value shown in a report
#: what a diverged rally's report says of it: its drivers played the stored state, which stands
STANDS = "the stored snapshot stands: the rally goes on from it"
BATCH = 64  # rallies read and replayed together (one task of a worker process)


@dataclass(frozen=True)
class Mismatch:
    """One problem found; `rally_id` is None for a database-wide problem."""

    rally_id: int | None
    detail: str

    def __str__(self) -> str:
        where = f"rally #{self.rally_id}" if self.rally_id is not None else "database"
        return f"{where}: {self.detail}"


@dataclass
class CheckReport:
    """What `check` looked at and what it found."""

    rallies: int = 0
    actions: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    unchanged: int = 0  # rallies skipped: the same version and snapshot as at their last check

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True) if not isinstance(value, str) else repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def first_difference(stored: Any, replayed: Any, path: str = "$") -> str | None:
    """The first place two JSON values differ, as `path: stored X, replayed Y`; None if equal."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in sorted(set(stored) | set(replayed), key=str):
            where = f"{path}.{key}"
            if key not in replayed:
                return f"{where}: stored {_short(stored[key])}, missing in replay"
            if key not in stored:
                return f"{where}: missing in stored snapshot, replayed {_short(replayed[key])}"
            found = first_difference(stored[key], replayed[key], where)
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(replayed, list):
        for index, (a, b) in enumerate(zip(stored, replayed)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(stored) != len(replayed):
            return f"{path}: stored {len(stored)} items, replayed {len(replayed)}"
        return None
    if type(stored) is not type(replayed) or stored != replayed:
        return f"{path}: stored {_short(stored)}, replayed {_short(replayed)}"
    return None


def compare_snapshots(stored: str | None, replayed: str | None) -> str | None:
    """None when the snapshots mean the same JSON; else the first difference, readable."""
    if stored == replayed:
        return None
    if stored is None or replayed is None:
        return f"stored snapshot {_short(stored)}, replayed {_short(replayed)}"
    try:
        a, b = json.loads(stored), json.loads(replayed)
    except (TypeError, ValueError):
        offset = next((i for i, (x, y) in enumerate(zip(stored, replayed)) if x != y), min(len(stored), len(replayed)))
        return f"snapshot text differs at character {offset} (not both valid JSON)"
    return first_difference(a, b)


def _log_shape_of(version: int, actions: list[Action]) -> str | None:
    if len(actions) != version:
        return f"version {version} but {len(actions)} actions in the log"
    for expected, action in enumerate(actions, start=1):
        if action.seq != expected:
            return f"action log jumps from {expected - 1} to {action.seq}"
    return None


def _log_entries(rally_id: int, actions: list[Action], log_problem: LogProblem, game: str | None) -> list[Mismatch]:
    """One mismatch per logged text that is not a canonical log entry of the rally's game."""
    found = []
    for action in actions:
        try:
            problem = log_problem(action.action, game)
        except Exception as exc:  # a broken checker is reported, it does not stop the check
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            found.append(Mismatch(rally_id, f"action {action.seq} {_short(action.action)} is not canonical: {problem}"))
    return found


def snapshot_sha(snapshot: str | None) -> str:
    """What a check mark remembers of a snapshot."""
    return hashlib.sha256((snapshot or "").encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class _Job:
    """One rally to verify: everything the replay needs, picklable for a worker process."""

    rally_id: int
    version: int
    rally_row: dict[str, Any]
    actions: list[dict[str, Any]]
    snapshot: str | None


def _verify(job: _Job, replay: Replay, log_problem: LogProblem | None) -> list[Mismatch]:
    """The problems of one rally's log and snapshot ([] when it replays to its snapshot)."""
    actions = [Action(**a) for a in job.actions]
    shape = _log_shape_of(job.version, actions)
    if shape:
        return [Mismatch(job.rally_id, shape)]
    found = _log_entries(job.rally_id, actions, log_problem, job.rally_row.get("game")) \
        if log_problem is not None else []
    try:
        replayed = replay(job.rally_row, job.actions)
    except Exception as exc:
        seq = getattr(exc, "seq", None)  # the entry the replay refused, when the replay names it
        if isinstance(seq, int):
            return [*found, Mismatch(job.rally_id, f"diverged from action {seq}: replay failed: {exc} "
                                                   f"({STANDS})")]
        return [*found, Mismatch(job.rally_id, f"replay failed: {type(exc).__name__}: {exc}")]
    difference = compare_snapshots(job.snapshot, replayed)
    if difference and job.actions:
        difference = (f"{difference}; diverged by action {job.version} at the latest (every action replays, the "
                      f"state differs at the end; {STANDS})")
    return [*found, Mismatch(job.rally_id, difference)] if difference else found


def _verify_batch(jobs: list[_Job], replay: Replay, log_problem: LogProblem | None) -> list[list[Mismatch]]:
    """In a worker process: `_verify` of each job."""
    return [_verify(job, replay, log_problem) for job in jobs]


async def _job(db: Database, rally_id: int) -> _Job | None:
    # One read transaction per rally: its row, drivers and log are one consistent state even
    # while the bot keeps writing.
    found = await db.read(partial(rally_log_tx, rally_id=rally_id))
    if found is None:
        return None  # deleted meanwhile
    rally, drivers, log = found
    rally_row = rally.as_dict()
    del rally_row["snapshot"]
    rally_row["drivers"] = [d.as_dict() for d in drivers]
    return _Job(rally.id, rally.version, rally_row, [a.as_dict() for a in log], rally.snapshot)


async def _to_check(db: Database, changed_only: bool, report: CheckReport) -> list[int]:
    """The rallies to replay: all, or those whose version or snapshot changed since their mark."""
    if not changed_only:
        return [int(r[0]) for r in await db.fetch_all("SELECT id FROM rallies ORDER BY id")]
    rows = await db.fetch_all(
        "SELECT r.id, r.version, r.snapshot, m.version, m.snapshot_sha FROM rallies r "
        "LEFT JOIN check_marks m ON m.rally_id = r.id ORDER BY r.id")
    wanted = []
    for rally_id, version, snapshot, marked_version, marked_sha in rows:
        if marked_version == version and marked_sha == snapshot_sha(snapshot):
            report.unchanged += 1
        else:
            wanted.append(int(rally_id))
    return wanted


async def _mark(db: Database, passed: list[_Job], now: str) -> None:
    """Remember the rallies that replayed to their snapshot, as they were checked."""
    rows = [(job.rally_id, job.version, snapshot_sha(job.snapshot), now) for job in passed]

    async def body(tx: Tx) -> None:
        await tx.execute_many(
            "INSERT INTO check_marks (rally_id, version, snapshot_sha, checked_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (rally_id) DO UPDATE SET version = excluded.version, "
            "snapshot_sha = excluded.snapshot_sha, checked_at = excluded.checked_at", rows)

    if rows:
        await db.write(body)


async def check(db: Database, replay: Replay, log_problem: LogProblem | None = None, *,
                changed_only: bool = False, workers: int = 1) -> CheckReport:
    """Replay the rallies and compare each with its stored snapshot, and (given `log_problem`)
    check that every logged text is canonical; the rallies that pass are marked (`check_marks`:
    version and snapshot hash), nothing else is written.

    `changed_only`: replay only the rallies whose version or snapshot changed since their last
    mark, and skip the database's own integrity check, which reads the whole file (a log edited
    behind the bot's back without touching the rally's row is found by a full check). `workers`
    > 1 replays in that many processes (`replay` and `log_problem` must then be module-level
    functions, picklable)."""
    report = CheckReport()
    if not changed_only:
        report.mismatches += [Mismatch(None, f"integrity: {p}") for p in await db.integrity_check()]
    ids = await _to_check(db, changed_only, report)
    now = now_text()
    passed: list[_Job] = []
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 and len(ids) > BATCH else None
    loop = asyncio.get_running_loop()
    pending: deque[tuple[list[_Job], asyncio.Future[list[list[Mismatch]]]]] = deque()

    def settle(jobs: list[_Job], results: list[list[Mismatch]]) -> None:
        for job, problems in zip(jobs, results):
            report.mismatches += problems
            if not problems:
                passed.append(job)

    try:
        for start in range(0, len(ids), BATCH):
            jobs = [job for rally_id in ids[start:start + BATCH] if (job := await _job(db, rally_id)) is not None]
            report.rallies += len(jobs)
            report.actions += sum(len(job.actions) for job in jobs)
            if pool is None:
                settle(jobs, _verify_batch(jobs, replay, log_problem))
                continue
            pending.append((jobs, loop.run_in_executor(pool, _verify_batch, jobs, replay, log_problem)))
            while len(pending) > 2 * workers:  # bounded memory: a few batches in flight
                done_jobs, future = pending.popleft()
                settle(done_jobs, await future)
        while pending:
            done_jobs, future = pending.popleft()
            settle(done_jobs, await future)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    await _mark(db, passed, now)
    return report
