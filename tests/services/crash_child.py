"""Child process of the crash test: plays rallies in many channels through the services and
prints `ack RALLY VERSION` after every committed command (flushed), until it is killed."""

from __future__ import annotations

import asyncio
import sys

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services import Actor, Place, RallyService
from bot.store import Store

DRIVERS = [Actor(2000 + i, f"Driver{i}") for i in range(3)]


async def main(path: str, channels: int) -> None:
    store = await Store.open(path)
    service = RallyService(store, seed_source=lambda: 99)
    places = [Place(1, 100 + c) for c in range(channels)]
    for place in places:
        if await store.rallies.get_active_in_channel(place.guild_id, place.channel_id) is None:
            await service.create(place, DRIVERS[0], "pinewood-sprint", drivers=3)
            for d in DRIVERS:
                await service.join(place, d)
            await service.start(place, DRIVERS[0])
    while True:
        busy = False
        for place in places:
            rally = await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            if rally is None:
                continue
            busy = True
            state = service.work.state_of(rally)
            actor = next(d for d in DRIVERS if str(d.user_id) == state.cars[state.turn.car].id)
            await service.act(place, actor, RALLYMAN.commands.label(choose_action(state)))
            print(f"ack {rally.id} {rally.version + 1}", flush=True)
        if not busy:
            print("done", flush=True)
            await store.close()
            return


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
