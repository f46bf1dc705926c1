"""A shard process killed with -9 mid-delivery: its restart with the same SHARD_IDS sends what it
owed, each post once; the process of the other shard never sends them (docs/hosting.md, step 3).

The processes are real (`tests/services/shard_worker.py`: the store, the services and the real
outbox sender of SHARD_COUNT=2 and one SHARD_IDS, their shard recorded in the database) and the test
is their Discord: every post reaches it as a request with its nonce, and it posts a nonce once,
answering a repeat with the first message (Discord's `enforce_nonce`). Everything is ordered by
what the processes wrote, never by waiting: process A is killed while Discord holds its answer to
a post (the post is up in the channel, A does not know it), after it has delivered others.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services import Actor, Place, RallyService
from bot.store import Store
from bot.store.shards import STALE_S, Shards

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
GUILDS = {0: 10, 1: (1 << 22) | 10}  # Discord puts server g on shard (g >> 22) % SHARD_COUNT
CHANNELS = {0: (50, 51, 52), 1: (60, 61, 62)}
BOB, ALICE = Actor(1002, "Bob"), Actor(1001, "Alice")
STEM = re.compile(r"rb(\d+)(?:\.\d+)?")  # a post's nonce: its outbox row, then its part
LATER_S = STALE_S + 60  # time that passes before the restart: the killed process's record and leases are stale


class Discord:
    """The posts the processes ask for: a nonce is posted once, a repeat answered with its message."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: dict[str, int] = {}  # nonce → the message posted
        self.requests: list[tuple[str, str, int]] = []  # (process, nonce, guild) in the order received
        self.ids = itertools.count(5000)

    def post(self, who: str, request: dict) -> int:
        with self.lock:
            self.requests.append((who, request["send"], int(request["guild"])))
            if request["send"] not in self.messages:
                self.messages[request["send"]] = next(self.ids)
            return self.messages[request["send"]]

    def asked_by(self, who: str) -> list[str]:
        return [nonce for name, nonce, _ in self.requests if name == who]


class ShardProcess:
    """One shard_worker process; a thread answers its posts as Discord (all of them, or the first
    `budget`: the next is posted but never answered, and `cut` is set)."""

    def __init__(self, name: str, url: str, shard: int, discord: Discord, *, offset_s: float = 0,
                 budget: int | None = None) -> None:
        self.name, self.discord, self.budget = name, discord, budget
        self.cut = threading.Event()
        self.lines: queue.Queue[dict | None] = queue.Queue()
        self.stdin_lock = threading.Lock()
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.services.shard_worker", url, str(SHARDS), str(shard), str(offset_s)],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.pump = threading.Thread(target=self._pump, daemon=True)
        self.pump.start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            if "send" not in message:
                self.lines.put(message)
            elif self.budget is None or self.budget > 0:
                self.write({"posted": message["send"], "id": self.discord.post(self.name, message)})
                self.budget = None if self.budget is None else self.budget - 1
            else:  # Discord posts it; its answer never reaches the process
                self.discord.post(self.name, message)
                self.cut.set()
        self.lines.put(None)  # the process ended

    def write(self, command: dict) -> None:
        with self.stdin_lock:
            if self.proc.poll() is None:
                assert self.proc.stdin is not None
                self.proc.stdin.write(json.dumps(command) + "\n")
                self.proc.stdin.flush()

    def read(self, timeout: float = 120.0) -> dict:
        try:
            message = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"{self.name} said nothing for {timeout} s") from None
        assert message is not None, f"{self.name} ended (exit {self.proc.poll()})"
        return message

    def ask(self, command: dict) -> dict:
        self.write(command)
        return self.read()

    def kill(self) -> None:
        """SIGKILL, then every line it wrote before dying read (its last requests reach Discord)."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.pump.join(timeout=30)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


async def seed(url: str) -> dict[int, list[int]]:
    """Three running rallies on each shard's server; shard → rally ids. Each start owes posts."""
    rallies: dict[int, list[int]] = {0: [], 1: []}
    async with Store.open(url) as store:
        service = RallyService(store, seed_source=lambda: 42)
        now = datetime.now(UTC)
        for shard, guild in GUILDS.items():
            for channel in CHANNELS[shard]:
                place = Place(guild, channel)
                await service.create(place, BOB, "pinewood-sprint", drivers=2)
                await service.join(place, BOB)
                await service.join(place, ALICE)
                await service.start(place, BOB)
                rally = await store.rallies.get_active_in_channel(guild, channel)
                assert rally is not None
                rallies[shard].append(rally.id)
                for n in range(2):  # two jobs of the rally's server, due now
                    await store.jobs.schedule("test.tick", f"t:{rally.id}:{n}", now - timedelta(seconds=n), rally.id)
    return rallies


