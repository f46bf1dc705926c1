"""A bot process of some shards, its Discord relayed to the test, for the tests of shard processes.

`python -m tests.services.shard_worker URL SHARD_COUNT SHARD_IDS OFFSET_S` opens the store on URL
as the bot does for `SHARD_COUNT`/`SHARD_IDS` (its services serve those shards only), its clock
`OFFSET_S` seconds ahead of the system's (a test's way to let time pass), records itself among the
database's bot processes (`ShardRegistry.claim`, as `RallyBot.claim_shards`) and starts the real
outbox sender. It answers one JSON line each (flushed):

- at start `{"ready": true, "pid": P}`, or `{"refused": why}` and exit 2 when the registry refuses
  its shards (a live process serves one of them);
- every message the sender posts is a line `{"send": nonce, "channel": C, "guild": G}`: the test
  is Discord, it answers `{"posted": nonce, "id": message id}` on stdin (or never: the process
  waits for Discord's answer, as a send in flight does);
- `{"op": "time", "offset": S}`: its clock is now S seconds ahead; it refreshes its heartbeat, as
  its heartbeat task would (answers `{"alive": bool}`);
- `{"op": "jobs"}`: runs the due jobs of its shards (kind `test.*` notes the job and completes it);
  answers `{"ran": [job ids]}`;
- `{"op": "drain"}`: answers `{"drained": n}` once no post of its shards is owed (n: the posts
  its sender marked delivered).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import socket
import sys
from datetime import datetime, timedelta
from typing import Any

from bot.services import RallyService
from bot.services.play.deadlines import DeadlineService
from bot.store import Job, Store
from bot.store.clock import utc_now
from bot.store.shards import ShardConflict, Shards
from bot.views.options_cache import OptionsCache
from bot.views.sender import OutboxSender
from bot.views.turn_buttons import TurnButton

_answers: dict[str, asyncio.Future[int]] = {}


def say(value: dict) -> None:
    print(json.dumps(value), flush=True)


class _Message:
    def __init__(self, message_id: int) -> None:
        self.id = message_id

    async def edit(self, **kwargs: Any) -> None:  # a picture or the old turn's buttons: not a post
        return None


class _Channel:
    def __init__(self, channel_id: int, guild_id: int | None) -> None:
        self.channel_id, self.guild_id = channel_id, guild_id

    async def send(self, **kwargs: Any) -> _Message:
        nonce = str(kwargs["nonce"])
        answer = _answers[nonce] = asyncio.get_running_loop().create_future()
        say({"send": nonce, "channel": self.channel_id, "guild": self.guild_id})
        try:
            return _Message(await answer)
        finally:
            del _answers[nonce]

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(message_id)


class RelayedDiscord:
    """The parts of the bot the outbox sender uses; each post goes to the test, which answers it."""

    _dm = itertools.count(1)

    async def wait_until_ready(self) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None, **kwargs: Any) -> _Channel:
        return _Channel(channel_id, guild_id)

    async def create_dm(self, user: Any) -> _Channel:
        return _Channel(-int(user.id), None)


async def main(url: str, count: int, ids: tuple[int, ...], offset_s: float) -> int:
    offset = [timedelta(seconds=offset_s)]

    def clock() -> datetime:
        return utc_now() + offset[0]

    shards = Shards(count, ids)
    store = await Store.open(url)
    try:
        record = await store.shard_processes.claim(shards, socket.gethostname(), os.getpid(), clock())
    except ShardConflict as exc:
        say({"refused": str(exc)})
        await store.close()
        return 2
    service = RallyService(store, seed_source=lambda: 42, clock=clock)
    service.work.shards = shards
    deadlines = DeadlineService(service.work, clock)
    ran: list[int] = []
    delivered: list[int] = []

    async def test_job(job: Job, now: datetime) -> int:
        ran.append(job.id)
        await store.jobs.complete(job.id, now)
        return 1

    service.work.job_routes["test."] = test_job
    original_sent = service.delivery.sent

    async def sent(out: Any, message_id: int | None) -> Any:
        result = await original_sent(out, message_id)
        delivered.append(out.row.id)
        return result

    service.delivery.sent = sent  # type: ignore[method-assign]
    sender = OutboxSender(RelayedDiscord(), service.delivery, renderer=None,  # type: ignore[arg-type]
                          idle_s=0.1, prompts=OptionsCache(), buttons=TurnButton)
    sender.start()
    say({"ready": True, "pid": os.getpid()})
    draining: set[asyncio.Task[None]] = set()
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        command = json.loads(line)
        if "posted" in command:
            _answers[command["posted"]].set_result(int(command["id"]))
        elif command["op"] == "time":
            offset[0] = timedelta(seconds=command["offset"])
            say({"alive": await store.shard_processes.heartbeat(record, clock())})
        elif command["op"] == "jobs":
            ran.clear()
            await deadlines.run_due()
            say({"ran": sorted(ran)})
        elif command["op"] == "drain":
            draining.add(loop.create_task(drain(store, shards, delivered)))  # sends meanwhile are answered above
    await sender.stop()
    await store.close()
    return 0


async def drain(store: Store, shards: Shards, delivered: list[int]) -> None:
    while any(shards.owns(row.guild_id) for row in await store.outbox.owed()):
        await asyncio.sleep(0.05)
    say({"drained": len(delivered)})


if __name__ == "__main__":
    count, ids = int(sys.argv[2]), tuple(int(i) for i in sys.argv[3].split(","))
    sys.exit(asyncio.run(main(sys.argv[1], count, ids, float(sys.argv[4]))))
