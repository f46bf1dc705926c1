"""Which Discord shards this process serves, and the SQL that keeps its claims to their servers.

Discord puts server `g` on shard `(g >> 22) % shard_count`. A process started with `SHARD_COUNT`
and `SHARD_IDS` (see `bot/config.py`) receives only those shards' events, so it also delivers
only their servers' posts and runs only their jobs; jobs of no server (the weekly world scratch)
belong to the process that serves shard 0. Without sharding (`Shards.everything()`) a process
serves them all.

The processes that share a database know about each other through `ShardRegistry` (the
`shard_processes` table): each running bot records its SHARD_COUNT, SHARD_IDS, host, pid and a
heartbeat (`HEARTBEAT_S`). A start whose shards overlap a live process's, or whose SHARD_COUNT
differs from one (without sharding counts as serving every shard), is refused (`ShardConflict`,
naming the other process) before it claims a post or a job, so nothing is sent twice. A record
whose heartbeat is older than `STALE_S` (a process killed without closing) blocks nothing and is
removed by the next start.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.store.clock import to_text
from bot.store.connection import POSTGRESQL, Database, Tx

_MAX_SHARDS = 10_000
HEARTBEAT_S = 30  # a running process refreshes its record this often
STALE_S = 120  # a record not refreshed for this long is a dead process's


@dataclass(frozen=True)
class Shards:
    """`ids` of `count` shards; `count` 0 means every server (no sharding)."""

    count: int = 0
    ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.count == 0:
            if self.ids:
                raise ValueError("shard ids need a shard count")
            return
        if not 1 <= self.count <= _MAX_SHARDS:
            raise ValueError(f"the shard count must be from 1 to {_MAX_SHARDS}, got {self.count}")
        if not self.ids:
            raise ValueError("name at least one shard id")
        wrong = [i for i in self.ids if not 0 <= i < self.count]
        if wrong:
            raise ValueError(f"shard ids must be from 0 to {self.count - 1}, got {', '.join(map(str, wrong))}")

    @classmethod
    def everything(cls) -> Shards:
        return cls()

    def text(self) -> str:
        """How the settings name these shards (`SHARD_COUNT=4, SHARD_IDS=0-1,3`)."""
        if self.count == 0:
            return "no SHARD_COUNT (every shard)"
        return f"SHARD_COUNT={self.count}, SHARD_IDS={ranges(self.ids)}"

    def clash(self, other: Shards) -> str | None:
        """Why a process with `other` shards and one with these cannot run on one database at once
        (None: they can): different shard counts, or shards both serve."""
        if self.count != other.count:
            return "a different SHARD_COUNT: every process of a bot must use the same one"
        if self.count == 0:
            return "every shard in both"
        both = sorted(set(self.ids) & set(other.ids))
        return f"shard{'s' if len(both) > 1 else ''} {ranges(both)} in both" if both else None

    @property
    def all(self) -> bool:
        return self.count == 0 or len(set(self.ids)) == self.count

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count if self.count else 0

    def owns(self, guild_id: int | None) -> bool:
        """Does this process serve `guild_id` (None: a world job, shard 0's)?"""
        if self.all:
            return True
        if guild_id is None:
            return 0 in self.ids
        return self.shard_of(guild_id) in self.ids

    def where(self, column: str) -> str:
        """An SQL condition on `column` (a guild id, maybe NULL) that is true for this process's
        servers; only validated integers are written into it, so it takes no parameters."""
        if self.all:
            return "1 = 1"
        ids = ", ".join(str(int(i)) for i in sorted(set(self.ids)))
        ours = f"(({column} >> 22) % {int(self.count)}) IN ({ids})"
        if 0 in self.ids:
            return f"({column} IS NULL OR {ours})"
        return f"({column} IS NOT NULL AND {ours})"


def ranges(ids: tuple[int, ...] | list[int]) -> str:
    """Shard ids as SHARD_IDS writes them: `0-3,6`."""
    out: list[str] = []
    for i in sorted(set(ids)):
        if out and out[-1].split("-")[-1] == str(i - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{i}"
        else:
            out.append(str(i))
    return ",".join(out)


@dataclass(frozen=True)
class ShardProcess:
    """A bot process's record: its shards, where it runs, its last heartbeat (stored UTC text)."""

    id: int
    shards: Shards
    host: str
    pid: int
    started_at: str
    heartbeat_at: str

    def describe(self) -> str:
        return (f"process {self.pid} on {self.host} ({self.shards.text()}; started {self.started_at}, "
                f"last heartbeat {self.heartbeat_at})")


class ShardConflict(Exception):
    """This process's shards cannot run beside a live process's; the text names both and the fix."""

    def __init__(self, mine: Shards, other: ShardProcess, why: str) -> None:
        self.other = other
        super().__init__(
            f"this process ({mine.text()}) cannot start: {other.describe()} uses the same database with {why}. "
            f"Give each process its own SHARD_IDS under one SHARD_COUNT, or stop that process first (a process "
            f"killed without closing stops counting {STALE_S} s after its last heartbeat).")


_COLUMNS = "id, shard_count, shard_ids, host, pid, started_at, heartbeat_at"


def _record(row: object) -> ShardProcess:
    r = list(row)  # type: ignore[call-overload]
    ids = tuple(int(i) for i in str(r[2]).split(",") if i)
    return ShardProcess(int(r[0]), Shards(int(r[1]), ids), str(r[3]), int(r[4]), str(r[5]), str(r[6]))


class ShardRegistry:
    """Repository of the `shard_processes` table: which bot processes run on this database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(self, shards: Shards, host: str, pid: int, now: datetime, stale_s: int = STALE_S) -> int:
        """Record this process (`host`, `pid`) as serving `shards`; its record's id. Refused with
        `ShardConflict` (nothing written) when a live process of another pid or host clashes
        (`Shards.clash`); stale records and this process's own earlier one are removed."""
        stamp, oldest = to_text(now), to_text(now - timedelta(seconds=stale_s))

        async def body(tx: Tx) -> int:
            await _exclusive(tx)
            rows = await tx.fetch_all(f"SELECT {_COLUMNS} FROM shard_processes WHERE heartbeat_at >= ? "
                                      "AND NOT (host = ? AND pid = ?) ORDER BY id", (oldest, host, pid))
            for other in map(_record, rows):
                why = shards.clash(other.shards)
                if why is not None:
                    raise ShardConflict(shards, other, why)
            await tx.execute("DELETE FROM shard_processes WHERE heartbeat_at < ? OR (host = ? AND pid = ?)",
                             (oldest, host, pid))
            row = await tx.fetch_one(
                "INSERT INTO shard_processes (shard_count, shard_ids, host, pid, started_at, heartbeat_at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (shards.count, ",".join(map(str, sorted(set(shards.ids)))), host, pid, stamp, stamp))
            assert row is not None
            return int(row[0])

        return await self._db.write(body)

    async def heartbeat(self, record_id: int, now: datetime) -> bool:
        """Refresh this process's record; False when it is gone (another start found it stale and
        removed it: this process must stop, its shards may be served by another)."""

        async def body(tx: Tx) -> int:
            return await tx.execute("UPDATE shard_processes SET heartbeat_at = ? WHERE id = ?",
                                    (to_text(now), record_id))

        return await self._db.write(body) > 0

    async def release(self, record_id: int) -> None:
        """Remove this process's record (a clean stop)."""

        async def body(tx: Tx) -> None:
            await tx.execute("DELETE FROM shard_processes WHERE id = ?", (record_id,))

        await self._db.write(body)

    async def processes(self) -> list[ShardProcess]:
        """Every record, live or stale, oldest first."""
        rows = await self._db.fetch_all(f"SELECT {_COLUMNS} FROM shard_processes ORDER BY id")
        return [_record(row) for row in rows]


@dataclass(frozen=True)
class ShardLoad:
    """What one shard's process owes (`shard` None: every shard, no sharding): the posts owed
    (`owed_posts`, the oldest created at `oldest_post`) and the jobs due and not done
    (`due_jobs`, the longest overdue due at `oldest_due`; stored UTC text, None when none), and
    the jobs not due yet (`later_jobs`)."""

    shard: int | None
    owed_posts: int = 0
    oldest_post: str | None = None
    due_jobs: int = 0
    oldest_due: str | None = None
    later_jobs: int = 0


def _shard_of(column: str, count: int) -> str:
    """The SQL shard of a row by its guild id column (world rows: shard 0's); validated integers only."""
    if count == 0:
        return "0"
    return f"(CASE WHEN {column} IS NULL THEN 0 ELSE ({column} >> 22) % {int(count)} END)"


async def shard_loads(db: Database, count: int, now: datetime) -> list[ShardLoad]:
    """Per shard of `count` (0: one line for all), the posts owed and the jobs due or pending at
    `now`: a shard whose process is down or too slow shows a growing queue and lag."""
    if not 0 <= count <= _MAX_SHARDS:
        raise ValueError(f"the shard count must be from 0 to {_MAX_SHARDS}, got {count}")
    stamp = to_text(now)
    posts = await db.fetch_all(f"SELECT {_shard_of('guild_id', count)} AS shard, COUNT(*), MIN(created_at) "
                               "FROM outbox WHERE done_at IS NULL GROUP BY 1")
    due = await db.fetch_all(f"SELECT {_shard_of('guild_id', count)} AS shard, COUNT(*), MIN(due_at) "
                             "FROM jobs WHERE done_at IS NULL AND due_at <= ? GROUP BY 1", (stamp,))
    later = await db.fetch_all(f"SELECT {_shard_of('guild_id', count)} AS shard, COUNT(*) "
                               "FROM jobs WHERE done_at IS NULL AND due_at > ? GROUP BY 1", (stamp,))
    loads: dict[int, dict[str, Any]] = {shard: {"shard": shard if count else None} for shard in range(max(count, 1))}
    for row in posts:
        loads[int(row[0])].update(owed_posts=int(row[1]), oldest_post=row[2])
    for row in due:
        loads[int(row[0])].update(due_jobs=int(row[1]), oldest_due=row[2])
    for row in later:
        loads[int(row[0])].update(later_jobs=int(row[1]))
    return [ShardLoad(**load) for _, load in sorted(loads.items())]


async def _exclusive(tx: Tx) -> None:
    """Two processes starting at once check and record one after the other. SQLite: the write
    transaction already holds the file; PostgreSQL: the table's lock (reads of it go on)."""
    if tx.dialect == POSTGRESQL:
        await tx.execute("LOCK TABLE shard_processes IN SHARE ROW EXCLUSIVE MODE")
