"""The burst of `bench live`: 200 rallies end their turn at the same moment.

Each rally is one `stop` away from the end of its driver's turn; all 200 `/stop` commands arrive
at once and go through the services (lock, engine, one commit each with the turn post it owes),
while the real outbox sender (`bot.views.sender.OutboxSender`) delivers to a Discord faked with
`LATENCY_S` per call (send, edit) and draws the boards with the real renderer (its worker
processes). Per rally, from the burst's start:

- `ping_p99_ms`: until the next driver's ping (the turn post's text) was handed to Discord;
- `board_p99_ms`: until the board reached that post, and `board_after_ping_p99_ms`: how long
  after its text (the goal "board-ready ≤ 1 s" read as the picture following its post within a
  second: the texts themselves queue behind 200 commits and 200 sends);
- `text_only_p99_ms`: the baseline of the same run: the same burst on a copy of the same rallies
  with a sender that draws nothing (goal: `ping_over_text` = ping / text-only ≤ 2).

Not measured: Discord's real latency (a fixed `LATENCY_S` stands for it), the gateway.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import time
from pathlib import Path
from typing import Any

BURST = 200
LATENCY_S = 0.05  # one Discord HTTP call
DRIVERS = ((9101, "Ada"), (9102, "Seb"))


class _Message:
    _ids = itertools.count(10**16)

    def __init__(self, log: _Log, channel_id: int) -> None:
        self.id = next(self._ids)
        self.channel_id = channel_id
        self.log = log
        self.attachments: list[Any] = []

    async def edit(self, **kwargs: Any) -> _Message:
        await asyncio.sleep(LATENCY_S)
        if kwargs.get("attachments"):
            self.log.board(self.channel_id)
        return self


class _Channel:
    def __init__(self, log: _Log, channel_id: int) -> None:
        self.log = log
        self.channel_id = channel_id

    async def send(self, **kwargs: Any) -> _Message:
        await asyncio.sleep(LATENCY_S)
        if kwargs.get("view") is not None:  # the turn post: its ping and buttons
            self.log.ping(self.channel_id)
        if kwargs.get("file") is not None or kwargs.get("files"):
            self.log.board(self.channel_id)
        return _Message(self.log, self.channel_id)

    def get_partial_message(self, message_id: int) -> _Message:
        return _Message(self.log, self.channel_id)


class _Log:
    """When each channel's ping and board were handed to Discord (first time only)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.pings: dict[int, float] = {}
        self.boards: dict[int, float] = {}

    def ping(self, channel_id: int) -> None:
        self.pings.setdefault(channel_id, time.perf_counter() - self.start)

    def board(self, channel_id: int) -> None:
        self.boards.setdefault(channel_id, time.perf_counter() - self.start)


class _Discord:
    """The parts of the bot the outbox sender uses, with `LATENCY_S` per call."""

    def __init__(self, log: _Log) -> None:
        self.log = log

    async def wait_until_ready(self) -> None:
        return None

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> _Channel:
        return _Channel(self.log, channel_id)

    async def create_dm(self, user: Any) -> _Channel:
        return _Channel(self.log, 0)


async def prepare(db: Path, rallies: int = BURST) -> None:
    """`rallies` running rallies of two drivers, each with one die rolled in its current turn, so
    `/stop` ends the turn; everything they owe is delivered."""
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.protocol import GAME as RALLYMAN
    from bot.services import Actor, Place, RallyService
    from bot.store import Store

    async with Store.open(db) as store:
        service = RallyService(store, seed_source=lambda: 5)
        actors = {str(uid): Actor(uid, name) for uid, name in DRIVERS}
        for n in range(rallies):
            place = Place(77, 5000 + n)
            await service.create(place, actors["9101"], "pinewood-sprint", drivers=2)
            for actor in actors.values():
                await service.join(place, actor)
            await service.start(place, actors["9101"])
            while True:
                rally = await store.rallies.get_active_in_channel(77, 5000 + n)
                assert rally is not None
                state = service.work.state_of(rally)
                if state.turn is not None and state.turn.started:
                    break  # one die rolled: `stop` ends this turn
                await service.act(place, actors[state.cars[state.turn.car].id],
                                  RALLYMAN.commands.label(choose_action(state)))
        while batch := await service.delivery.claim(limit=500):
            for out in batch:
                await service.delivery.sent(out, 1)


async def _burst(db: Path, rallies: int, draw: bool) -> dict[str, list[float]]:
    from bot.services import Actor, Place, RallyService
    from bot.services.images import default_renderer
    from bot.store import Store
    from bot.views.options_cache import OptionsCache
    from bot.views.sender import OutboxSender
    from bot.views.turn_buttons import TurnButton

    log = _Log()
    async with Store.open(db) as store:
        service = RallyService(store, seed_source=lambda: 5)
        sender = OutboxSender(_Discord(log), service.delivery,  # type: ignore[arg-type]
                              default_renderer() if draw else None, prompts=OptionsCache(),
                              buttons=TurnButton)
        service.work.on_commit = sender.wake
        sender.start()
        places = [Place(77, 5000 + n) for n in range(rallies)]
        turns = []
        for place in places:
            rally = await store.rallies.get_active_in_channel(77, place.channel_id)
            assert rally is not None
            state = service.work.state_of(rally)
            turns.append(Actor(int(state.cars[state.turn.car].id), ""))
        log.start = time.perf_counter()
        await asyncio.gather(*(service.act(place, actor, "stop") for place, actor in zip(places, turns)))
        for _ in range(600):  # until every ping (and board) was handed over
            if len(log.pings) >= rallies and (not draw or len(log.boards) >= rallies):
                break
            await asyncio.sleep(0.01)
        await sender.stop()
    after = [log.boards[c] - log.pings[c] for c in log.boards if c in log.pings]
    return {"pings": sorted(log.pings.values()), "boards": sorted(log.boards.values()), "after": after}


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else float("nan")


def measure(folder: Path, rallies: int = BURST) -> dict[str, Any]:
    """The burst's figures (see the module docstring)."""
    source = folder / "burst.sqlite3"
    asyncio.run(prepare(source, rallies))
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{folder / 'text-only.sqlite3'}{suffix}")
    text_only = asyncio.run(_burst(folder / "text-only.sqlite3", rallies, draw=False))
    drawn = asyncio.run(_burst(source, rallies, draw=True))
    ping, text = _p99(drawn["pings"]), _p99(text_only["pings"])
    return {"burst_rallies": rallies, "ping_p99_ms": round(ping, 1), "text_only_p99_ms": round(text, 1),
            "ping_over_text": round(ping / text, 2), "board_p99_ms": round(_p99(drawn["boards"]), 1),
            "board_after_ping_p99_ms": round(_p99(drawn["after"]), 1),
            "boards": len(drawn["boards"]), "latency_ms": LATENCY_S * 1000}
