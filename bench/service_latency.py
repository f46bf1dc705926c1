"""Service-call latency under load: many rallies played at the same moment through the services.

Each rally has its own client task sending the AI's next command as soon as the previous reply
came back, all rallies at once, on one store: a far heavier load than play-by-post, where drivers
think for minutes. Measured per call: from the call to its reply (lock, load, engine, and the
commit of action + snapshot + jobs + outbox rows). When a turn ends, the post it owes carries a
board image to draw; the client then draws it as the outbox sender does (in the render thread,
after the commit) and that delay is measured separately, under the same load, as `image_*`.
The delivery to Discord itself is not measured here (see bench/live.py).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services import Actor, Place, RallyService
from bot.services.images import Renderer, default_renderer, draw_async
from bot.store import Store

DRIVERS = (Actor(9001, "Ada"), Actor(9002, "Seb"))


async def _prepare(service: RallyService, rallies: int) -> list[Place]:
    places = [Place(77, 1000 + i) for i in range(rallies)]
    for place in places:
        await service.create(place, DRIVERS[0], "ridge-and-moor", drivers=2)
        for d in DRIVERS:
            await service.join(place, d)
        await service.start(place, DRIVERS[0])
    return places


async def _client(service: RallyService, renderer: Renderer | None, place: Place, calls: int, out: list[float],
                  images: list[float]) -> None:
    for _ in range(calls):
        rally = await service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:
            return
        state = service.work.state_of(rally)
        actor = next(d for d in DRIVERS if str(d.user_id) == state.cars[state.turn.car].id)
        text = RALLYMAN.commands.label(choose_action(state))
        t0 = time.perf_counter()
        reply = await service.act(place, actor, text)
        t1 = time.perf_counter()
        out.append((t1 - t0) * 1000)
        row = await service.store.outbox.get(reply.outbox[-1]) if reply.outbox else None
        if renderer is not None and row is not None and row.body.get("image"):
            await draw_async(renderer, row.body["image"])
            images.append((time.perf_counter() - t1) * 1000)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def _measure(rallies: int, calls: int, render: bool, target: str | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(target if target is not None else Path(tmp) / "latency.sqlite3")
        try:
            service = RallyService(store, seed_source=lambda: 8)
            renderer = default_renderer() if render else None
            places = await _prepare(service, rallies)
            latencies: list[float] = []
            images: list[float] = []
            await asyncio.gather(*(_client(service, renderer, p, calls, latencies, images) for p in places))
        finally:
            await store.close()
    return {"service_p50_ms": round(statistics.median(latencies), 1), "service_p99_ms": round(_p(latencies, 0.99), 1),
            "calls": len(latencies), "image_p50_ms": round(statistics.median(images), 1) if images else None,
            "image_p99_ms": round(_p(images, 0.99), 1) if images else None, "images": len(images)}


def service_latency(rallies: int = 200, calls: int = 8, render: bool = True, target: str | None = None) -> dict:
    """Latency figures with `rallies` rallies played concurrently (see the module docstring), on a
    temporary SQLite file, or on the database `target` (a `postgresql://` URL: bench store's)."""
    return asyncio.run(_measure(rallies, calls, render, target))


if __name__ == "__main__":
    print(service_latency())
