"""Which Discord shards this process serves, and the SQL that keeps its claims to their servers.

Discord puts server `g` on shard `(g >> 22) % shard_count`. A process started with `SHARD_COUNT`
and `SHARD_IDS` (see `bot/config.py`) receives only those shards' events, so it also delivers
only their servers' posts and runs only their jobs; jobs of no server (the weekly world scratch)
belong to the process that serves shard 0. Without sharding (`Shards.everything()`) a process
serves them all.
"""

from __future__ import annotations

from dataclasses import dataclass

_MAX_SHARDS = 10_000


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
