"""Pictures are drawn in worker processes (bot.services.images), never on the event loop."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time

import pytest
from render_helpers import decode

from bot.engine.rallyman.game import Seat, new_game
from bot.render import disk_cache
from bot.render.rallyman import static_layer as layers
from bot.render.rallyman.painter import SnowLayer
from bot.services import images
from bot.services.images import PillowRenderer, board_spec, draw, draw_async, preview_spec, warm

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """No worker pool yet, and an empty disk cache folder for the workers it starts."""
    images.shutdown_pool()
    images._pending.clear()
    monkeypatch.setattr(disk_cache, "_override", tmp_path)  # this process's, and the workers' it starts
    yield tmp_path
    images.shutdown_pool()
    images._pending.clear()


def _state(stage: str = "greystone-col"):
    return new_game(stage, [Seat("1", "Ada Lovelace"), Seat("2", "Sébastien Morel")], seed=3)


def _layers(folder) -> list[str]:
    static = folder / "static"
    return sorted(p.name for p in static.iterdir() if p.suffix == ".png") if static.exists() else []


def _wait_for(predicate, seconds: float = 60.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


async def test_boards_are_drawn_in_a_worker_process_the_same_as_here(folder, fresh_cache):
    spec = board_spec(_state())
    before = layers.stats.misses
    png = await draw_async(PillowRenderer(), spec)
    assert images.worker_pids() and os.getpid() not in images.worker_pids()
    assert layers.stats.misses == before  # this process drew nothing
    assert png == draw(PillowRenderer(), spec)  # the same bytes as a drawing here (from the whole layer)
    # the worker drew only the board's window, then the whole layer was warmed onto disk
    assert await asyncio.to_thread(_wait_for, lambda: len(_layers(folder)) == 1)
    assert decode(png).mode == "P"


async def test_a_burst_is_shared_by_the_workers(folder):
    await asyncio.to_thread(images.start_pool, 2)
    assert len(images.worker_pids()) == 2  # both started by start_pool (its pings meet at a barrier)
    spec = preview_spec("pinewood-sprint")
    pngs = await asyncio.gather(*(draw_async(PillowRenderer(), spec) for _ in range(8)))
    assert len(set(pngs)) == 1 and pngs[0].startswith(PNG)
    assert len(images.worker_pids()) == 2


async def test_warm_draws_the_layer_in_the_background_and_waits_for_the_pool(folder):
    warm("pinewood-sprint")  # before the pool: kept until it starts
    assert images._pending and _layers(folder) == []
    await asyncio.to_thread(images.start_pool, 1)
    assert not images._pending
    assert await asyncio.to_thread(_wait_for, lambda: len(_layers(folder)) == 1)
    warm("pinewood-sprint")  # asked again: not sent again
    warm(SnowLayer("pinewood-sprint", ("A",)), lang="fr")  # a classic layer under a weather
    assert await asyncio.to_thread(_wait_for, lambda: len(_layers(folder)) == 2)


async def test_a_failed_warm_is_logged_not_raised(folder, caplog):
    await asyncio.to_thread(images.start_pool, 1)
    with caplog.at_level(logging.WARNING, logger="bot.services.images"):
        warm("no-such-stage")
        assert await asyncio.to_thread(_wait_for, lambda: "warming the layer of no-such-stage failed" in caplog.text)


async def test_stand_in_renderers_never_start_the_workers(folder):
    class Stub:
        def preview(self, game, stage, lang="en") -> bytes:
            return PNG

    assert await draw_async(Stub(), preview_spec("pinewood-sprint")) == PNG  # type: ignore[arg-type]
    assert images._pool is None


async def test_without_workers_pictures_are_drawn_in_a_thread(folder, monkeypatch, caplog):
    def refuse(*args, **kwargs):
        raise OSError("no processes here")

    monkeypatch.setattr(images, "ProcessPoolExecutor", refuse)
    with caplog.at_level(logging.WARNING, logger="bot.services.images"):
        png = await draw_async(PillowRenderer(), preview_spec("pinewood-sprint"))
    assert png.startswith(PNG) and images._pool is None
    assert "render workers could not start" in caplog.text
    warm("pinewood-sprint")  # no pool: kept, harmless


async def test_a_dead_worker_costs_one_picture_drawn_here_then_new_workers(folder, caplog):
    await asyncio.to_thread(images.start_pool, 1)
    (pid,) = images.worker_pids()
    os.kill(pid, signal.SIGKILL)
    spec = preview_spec("pinewood-sprint")
    with caplog.at_level(logging.WARNING, logger="bot.services.images"):
        png = await draw_async(PillowRenderer(), spec)
    assert png.startswith(PNG) and "a render worker died" in caplog.text
    assert images._pool is None
    assert await draw_async(PillowRenderer(), spec) == png  # new workers
    assert images.worker_pids() and pid not in images.worker_pids()