async def play_one_move(url: str, shard: int) -> None:
    """A command on a rally of `shard`'s server, through the services: it owes new posts."""
    async with Store.open(url) as store:
        service = RallyService(store, seed_source=lambda: 42)
        guild, channel = GUILDS[shard], CHANNELS[shard][0]
        rally = await store.rallies.get_active_in_channel(guild, channel)
        assert rally is not None
        state = service.work.state_of(rally)
        actor = {BOB.user_id: BOB, ALICE.user_id: ALICE}[int(state.cars[state.turn.car].id)]
        await service.act(Place(guild, channel), actor, RALLYMAN.commands.label(choose_action(state)))


def row_of(nonce: str) -> int:
    match = STEM.fullmatch(nonce)
    assert match, nonce
    return int(match.group(1))


async def test_a_shard_process_killed_mid_delivery_its_restart_sends_the_rest_each_post_once(pg_url):
    rallies = await seed(pg_url)
    async with Store.open(pg_url) as store:
        owed = await store.outbox.owed()
        jobs = {job.id: job for job in await store.jobs.pending("test.tick")}
    owed_by = {s: {row.id for row in owed if Shards(SHARDS, (s,)).owns(row.guild_id)} for s in (0, 1)}
    assert len(owed_by[0]) >= 6 and len(owed_by[1]) >= 6, "each start owes posts"
    jobs_of = {s: {j.id for j in jobs.values() if j.rally_id in rallies[s]} for s in (0, 1)}
    discord = Discord()
    budget = len(owed_by[0]) // 2  # A delivers about half its posts; the next one is up when it dies
    a = ShardProcess("a", pg_url, 0, discord, budget=budget)
    b = ShardProcess("b", pg_url, 1, discord)
    processes = [a, b]
    try:
        assert a.read()["ready"] and b.read()["ready"]
        assert a.cut.wait(120), "A never reached the post it is killed on"
        a.kill()
        killed_on = discord.asked_by("a")[budget:]  # posted, their answers never reached A
        assert killed_on

        # no second process of shard 0 starts while A's record is fresh: what A owed is nobody's yet
        early = ShardProcess("early", pg_url, 0, discord)
        processes.append(early)
        refusal = early.read()
        assert f"process {a.proc.pid}" in refusal["refused"] and "shard 0 in both" in refusal["refused"]

        # time passes (B's heartbeat keeps its record fresh): A's leases and record run out. B,
        # looking again with the leases expired, still takes only its own shard's posts
        assert b.ask({"op": "time", "offset": LATER_S}) == {"alive": True}
        await play_one_move(pg_url, 1)
        assert b.ask({"op": "drain"})["drained"] >= len(owed_by[1])
        assert b.ask({"op": "jobs"}) == {"ran": sorted(jobs_of[1])}

        # the restart with the same SHARD_IDS: what A owed, sent; its jobs run
        restart = ShardProcess("restart", pg_url, 0, discord, offset_s=LATER_S)
        processes.append(restart)
        assert restart.read()["ready"]
        restart.ask({"op": "drain"})
        assert restart.ask({"op": "jobs"}) == {"ran": sorted(jobs_of[0])}
    finally:
        for process in processes:
            process.close()

    async with Store.open(pg_url) as store:
        rows = {row.id: row for row in await store.outbox.all()}
    assert all(row.done_at is not None and row.outcome == "sent" for row in rows.values()), "nothing owed or dropped"
    asked = Counter(nonce for _, nonce, _ in discord.requests)
    # every post is up exactly once (each of these is one message: nonce `rb<row id>`), and every row
    # records the message Discord posted, the restart's too (the repeat answered with the first)
    assert set(discord.messages) == {f"rb{row_id}" for row_id in rows}
    assert all(discord.messages[f"rb{row.id}"] == row.message_id for row in rows.values())
    # asked twice: only what A had asked for when it died, asked again by the restart alone
    twice = {nonce for nonce, n in asked.items() if n > 1}
    assert twice <= set(killed_on) and all(n <= 2 for n in asked.values())
    assert set(killed_on) <= set(discord.asked_by("restart")), "the restart sent again what A left unanswered"
    # no process ever asked for another shard's post
    for who, nonce, guild in discord.requests:
        shard = 1 if who == "b" else 0
        assert Shards(SHARDS, (shard,)).owns(guild) and row_of(nonce) in rows, (who, nonce)
    assert {row_of(n) for n in discord.asked_by("b")} >= owed_by[1]
    assert {row_of(n) for n in discord.asked_by("a") + discord.asked_by("restart")} >= owed_by[0]
    assert not discord.asked_by("early")
