"""A bot process without Discord, for the tests of several processes on one PostgreSQL database.

`python -m tests.services.pg_worker URL` opens the store and the services on URL, prints `ready`,
then reads one JSON command per line on stdin and answers one JSON line each (flushed):

- `{"op": "act", "channel": C, "die": D?, "user": U?}`: driver U (default: whose turn it is in
  channel C) plays D (default: the move the AI picks from the state this process read). Both
  processes get the same command at the same moment: one wins, the other must be refused;
  answers `{"ok": true, "version": V}` or `{"ok": false, "error": class name, "text": refusal}`;
- `{"op": "storm", "channels": [...]}`: play the channels' rallies to their end (the AI picks each
  move), answering `{"ack": rally, "version": V}` after every committed command, then `{"done": n}`;
- `{"op": "jobs", "now": ISO time, "pause": S}`: run the due jobs (kind `test.*` is routed to a
  handler that takes S seconds, notes the job and completes it) until none is left; answers
  `{"ran": [job ids]}`;
- `{"op": "hold", "rally": R}`: take the rally's lock and keep it (answers `{"holding": R}`):
  the process is then killed with -9 by the test.
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime

from bot.engine.core.errors import RallyError
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services import Actor, Place, RallyService
from bot.services.play.deadlines import DeadlineService
from bot.store import Job, Store

GUILD = 10
DRIVERS = {1001: Actor(1001, "Alice"), 1002: Actor(1002, "Bob"), 1003: Actor(1003, "Carol")}


def answer(value: dict) -> None:
    print(json.dumps(value), flush=True)


async def act(service: RallyService, store: Store, channel: int, die: str | None = None,
              user: int | None = None) -> dict:
    place = Place(GUILD, channel)
    rally = await store.rallies.get_active_in_channel(GUILD, channel)
    if rally is None:
        return {"ok": False, "error": "Finished", "text": ""}
    state = service.work.state_of(rally)
    actor = DRIVERS[user if user is not None else int(state.cars[state.turn.car].id)]
    try:
        reply = await service.act(place, actor, die or RALLYMAN.commands.label(choose_action(state)))
    except RallyError as exc:
        return {"ok": False, "error": type(exc).__name__, "text": str(exc)}
    return {"ok": True, "version": reply.turn.version if reply.turn else None, "rally": rally.id}


async def main(url: str) -> None:
    store = await Store.open(url)
    service = RallyService(store, seed_source=lambda: 42)
    deadlines = DeadlineService(service.work)
    ran: list[int] = []
    pause = [0.001]

    async def test_job(job: Job, now: datetime) -> int:
        await asyncio.sleep(pause[0])  # a job takes a moment: the other process claims meanwhile
        ran.append(job.id)
        await store.jobs.complete(job.id, now)
        return 1

    service.work.job_routes["test."] = test_job
    answer({"ready": True})
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        command = json.loads(line)
        op = command["op"]
        if op == "act":
            answer(await act(service, store, command["channel"], command.get("die"), command.get("user")))
        elif op == "storm":
            played = 0
            busy = True
            refusals = 0  # in a row: a storm that only meets refusals is stuck, and says so
            while busy and refusals < 500:
                busy = False
                for channel in command["channels"]:
                    result = await act(service, store, channel)
                    if not result["ok"] and result["error"] == "Finished":
                        continue
                    busy = True
                    if result["ok"]:
                        played += 1
                        refusals = 0
                        rally = await store.rallies.get(result["rally"])
                        answer({"ack": rally.id, "version": rally.version})
                    else:
                        refusals += 1
                        last = result
            answer({"done": played} if refusals < 500 else {"done": played, "stuck": last})
        elif op == "jobs":
            ran.clear()
            pause[0] = command.get("pause", 0.001)
            now = datetime.fromisoformat(command["now"])
            await deadlines.run_due(now)
            answer({"ran": sorted(ran)})
        elif op == "hold":
            async with service.work.lock(command["rally"]):
                answer({"holding": command["rally"]})
                await asyncio.sleep(3600)
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
