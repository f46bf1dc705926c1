"""Rallies: create, find, list, and the versioned lifecycle changes (start, finish, abandon).

One rally in the lobby or running per channel: a partial unique index enforces it, so two hosts
creating at the same moment cannot both win; the loser gets `ChannelBusy` and nothing is written.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable

from bot.store.clock import now_text
from bot.store.connection import Database, Tx, constraint_kind, in_write
from bot.store.errors import ChannelBusy, NotFound
from bot.store.rows import ACTIVE_STATUSES, RALLY_COLUMNS, RALLY_STATUSES, Rally
from bot.store.versioning import advance

MAX_SEED = 2**63 - 1
SECRET_TEXT = re.compile(r"[0-9a-f]{64}")  # a deal key (bot/engine/core/secret_dice.py)


def status_entry(status: str) -> str:
    """The canonical log entry of a lifecycle change (the same text `action_codec` writes)."""
    return json.dumps({"status": status, "type": "status", "v": 1}, sort_keys=True, separators=(",", ":"))


def _validate_new(max_drivers: int, seed: int, turn_deadline_s: int | None) -> None:
    if not isinstance(max_drivers, int) or max_drivers < 1:  # the game's maximum: the lobby checks it
        raise ValueError(f"max_drivers must be 1 or more, got {max_drivers!r}")
    if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be an int from 0 to 2**63-1, got {seed!r}")
    if turn_deadline_s is not None and (not isinstance(turn_deadline_s, int) or turn_deadline_s <= 0):
        raise ValueError(f"turn_deadline_s must be a positive number of seconds or None, got {turn_deadline_s!r}")


async def create_tx(
    tx: Tx,
    *,
    guild_id: int,
    channel_id: int,
    host_id: int,
    stage: str,
    ruleset: str,
    seed: int,
    max_drivers: int = 4,
    modules: object = None,
    turn_deadline_s: int | None = None,
    snapshot_json: str | None = None,
    game: str = "rallyman",
    secret: str | None = None,
    deal_sha256: str | None = None,
) -> Rally:
    """Inside `tx`: a new rally of `game` in the lobby at version 0; `ChannelBusy` if the channel has an
    active one. `modules` is any JSON value (the engine's rule modules, e.g. `{"weather": true}`);
    `secret`: the key of its hidden deal (kept, never shown), `deal_sha256` its commitment."""
    _validate_new(max_drivers, seed, turn_deadline_s)
    for name, text in (("secret", secret), ("deal_sha256", deal_sha256)):
        if text is not None and SECRET_TEXT.fullmatch(text) is None:
            raise ValueError(f"{name} must be 64 lowercase hex digits")
    modules_json = json.dumps({} if modules is None else modules, sort_keys=True)
    now = now_text()
    values = (guild_id, channel_id, host_id, stage, ruleset, modules_json, seed, max_drivers,
              turn_deadline_s, snapshot_json, now, now, game, secret, deal_sha256)
    try:
        async with tx.attempt():
            row = await tx.fetch_one(
                "INSERT INTO rallies (guild_id, channel_id, host_id, stage, ruleset, modules, seed, "
                "max_drivers, turn_deadline_s, status, version, snapshot, created_at, updated_at, game, secret, "
                "deal_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?) "
                f"RETURNING {RALLY_COLUMNS}",
                values,
            )
    except Exception as exc:
        if constraint_kind(exc) != "unique":
            raise
        busy = await tx.fetch_one(
            "SELECT id, status FROM rallies WHERE guild_id = ? AND channel_id = ? AND status IN ('lobby', 'running')",
            (guild_id, channel_id),
        )
        raise ChannelBusy(channel_id, busy["id"] if busy else None, busy["status"] if busy else None) from None
    assert row is not None
    return Rally.from_row(row)


async def find_tx(tx: Tx, rally_id: int) -> Rally | None:
    row = await tx.fetch_one(f"SELECT {RALLY_COLUMNS} FROM rallies WHERE id = ?", (rally_id,))
    return Rally.from_row(row) if row else None


async def set_paused_tx(tx: Tx, rally_id: int, paused_at: str | None) -> bool:
    """Inside `tx`: pause (a time) or resume (None) a rally's play; True if it changed. Not a game
    change, so not versioned: a paused rally keeps its state, its log and its owed messages."""
    if paused_at is None:
        sql = "UPDATE rallies SET paused_at = NULL WHERE id = ? AND paused_at IS NOT NULL"
        return await tx.execute(sql, (rally_id,)) == 1
    sql = "UPDATE rallies SET paused_at = ? WHERE id = ? AND paused_at IS NULL AND status IN ('lobby', 'running')"
    return await tx.execute(sql, (paused_at, rally_id)) == 1


async def set_lobby_modules_tx(tx: Tx, rally_id: int, modules: object) -> bool:
    """Inside `tx`: replace the settings of a rally still in the lobby (AI drivers added or removed
    before the start); True if it changed. Not versioned: nothing is played before the start."""
    sql = "UPDATE rallies SET modules = ? WHERE id = ? AND status = 'lobby'"
    return await tx.execute(sql, (json.dumps(modules, sort_keys=True), rally_id)) == 1


class Rallies:
    """Repository of the `rallies` table."""

    def __init__(self, db: Database) -> None:
        self._db = db

    create = in_write(create_tx)

    async def find(self, rally_id: int) -> Rally | None:
        row = await self._db.fetch_one(f"SELECT {RALLY_COLUMNS} FROM rallies WHERE id = ?", (rally_id,))
        return Rally.from_row(row) if row else None

    async def get(self, rally_id: int) -> Rally:
        """The rally, or `NotFound`."""
        rally = await self.find(rally_id)
        if rally is None:
            raise NotFound("store.no_rally", rally_id=rally_id)
        return rally

    async def get_active_in_channel(self, guild_id: int, channel_id: int) -> Rally | None:
        """The channel's rally in the lobby or running, if any."""
        row = await self._db.fetch_one(
            f"SELECT {RALLY_COLUMNS} FROM rallies WHERE guild_id = ? AND channel_id = ? "
            "AND status IN ('lobby', 'running')",
            (guild_id, channel_id),
        )
        return Rally.from_row(row) if row else None

    async def last_channel(self, guild_id: int) -> int:
        """The highest channel id a rally of the server used (0 if none): the console numbers the
        channels of new runs after it."""
        row = await self._db.fetch_one("SELECT MAX(channel_id) FROM rallies WHERE guild_id = ?", (guild_id,))
        return int(row[0]) if row is not None and row[0] is not None else 0

    async def finished_in_channel(self, guild_id: int, channel_id: int, limit: int = 10) -> list[Rally]:
        """The channel's finished rallies, newest first (at most `limit`)."""
        rows = await self._db.fetch_all(
            f"SELECT {RALLY_COLUMNS} FROM rallies WHERE status = 'finished' AND guild_id = ? AND channel_id = ? "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, channel_id, limit),
        )
        return [Rally.from_row(r) for r in rows]

    async def list_by_status(
        self, statuses: Iterable[str] = ACTIVE_STATUSES, *, guild_id: int | None = None
    ) -> list[Rally]:
        """Rallies with one of `statuses` (oldest first), optionally of one guild."""
        wanted = tuple(statuses)
        unknown = [s for s in wanted if s not in RALLY_STATUSES]
        if unknown or not wanted:
            raise ValueError(f"unknown rally status {unknown or wanted!r}")
        marks = ", ".join("?" for _ in wanted)
        sql = f"SELECT {RALLY_COLUMNS} FROM rallies WHERE status IN ({marks})"
        params: tuple[object, ...] = wanted
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params += (guild_id,)
        rows = await self._db.fetch_all(sql + " ORDER BY id", params)
        return [Rally.from_row(r) for r in rows]

    async def without_clock(self, deadline_kind: str) -> list[int]:
        """Running, unpaused rallies with a turn deadline whose turn has no pending `deadline_kind`
        job and that owe no post (whose delivery would start the clock): one indexed query."""
        rows = await self._db.fetch_all(
            "SELECT r.id FROM rallies r WHERE r.status = 'running' AND r.paused_at IS NULL "
            "AND r.turn_deadline_s IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.rally_id = r.id AND j.kind = ? AND j.done_at IS NULL) "
            "AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.rally_id = r.id AND o.done_at IS NULL) ORDER BY r.id",
            (deadline_kind,),
        )
        return [int(r[0]) for r in rows]

    async def one_per_kind(self, where: str, most: int, window: int = 4096) -> list[Rally]:
        """One running rally of each of the `most` most played (game, stage, ruleset) among the
        running rallies of the `window` newest that match `where` (an SQL condition on `guild_id`
        made by `Shards.where`: only validated integers, no parameters), the oldest of each there:
        what a starting process warms. A range of the primary key, whatever the number of rallies
        (counting every running rally took 100-190 ms at 100,000 on PostgreSQL; this, a few)."""
        newest = await self._db.fetch_one("SELECT MAX(id) FROM rallies")
        last = int(newest[0]) if newest and newest[0] is not None else 0
        recent = await self._db.fetch_all(
            f"SELECT id, status, game, stage, ruleset FROM rallies WHERE id BETWEEN ? AND ? AND {where}",
            (last - int(window) + 1, last))
        played: Counter[tuple[object, ...]] = Counter()
        oldest: dict[tuple[object, ...], int] = {}
        for row in recent:
            if row[1] != "running":  # filtered here: a condition on the status would use its index
                continue
            kind = (row[2], row[3], row[4])
            played[kind] += 1
            oldest[kind] = min(int(row[0]), oldest.get(kind, int(row[0])))
        chosen = sorted(played, key=lambda kind: (-played[kind], oldest[kind]))[:max(0, int(most))]
        ids = sorted(oldest[kind] for kind in chosen)
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self._db.fetch_all(f"SELECT {RALLY_COLUMNS} FROM rallies WHERE id IN ({marks}) ORDER BY id",
                                        tuple(ids))
        return [Rally.from_row(r) for r in rows]

    async def ids(self) -> list[int]:
        """Every rally id, in order (for the consistency check)."""
        return [int(r[0]) for r in await self._db.fetch_all("SELECT id FROM rallies ORDER BY id")]

    async def set_status(
        self, rally_id: int, expected_version: int, status: str, *, actor: int | None = None, action: str | None = None
    ) -> int:
        """Change the status (snapshot kept): a versioned change, logged as `action` (default: the
        canonical lifecycle entry `{"status": <s>, "type": "status", "v": 1}` of the action log)."""
        text = action or status_entry(status)
        return await self._db.write(
            lambda tx: advance(tx, rally_id, expected_version, actor=actor, action=text, status=status)
        )

    async def set_snapshot(
        self,
        rally_id: int,
        expected_version: int,
        snapshot_json: str,
        status: str | None = None,
        *,
        actor: int | None = None,
        action: str | None = None,
    ) -> int:
        """Replace the snapshot (and status) outside play, e.g. when the host starts the rally.

        Versioned like every change and logged as `action` so the log still rebuilds the state:
        pass the canonical entry (`bot.engine.rallyman.action_codec.log_text`); the default is the status
        entry when the status changes. Without a status an action is required: a snapshot that no
        logged action explains would not replay.
        """
        if action is None and status is None:
            raise ValueError("set_snapshot without a status needs the logged action that explains it")
        text = action or status_entry(status or "")
        return await self._db.write(
            lambda tx: advance(
                tx, rally_id, expected_version, actor=actor, action=text, snapshot_json=snapshot_json, status=status
            )
        )

    async def delete(self, rally_id: int) -> None:
        """Remove a rally and (cascade) its drivers, actions and messages; `NotFound` if absent."""

        async def delete(tx: Tx) -> None:
            if await tx.execute("DELETE FROM rallies WHERE id = ?", (rally_id,)) != 1:
                raise NotFound("store.no_rally", rally_id=rally_id)

        await self._db.write(delete)
