"""Consistency check: does every rally's action log rebuild its stored snapshot?

The snapshot is a cache of the log (DESIGN §2), so for every rally the replay of its actions
must give the stored snapshot back. The replay itself belongs to the rules engine and is passed
in: `replay(rally_row, actions) -> snapshot_json`, where `rally_row` is the rally as a dict (every
column except `snapshot`, so the replay cannot just copy it) plus `drivers` (list of driver
dicts, by seat), and `actions` the log as dicts in order. The check also verifies the log's shape
(numbered 1..version) and SQLite's own integrity check. It only reads.

Each logged text must also be in the log's canonical form (one JSON text per entry, see
`bot.engine.action_codec`): that check belongs to the engine too and is passed in as
`log_problem(text) -> reason | None`; every entry it refuses is reported with its rally and seq.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from bot.store.connection import Database, Tx
from bot.store.rows import ACTION_COLUMNS, DRIVER_COLUMNS, RALLY_COLUMNS, Action, Driver, Rally

Replay = Callable[[dict[str, Any], list[dict[str, Any]]], str | None]
LogProblem = Callable[[str], str | None]

_SHOWN = 80  # characters of a differing value shown in a report


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


def _log_shape(rally: Rally, actions: list[Action]) -> str | None:
    if len(actions) != rally.version:
        return f"version {rally.version} but {len(actions)} actions in the log"
    for expected, action in enumerate(actions, start=1):
        if action.seq != expected:
            return f"action log jumps from {expected - 1} to {action.seq}"
    return None


def _log_entries(rally_id: int, actions: list[Action], log_problem: LogProblem) -> list[Mismatch]:
    """One mismatch per logged text that is not a canonical log entry."""
    found = []
    for action in actions:
        try:
            problem = log_problem(action.action)
        except Exception as exc:  # a broken checker is reported, it does not stop the check
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            found.append(Mismatch(rally_id, f"action {action.seq} {_short(action.action)} is not canonical: {problem}"))
    return found


async def _load(tx: Tx, rally_id: int) -> tuple[Any, list[Any], list[Any]] | None:
    row = await tx.fetch_one(f"SELECT {RALLY_COLUMNS} FROM rallies WHERE id = ?", (rally_id,))
    if row is None:
        return None
    drivers = await tx.fetch_all(f"SELECT {DRIVER_COLUMNS} FROM drivers WHERE rally_id = ? ORDER BY seat", (rally_id,))
    log = await tx.fetch_all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE rally_id = ? ORDER BY seq", (rally_id,))
    return row, drivers, log


async def check(db: Database, replay: Replay, log_problem: LogProblem | None = None) -> CheckReport:
    """Replay every rally and compare with its stored snapshot, and (given `log_problem`) check
    that every logged text is canonical; reads only."""
    report = CheckReport()
    report.mismatches += [Mismatch(None, f"integrity: {p}") for p in await db.integrity_check()]
    ids = [int(r[0]) for r in await db.fetch_all("SELECT id FROM rallies ORDER BY id")]
    for rally_id in ids:
        # One read transaction per rally: its row, drivers and log are one consistent state even
        # while the bot keeps writing.
        found = await db.read(partial(_load, rally_id=rally_id))
        if found is None:
            continue  # deleted meanwhile
        row, drivers, log = found
        rally = Rally.from_row(row)
        actions = [Action.from_row(r) for r in log]
        report.rallies += 1
        report.actions += len(actions)
        shape = _log_shape(rally, actions)
        if shape:
            report.mismatches.append(Mismatch(rally_id, shape))
            continue
        if log_problem is not None:
            report.mismatches += _log_entries(rally_id, actions, log_problem)
        rally_row = rally.as_dict()
        del rally_row["snapshot"]
        rally_row["drivers"] = [Driver.from_row(d).as_dict() for d in drivers]
        try:
            replayed = replay(rally_row, [a.as_dict() for a in actions])
        except Exception as exc:
            report.mismatches.append(Mismatch(rally_id, f"replay failed: {type(exc).__name__}: {exc}"))
            continue
        difference = compare_snapshots(rally.snapshot, replayed)
        if difference:
            report.mismatches.append(Mismatch(rally_id, difference))
    return report
