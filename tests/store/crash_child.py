"""Child process of the crash test: appends actions as fast as it can and acks each commit.

    python crash_child.py DB SEED RALLIES ACTIONS

Prints `rally ID` for each rally created and `ack RALLY SEQ` after each committed action
(flushed), until killed. Each snapshot is the JSON list of the rally's action texts so far, so
the parent can check, after the kill, that every snapshot matches its log exactly.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.store import Store


def plan(seed: int, rallies: int, actions: int) -> list[tuple[int, str]]:
    """The (rally index, action text) sequence for a seed: the parent recomputes it to verify."""
    rng = random.Random(seed)
    words = ("roll 1", "roll 2", "roll 3", "roll 4", "roll 5", "roll white", "stop", "brake")
    return [(rng.randrange(rallies), rng.choice(words)) for _ in range(actions)]


async def main(path: str, seed: int, rallies: int, actions: int) -> None:
    store = await Store.open(path)
    try:
        ids = []
        for index in range(rallies):
            rally = await store.rallies.create(
                guild_id=1, channel_id=index + 1, host_id=1, stage="s", ruleset="r", seed=seed
            )
            ids.append(rally.id)
            print(f"rally {rally.id}", flush=True)
        logs: dict[int, list[str]] = {rally_id: [] for rally_id in ids}
        for index, text in plan(seed, rallies, actions):
            rally_id = ids[index]
            log = logs[rally_id] + [text]
            version = await store.append_action(rally_id, len(logs[rally_id]), 1, text, json.dumps(log))
            logs[rally_id] = log
            print(f"ack {rally_id} {version}", flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
