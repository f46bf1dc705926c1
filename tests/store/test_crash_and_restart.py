"""Durability: a restart keeps everything; a SIGKILL mid-write loses no acked action, half-applies none."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from crash_child import plan
from store_helpers import log_snapshot, new_rally

from bot.store import Store

CHILD = Path(__file__).with_name("crash_child.py")
RALLIES = 3
ACTIONS = 100_000  # more than the child can write before it is killed


async def test_close_mid_rally_reopen_and_continue(db_path):
    store = await Store.open(db_path)
    try:
        rally = await new_rally(store)
        await store.drivers.join(rally.id, 1, "Ann")
        await store.drivers.join(rally.id, 2, "Bob")
        await store.set_snapshot(rally.id, 0, log_snapshot(["start"]), "running", action="start")
        await store.append_action(rally.id, 1, 1, "roll 3", log_snapshot(["start", "roll 3"]))
        await store.messages.put(rally.id, "turn", 500, 777)
    finally:
        await store.close()
    wal = Path(f"{db_path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "close() checkpoints and truncates the WAL"

    async with Store.open(db_path) as store:
        again = await store.rallies.get(rally.id)
        assert (again.status, again.version) == ("running", 2)
        snapshot = log_snapshot(["start", "roll 3", "roll 4"])
        assert await store.append_action(rally.id, again.version, 2, "roll 4", snapshot) == 3
        assert [a.action for a in await store.actions.list(rally.id)] == ["start", "roll 3", "roll 4"]
        assert [d.display_name for d in await store.drivers.list(rally.id)] == ["Ann", "Bob"]
        assert (await store.messages.get(rally.id, "turn")).message_id == 777


def _run_child_and_kill(path: Path, seed: int, kill_after: int) -> list[tuple[int, int]]:
    """Start the child, read `kill_after` acks, SIGKILL it; returns every (rally, seq) it acked."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), str(seed), str(RALLIES), str(ACTIONS)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acks: list[tuple[int, int]] = []

    def take(line: str) -> None:
        if line.startswith("ack "):
            _, rally, seq = line.split()
            acks.append((int(rally), int(seq)))

    try:
        while len(acks) < kill_after:
            line = proc.stdout.readline()
            if not line:
                pytest.fail(f"child ended early: {proc.wait(timeout=10)} {proc.stderr.read()}")
            take(line)
        os.kill(proc.pid, signal.SIGKILL)
        # The child ran ahead of our reading: the acks still in the pipe were committed too.
        for line in proc.stdout:
            take(line)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return acks


@pytest.mark.parametrize("seed", [11, 22, 33, 44])
async def test_sigkill_loses_no_acked_action_and_half_applies_none(tmp_path, seed):
    path = tmp_path / "crash.sqlite3"
    kill_after = random.Random(seed).randint(1, 1500)
    acks = _run_child_and_kill(path, seed, kill_after)

    async with Store.open(path) as store:
        assert await store.db.integrity_check() == []
        rallies = await store.rallies.list_by_status(("lobby",))
        assert len(rallies) == RALLIES
        ids = sorted(r.id for r in rallies)  # the child created them in order: index i -> ids[i]
        expected: dict[int, list[str]] = {rally_id: [] for rally_id in ids}
        for index, text in plan(seed, RALLIES, ACTIONS)[: len(acks) + 1]:
            expected[ids[index]].append(text)
        total = 0

        for rally in rallies:
            actions = await store.actions.list(rally.id)
            texts = [a.action for a in actions]
            total += len(actions)
            assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
            assert rally.version == len(actions)
            assert rally.snapshot == (json.dumps(texts) if texts else None)
            assert texts == expected[rally.id][: len(texts)], "the log is the child's plan, in order"
        for rally_id, seq in acks:
            assert seq <= (await store.rallies.get(rally_id)).version, f"acked action {rally_id}/{seq} lost"
        # The child writes one action at a time: at most one committed action was not acked yet.
        assert total - len(acks) in (0, 1)

        first = rallies[0]
        current = await store.rallies.get(first.id)
        texts = [a.action for a in await store.actions.list(first.id)]
        after = json.dumps([*texts, "after crash"])
        assert await store.append_action(first.id, current.version, 1, "after crash", after) == current.version + 1
