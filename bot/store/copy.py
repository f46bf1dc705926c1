"""Moving house: every row of one database into another, SQLite ↔ PostgreSQL (`python -m bot db copy`).

Both ends are brought to the current schema first (the same migrations the bot runs at start);
the target must hold no rows at all, so a copy never mixes two bots' data. Tables are copied in
the order their foreign keys need (`TABLES`), in batches read by key (`(a, b) > (?, ?)`: no
OFFSET scans on large tables), each batch one transaction on the target; the ids are kept, and
each table's id counter is moved past the source's (so ids are never reused, as AUTOINCREMENT
promises). Afterwards the caller runs `db check` on the target: every rally's log replays to its
stored snapshot there too. An interrupted copy leaves a partial target, which the next copy
refuses: start again from an empty database.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.store.connection import Database, Tx
from bot.store.errors import StoreError

BATCH = 2000

# (table, its key columns), parents before children.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("guild_settings", ("guild_id",)),
    ("rallies", ("id",)),
    ("drivers", ("rally_id", "user_id")),
    ("actions", ("rally_id", "seq")),
    ("messages", ("rally_id", "kind")),
    ("jobs", ("id",)),
    ("outbox", ("id",)),
    ("leagues", ("id",)),
    ("league_members", ("league_id", "user_id")),
    ("rounds", ("id",)),
    ("runs", ("id",)),
    ("run_answers", ("round_id", "user_id")),
    ("round_results", ("round_id", "user_id")),
    ("league_log", ("id",)),
    ("round_cards", ("round_id",)),
    ("check_marks", ("rally_id",)),
    ("notify_prefs", ("user_id",)),
    ("web_channels", ("guild_id", "channel_id")),
    ("ratings", ("game", "user_id")),
    ("rating_events", ("id",)),
    ("rating_history", ("event_id", "user_id")),
    ("career_results", ("rally_id", "user_id")),
    ("career_achievements", ("user_id", "achievement")),
    ("window_answers", ("rally_id", "user_id")),
    ("shard_processes", ("id",)),  # the bot processes' records: stale on the target 2 minutes on (shards.STALE_S)
)


class TargetNotEmpty(StoreError):
    """The target of a copy already holds rows."""

    kind = "target_not_empty"
    key = "store.copy_target_not_empty"


@dataclass(frozen=True)
class CopyReport:
    """How many rows of each table were copied."""

    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


async def count_rows(db: Database) -> dict[str, int]:
    """The number of rows of every table the database has (one at an older schema lacks the newer ones)."""
    counts = {}
    for table, _ in TABLES:
        if not await _columns(db, table):
            continue
        row = await db.fetch_one(f"SELECT COUNT(*) FROM {table}")
        counts[table] = int(row[0]) if row else 0
    return counts


async def copy_rows(source: Database, target: Database,
                    progress: Callable[[str, int], None] | None = None) -> CopyReport:
    """Copy every table of `source`, as it is at one moment (`Database.snapshot`), into the empty
    `target` (both at the current schema)."""
    async with source.snapshot() as reader:
        return await _copy(reader, target, progress)


async def _copy(source: Tx, target: Database, progress: Callable[[str, int], None] | None) -> CopyReport:
    present = {table: n for table, n in (await count_rows(target)).items() if n}
    if present:
        raise TargetNotEmpty("store.copy_target_not_empty", target=target.path,
                             tables=", ".join(f"{t} ({n})" for t, n in present.items()))
    copied: dict[str, int] = {}
    for table, keys in TABLES:
        columns = await source.columns(table)
        if not columns:  # a source at an older schema has no such table yet: nothing to copy
            continue
        wanted = await _columns(target, table)
        missing = [c for c in columns if c not in wanted]
        if missing:
            raise ValueError(f"{target.path}: table {table} has no column {', '.join(missing)}")
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        order = ", ".join(keys)
        positions = [columns.index(k) for k in keys]
        insert = f"INSERT INTO {table} ({names}) VALUES ({marks})"
        last: tuple[object, ...] | None = None
        total = 0
        while True:
            after = "" if last is None else f"WHERE ({order}) > ({', '.join('?' for _ in keys)}) "
            rows = await source.fetch_all(f"SELECT {names} FROM {table} {after}ORDER BY {order} LIMIT ?",
                                          (*(last or ()), BATCH))
            if not rows:
                break
            batch = [tuple(r) for r in rows]
            await _insert(target, insert, batch)
            total += len(batch)
            last = tuple(batch[-1][i] for i in positions)
            if progress is not None:
                progress(table, total)
        if "id" in columns:
            await _move_counter(await source.identity(table), target, table)
        copied[table] = total
    return CopyReport(copied)


async def _columns(db: Database, table: str) -> list[str]:
    async def body(tx: Tx) -> list[str]:
        return await tx.columns(table)

    return await db.read(body)


async def _insert(db: Database, sql: str, batch: list[tuple[object, ...]]) -> None:
    async def body(tx: Tx) -> None:
        await tx.execute_many(sql, batch)

    await db.write(body)


async def _move_counter(high: int, target: Database, table: str) -> None:
    """The target's next id for `table` goes past every id the source ever handed out (`high`)."""

    async def write(tx: Tx) -> None:
        await tx.set_identity(table, high)

    await target.write(write)


async def export_to_file(source: Database, dest: Path) -> int:
    """A portable export of `source` as a new SQLite file `dest` (written beside it, then renamed:
    never half a file under the final name); returns its size in bytes."""
    from bot.store.migrations import migrate
    from bot.store.sqlite import SqliteDatabase

    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    if partial.exists():
        partial.unlink()
    target = await SqliteDatabase.open_file(partial)
    try:
        await migrate(target)
        await copy_rows(source, target)
    except BaseException:
        await target.close()
        partial.unlink(missing_ok=True)
        raise
    await target.close()
    for leftover in (Path(f"{partial}-wal"), Path(f"{partial}-shm")):
        leftover.unlink(missing_ok=True)
    os.replace(partial, dest)
    return dest.stat().st_size
