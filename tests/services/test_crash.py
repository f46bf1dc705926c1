"""Crash safety: a process playing many rallies is killed with SIGKILL at a random moment;
after restart every acknowledged command is in the log, nothing is half-applied, and every
snapshot equals the replay of its log."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


def _run_and_kill(db: Path, channels: int, kill_after: int) -> dict[int, int]:
    """Start the child, read acks, SIGKILL it after `kill_after` acks; the last ack per rally."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    child = subprocess.Popen([sys.executable, "-m", "tests.services.crash_child", str(db), str(channels)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    acked: dict[int, int] = {}
    try:
        for count, line in enumerate(child.stdout, start=1):
            if line.startswith("ack"):
                _, rally, version = line.split()
                acked[int(rally)] = int(version)
            if count >= kill_after or line.startswith("done"):
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    return acked


async def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path):
    rng = random.Random(2024)
    db = tmp_path / "crash.sqlite3"
    total_acked: dict[int, int] = {}
    for round_ in range(4):
        acked = _run_and_kill(db, channels=4, kill_after=rng.randint(5, 120))
        for rally, version in acked.items():
            total_acked[rally] = max(total_acked.get(rally, 0), version)
        async with Store.open(db) as store:
            for rally_id, version in total_acked.items():
                rally = await store.rallies.get(rally_id)
                assert rally.version >= version, f"rally {rally_id}: acked {version}, stored {rally.version}"
                assert len(await store.actions.list(rally_id)) == rally.version
            report = await store.check(replay_snapshot, log_problem)
            assert report.ok, [str(m) for m in report.mismatches]
            assert report.rallies == 4
    assert sum(total_acked.values()) > 20  # the child really played before each kill
