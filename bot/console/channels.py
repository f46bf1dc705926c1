"""The console's channels: the main channel (`PLACE`) and a channel per run (a private thread on
Discord), with the labels the transcript names them by, and where a driver's turn commands go."""

from __future__ import annotations

import re

from bot.services import Actor, Place, RallyService
from bot.store.leagues import run_of_thread_tx, running_run_thread_tx

PLACE = Place(guild_id=1, channel_id=1)
GUILD_NAME = "console"
FIRST_RUN_CHANNEL = 1000  # a run's channel (a private thread on Discord): 1000, 1001, …


class Channels:
    """Channel ids and their labels (`labels`: channel id → label, "" = main)."""

    def __init__(self, service: RallyService, place: Place) -> None:
        self.service = service
        self.place = place  # the main channel, in the server's language
        self.labels: dict[int, str] = {PLACE.channel_id: ""}

    async def new(self, label: str) -> int:
        """A new channel for a run (a private thread on Discord): after every channel used so far."""
        used = [FIRST_RUN_CHANNEL - 1, *self.labels, await self.service.store.rallies.last_channel(PLACE.guild_id)]
        channel = max(used) + 1
        self.labels[channel] = re.sub(r"[^\w-]+", "-", label.lower())
        return channel

    async def table_thread(self, guild_id: int, channel_id: int, name: str, users: tuple[int, ...]) -> int:
        """A new channel for a table of a league round (`TableGames.threads`; on Discord a private
        thread with the table's drivers in it), labelled after the thread's name."""
        return await self.new(name)

    async def turn_place(self, actor: Actor) -> Place:
        """Where the actor's turn commands go: their run in progress (its channel), else the main channel."""
        thread = await self.service.store.db.read(lambda tx: running_run_thread_tx(tx, actor.user_id, PLACE.guild_id))
        return self.place if thread is None else Place(PLACE.guild_id, thread, self.place.lang)

    async def label(self, channel_id: int) -> str:
        """How a channel is named in the transcript: "" (main), `run-alice-r1`, `scratch-bob-2026-w48`."""
        if channel_id in self.labels:
            return self.labels[channel_id]
        row = await self.service.store.db.read(lambda tx: run_of_thread_tx(tx, channel_id))
        if row is None:
            label = f"channel-{channel_id}"
        elif row[3] is None:
            label = f"scratch-{row[0]}-{row[2]}"
        else:
            label = f"run-{row[0]}-r{row[1]}"
        self.labels[channel_id] = re.sub(r"[^\w-]+", "-", label.lower())
        return self.labels[channel_id]
