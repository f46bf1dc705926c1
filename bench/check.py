"""`db check` benchmark: 10,000 finished rallies, checked in full and when nothing changed.

The database is built the way the bot fills it: a few real rallies are played to their end by
four AI drivers through the services (log, drivers, snapshot), then their rows are copied under
new ids (same stage, drivers and log: each copy replays exactly like its original) until there
are `rallies` finished rallies. Then, timing the command's own code path (`Store.check` with the
engine's replay and the canonical-log check, on every core, as `python -m bot db check` runs it):

- `all_s`: `--all`, the first check: the file's integrity check and every rally replayed;
- `changed_s`: the next check with nothing changed (reads every rally's version and snapshot
  hash against its mark, replays none);
- `one_changed_s`: after one rally's snapshot was changed behind the bot's back: that rally is
  replayed (and found wrong), the rest skipped;
- `replay_ms_per_rally` in one process, the same-run baseline the full check is made of.

Not measured: opening the database and the migration (the command pays them once), Python start-up.
Goals: `all_s` ≤ 30 and `changed_s` ≤ 1 for 10,000 rallies.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RALLIES = 10_000
PLAYED = 8  # real rallies played to their end; the rest are copies of their rows
STAGE = "pinewood-sprint"


async def _play(store: Any, channel: int, seed: int) -> None:
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.protocol import GAME as RALLYMAN
    from bot.services import Actor, Place, RallyService

    service = RallyService(store, seed_source=lambda: seed)
    drivers = [Actor(5000 + i, f"Driver {i}") for i in range(4)]
    place = Place(1, channel)
    await service.create(place, drivers[0], STAGE, drivers=4)
    for actor in drivers:
        await service.join(place, actor)
    await service.start(place, drivers[0])
    by_id = {str(a.user_id): a for a in drivers}
    while (rally := await store.rallies.get_active_in_channel(1, channel)) is not None:
        state = service.work.state_of(rally)
        await service.act(place, by_id[state.cars[state.turn.car].id], RALLYMAN.commands.label(choose_action(state)))


async def _fill(store: Any, rallies: int) -> int:
    """Play `PLAYED` rallies, then copy their rows until there are `rallies`; returns the actions."""
    for n in range(PLAYED):
        await _play(store, 100 + n, seed=1000 + n)
    originals = [int(r[0]) for r in await store.db.fetch_all("SELECT id FROM rallies ORDER BY id")]

    async def copy(tx: Any, source: int, channel: int) -> None:
        row = await tx.fetch_one(
            "INSERT INTO rallies (guild_id, channel_id, host_id, stage, ruleset, modules, seed, max_drivers, "
            "turn_deadline_s, status, version, snapshot, created_at, updated_at) "
            "SELECT guild_id, ?, host_id, stage, ruleset, modules, seed, max_drivers, turn_deadline_s, status, "
            "version, snapshot, created_at, updated_at FROM rallies WHERE id = ? RETURNING id", (channel, source))
        new = int(row[0])
        await tx.execute("INSERT INTO drivers (rally_id, user_id, display_name, seat, joined_at, missed_turns, status) "
                         "SELECT ?, user_id, display_name, seat, joined_at, missed_turns, status FROM drivers "
                         "WHERE rally_id = ?", (new, source))
        await tx.execute("INSERT INTO actions (rally_id, seq, actor, action, created_at) "
                         "SELECT ?, seq, actor, action, created_at FROM actions WHERE rally_id = ?", (new, source))

    channel = 10_000
    for start in range(len(originals), rallies, 500):
        async def batch(tx: Any, start: int = start) -> None:
            for n in range(start, min(start + 500, rallies)):
                await copy(tx, originals[n % len(originals)], channel + n)

        await store.db.write(batch)
    row = await store.db.fetch_one("SELECT COUNT(*) FROM actions")
    return int(row[0])


async def _measure(path: Path, rallies: int) -> dict[str, Any]:
    from bot.services.play.replay import log_problem, replay_snapshot
    from bot.store import Store

    workers = os.cpu_count() or 1
    async with Store.open(path) as store:
        actions = await _fill(store, rallies)
        t0 = time.perf_counter()
        full = await store.check(replay_snapshot, log_problem, workers=workers)
        all_s = time.perf_counter() - t0
        assert full.ok and full.rallies == rallies, full.mismatches[:3]
        changed = []
        for _ in range(3):
            t0 = time.perf_counter()
            quick = await store.check(replay_snapshot, log_problem, changed_only=True, workers=workers)
            changed.append(time.perf_counter() - t0)
            assert quick.ok and quick.rallies == 0 and quick.unchanged == rallies
        await store.db.write(lambda tx: tx.execute("UPDATE rallies SET snapshot = '{}' WHERE id = ?",
                                                   (rallies,)))
        t0 = time.perf_counter()
        one = await store.check(replay_snapshot, log_problem, changed_only=True, workers=workers)
        one_s = time.perf_counter() - t0
        assert one.rallies == 1 and not one.ok  # the touched snapshot is found, the rest skipped
        sample = [int(r[0]) for r in await store.db.fetch_all("SELECT id FROM rallies ORDER BY id LIMIT 50")]
        per = []
        for rally_id in sample:
            from bot.store.check import _job

            job = await _job(store.db, rally_id)
            assert job is not None
            t0 = time.perf_counter()
            replay_snapshot(job.rally_row, job.actions)
            per.append((time.perf_counter() - t0) * 1000)
    return {"all_s": round(all_s, 2), "changed_s": round(statistics.median(changed), 3),
            "one_changed_s": round(one_s, 3), "replay_ms_per_rally": round(statistics.median(per), 2),
            "rallies": rallies, "actions": actions, "workers": workers,
            "db_mb": round(path.stat().st_size / 2**20, 1)}


def run(rallies: int = RALLIES) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        figures = asyncio.run(_measure(Path(tmp) / "check.sqlite3", rallies))
    return {"bench": "check", **figures}


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else RALLIES)))
