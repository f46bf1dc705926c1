"""Two bot processes on one PostgreSQL database: the per-rally lock, the claims of jobs
and the version check are database guarantees, so two processes behave as one.

The processes are real (`tests/services/pg_worker.py`, started with the same interpreter): each
has its own pool, its own services and its own in-process locks; only the database is shared.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services import Actor, Place, RallyService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
GUILD = 10
ALICE, BOB, CAROL = Actor(1001, "Alice"), Actor(1002, "Bob"), Actor(1003, "Carol")


class Worker:
    """One worker process: send a command line, read its answer line."""

    def __init__(self, url: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.services.pg_worker", url], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()  # read by a thread: a silent worker fails the test, never hangs it
        threading.Thread(target=self._pump, daemon=True).start()
        assert self.read() == {"ready": True}

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")  # the worker ended

    def send(self, command: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 120.0) -> dict:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"worker {self.proc.pid} said nothing for {timeout} s") from None
        assert line, f"worker {self.proc.pid} ended (exit {self.proc.poll()})"
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


async def start_rallies(url: str, channels: list[int], drivers: tuple[Actor, ...] = (BOB, ALICE)) -> dict[int, int]:
    """Running rallies in these channels (Bob drives first); channel → rally id."""
    ids = {}
    async with Store.open(url) as store:
        service = RallyService(store, seed_source=lambda: 42)
        for channel in channels:
            place = Place(GUILD, channel)
            await service.create(place, drivers[0], "pinewood-sprint", drivers=len(drivers))
            for actor in drivers:
                await service.join(place, actor)
            await service.start(place, drivers[0])
            rally = await store.rallies.get_active_in_channel(GUILD, channel)
            assert rally is not None
            ids[channel] = rally.id
    return ids


async def next_move(url: str, channel: int) -> dict | None:
    """The move the AI would play next in the channel, and whose it is (None: the rally is over)."""
    async with Store.open(url) as store:
        rally = await store.rallies.get_active_in_channel(GUILD, channel)
        if rally is None:
            return None
        state = RallyService(store).work.state_of(rally)
        return {"die": RALLYMAN.commands.label(choose_action(state)), "user": int(state.cars[state.turn.car].id)}


async def check_logs(url: str) -> None:
    async with Store.open(url) as store:
        report = await store.check(replay_snapshot, log_problem)
        assert report.ok, [str(m) for m in report.mismatches]


async def test_two_processes_on_one_rally_at_the_same_moment_exactly_one_wins_each_time(pg_url):
    await start_rallies(pg_url, [20])
    a, b = Worker(pg_url), Worker(pg_url)
    try:
        wins = 0
        for _ in range(12):
            move = await next_move(pg_url, 20)
            if move is None:
                break
            if move["die"] == "W":  # two white dice a turn (A6.3.6): a second copy that arrives
                a.send({"op": "act", "channel": 20, **move})  # after the first commits is legal, so it
                assert a.read()["ok"]  # proves nothing about the race: played once, by one process
                continue
            a.send({"op": "act", "channel": 20, **move})  # the same command, to both, at once
            b.send({"op": "act", "channel": 20, **move})
            results = [a.read(), b.read()]
            ok = [r for r in results if r["ok"]]
            refused = [r for r in results if not r["ok"]]
            assert len(ok) == 1 and len(refused) == 1, results
            # the usual refusal (a RallyError: the worker lets nothing else through) of a command that
            # arrived at a rally that moved on, a die already rolled or a turn that passed: the same
            # texts as two commands in one process
            # any refusal of the rules (the worker answers only RallyErrors; anything else ends it):
            # the rally moved on, the die or the white die is used, the turn passed, or it ended
            assert refused[0]["error"] == "Finished" or refused[0]["text"], refused
            wins += 1
        assert wins >= 3
    finally:
        a.close()
        b.close()
    async with Store.open(pg_url) as store:
        rally = await store.rallies.get_active_in_channel(GUILD, 20) or await store.rallies.get(1)
        assert len(await store.actions.list(rally.id)) == rally.version
    await check_logs(pg_url)


async def test_every_due_job_runs_once_across_two_processes(pg_url):
    now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    async with Store.open(pg_url) as store:
        ids = [(await store.jobs.schedule("test.tick", f"t:{n}", now - timedelta(seconds=n))).id for n in range(300)]
    a, b = Worker(pg_url), Worker(pg_url)
    try:
        a.send({"op": "jobs", "now": now.isoformat()})
        b.send({"op": "jobs", "now": now.isoformat()})
        ran_a, ran_b = a.read()["ran"], b.read()["ran"]
    finally:
        a.close()
        b.close()
    assert not set(ran_a) & set(ran_b), "a job ran in both processes"
    assert sorted(ran_a + ran_b) == sorted(ids), "every due job ran"
    assert ran_a and ran_b, "both processes took a share (they really claimed at the same time)"
    async with Store.open(pg_url) as store:
        assert await store.jobs.pending("test.tick") == []


async def test_kill_9_mid_storm_loses_no_committed_action_and_the_other_finishes(pg_url):
    channels = [30, 31, 32, 33, 34, 35]
    rallies = await start_rallies(pg_url, channels)
    a, b = Worker(pg_url), Worker(pg_url)
    acked: dict[int, int] = {}
    try:
        # a starts alone and is seen to commit; then b joins the same rallies, and once both are
        # committing at the same time, a is killed in the middle of its work (the rallies need
        # hundreds of moves). Ordered by what was read, not by timing: a slow start of either
        # process cannot make a finish before it is killed.
        a.send({"op": "storm", "channels": channels})
        for _ in range(10):
            answer = a.read()
            assert "done" not in answer, "a finished alone within 10 moves: the storm is too short"
            acked[answer["ack"]] = max(acked.get(answer["ack"], 0), answer["version"])
        b.send({"op": "storm", "channels": channels})
        for _ in range(3):
            answer = b.read()
            assert "done" not in answer, "b found nothing left to play"
            acked[answer["ack"]] = max(acked.get(answer["ack"], 0), answer["version"])
        os.kill(a.proc.pid, signal.SIGKILL)
        a.proc.wait(timeout=30)
        after_kill = 0
        while "done" not in (answer := b.read()):  # b plays every rally to its end
            acked[answer["ack"]] = max(acked.get(answer["ack"], 0), answer["version"])
            after_kill += 1
        assert after_kill > 0, "b had nothing left after the kill: a was not killed mid-work"
        assert "stuck" not in answer, answer
    finally:
        a.close()
        b.close()
    assert len(acked) == len(channels)
    async with Store.open(pg_url) as store:
        for rally_id, version in acked.items():
            rally = await store.rallies.get(rally_id)
            assert rally.version >= version, f"rally {rally_id}: acknowledged {version}, stored {rally.version}"
        for rally_id in rallies.values():
            rally = await store.rallies.get(rally_id)
            assert rally.status == "finished", "the other process played every rally to its end"
            assert len(await store.actions.list(rally_id)) == rally.version
    await check_logs(pg_url)


async def test_kill_9_mid_jobs_the_other_process_runs_the_rest_once_their_lease_ends(pg_url):
    now = datetime.now(UTC)
    async with Store.open(pg_url) as store:
        ids = [(await store.jobs.schedule("test.tick", f"t:{n}", now - timedelta(seconds=n))).id for n in range(60)]
    a, b = Worker(pg_url), Worker(pg_url)
    try:
        a.send({"op": "jobs", "now": now.isoformat(), "pause": 0.02})  # 60 jobs: over a second
        time.sleep(0.5)
        os.kill(a.proc.pid, signal.SIGKILL)
        a.proc.wait(timeout=30)
        async with Store.open(pg_url) as store:
            done_by_a = {j for j in ids if (await store.jobs.get(j)).done_at is not None}
            leased = [j for j in await store.jobs.pending("test.tick") if j.locked_until is not None]
        assert done_by_a and leased, "a was killed with jobs done and jobs claimed but not done"
        b.send({"op": "jobs", "now": now.isoformat()})
        assert set(b.read()["ran"]).isdisjoint(leased_ids := {j.id for j in leased}), "a's lease holds them"
        later = now + timedelta(hours=1)  # past the lease of the dead process
        b.send({"op": "jobs", "now": later.isoformat()})
        ran_later = set(b.read()["ran"])
    finally:
        a.close()
        b.close()
    assert leased_ids <= ran_later and not (ran_later & done_by_a), "b ran what a left, not what a finished"
    async with Store.open(pg_url) as store:
        assert await store.jobs.pending("test.tick") == []


async def test_a_process_killed_holding_a_rally_lock_leaves_nothing_locked(pg_url):
    rallies = await start_rallies(pg_url, [40])
    a = Worker(pg_url)
    try:
        a.send({"op": "hold", "rally": rallies[40]})
        assert a.read() == {"holding": rallies[40]}
        async with Store.open(pg_url) as store:
            service = RallyService(store, seed_source=lambda: 42)
            waiting = asyncio.create_task(service.act(Place(GUILD, 40), BOB, "1"))
            await asyncio.sleep(0.5)
            assert not waiting.done(), "the lock of the other process holds the command"
            began = time.monotonic()
            os.kill(a.proc.pid, signal.SIGKILL)
            reply = await asyncio.wait_for(waiting, timeout=20)
            assert time.monotonic() - began < 20
            assert reply.turn is not None or reply.lines
    finally:
        a.close()
    await check_logs(pg_url)
