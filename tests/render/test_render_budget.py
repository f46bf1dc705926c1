"""Every picture cache of a drawing process is bounded in bytes, by one budget, however
many stages it meets (1,000 distinct ones here), and a process drawing in the bot's thread (0
workers) bounds its caches the same way."""

from __future__ import annotations

import asyncio

import pytest
from PIL import Image

from bot import games
from bot.render import cache, disk_cache
from bot.render.cache import ByteLRU, image_bytes
from bot.services import images
from bot.services.images import PillowRenderer, apply_budget, draw_async, preview_spec
from bot.sizing import RenderPlan

MB = 1024 * 1024
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def limits():
    """The shared caches' limits, put back after the test."""
    apply_budget(64)  # every game's pictures imported: every cache made
    saved = [(c, c.limit) for c in cache.caches()]
    yield
    for c, limit in saved:
        c.set_limit(limit)


def test_a_thousand_distinct_stage_layers_stay_within_the_bound():
    lru: ByteLRU[Image.Image] = ByteLRU(4 * MB)
    layer = Image.new("P", (800, 600))  # a palette layer: 1 byte a pixel
    for stage in range(1000):
        lru.put((f"gen-{stage}", "dry", "en"), layer, image_bytes(layer))
        assert lru.bytes <= 4 * MB
    assert len(lru) == (4 * MB) // (800 * 600) and lru.get(("gen-999", "dry", "en")) is layer
    assert lru.get(("gen-0", "dry", "en")) is None  # the oldest went first


def test_one_budget_bounds_every_picture_cache_of_the_three_games(limits):
    names = {c.name for c in cache.caches()}
    assert {"classic_static_layers", "dirt_static_layers", "dirt_overview_strips", "classic_strips",
            "text_masks"} <= names
    shown = apply_budget(24)
    assert set(shown) == names
    assert cache.budget() <= 24 * MB and sum(shown.values()) == cache.budget()
    assert shown["classic_static_layers"] > shown["classic_strips"] > shown["text_masks"] > 0  # by their shares


def test_a_smaller_budget_drops_the_oldest_entries_now(limits):
    layers = next(c for c in cache.caches() if c.name == "dirt_overview_strips")
    strip = Image.new("RGB", (700, 200))
    for stage in range(1000):  # a thousand distinct DIRT stages' overview strips
        layers.put((f"gen-{stage}", 4), strip, image_bytes(strip))
    held = layers.bytes
    assert 0 < held <= layers.limit
    apply_budget(8)
    assert layers.bytes <= layers.limit < held
    assert cache.held() <= cache.budget() + max(image_bytes(strip), 2 * MB)  # a cache keeps its newest entry


def test_the_stage_hash_memo_stays_bounded_over_a_thousand_stages():
    class Fake:
        def __init__(self, n: int) -> None:
            self.name, self.spaces = f"gen-{n}", [0] * 30

        def model_dump_json(self, *, exclude: set[str]) -> str:
            return self.name

    kept = [Fake(n) for n in range(1000)]
    digests = {disk_cache.stage_hash(stage) for stage in kept}
    assert len(digests) == 1000 and len(disk_cache._stage_hashes) <= 64


@pytest.fixture
def in_thread(tmp_path, monkeypatch, limits):
    """A plan of 0 workers: no pool, pictures drawn in the render thread."""
    images.shutdown_pool()
    images._pending.clear()
    monkeypatch.setattr(disk_cache, "_override", tmp_path)
    images.configure(RenderPlan(0, 12, 160, "test"))
    yield
    images.configure(None)
    images.shutdown_pool()


async def test_zero_workers_draw_in_the_bot_thread_with_the_plan_s_budget(in_thread):
    png = await draw_async(PillowRenderer(), preview_spec("pinewood-sprint"))
    assert png.startswith(PNG)
    assert images._pool is None and images.worker_pids() == [] and images.pool_size() == 0
    assert cache.budget() <= 12 * MB  # this process's caches: the plan's budget
    images.warm("pinewood-sprint")  # nothing to warm in a thread: its first board draws the layer
    assert not images._pending
    for game in games.games():  # each game draws here too
        if game.pictures is not None and game.id != games.DEFAULT_GAME:
            name = game.library.stages.names()[0]
            assert (await draw_async(PillowRenderer(), preview_spec(name, game.id))).startswith(PNG)


async def test_workers_get_the_plan_s_budget(tmp_path, monkeypatch):
    images.shutdown_pool()
    monkeypatch.setattr(disk_cache, "_override", tmp_path)
    images.configure(RenderPlan(1, 10, 300, "test"))
    try:
        pool = await asyncio.to_thread(images.start_pool)
        assert pool is not None and len(images.worker_pids()) == 1
        budget = await asyncio.wrap_future(pool.submit(cache.budget))
        assert 9 * MB < budget <= 10 * MB
    finally:
        images.configure(None)
        images.shutdown_pool()


def test_a_cache_made_after_the_budget_is_set_gets_its_share_of_it(limits):
    apply_budget(16)
    late: ByteLRU[bytes] = ByteLRU(100 * MB, "late_cache", share=8)  # a module imported on first use
    try:
        assert late.limit < 16 * MB and cache.budget() <= 16 * MB
    finally:
        cache._registry.remove(late)
        apply_budget(16)
    from bot.render.career import card  # the career card's frames (drawn on the first /driver)

    shares = sum(c.share or 0 for c in cache.caches())
    assert card._frames in cache.caches() and card._frames.limit == int(16 * MB * 8 / shares)
    assert cache.budget() <= 16 * MB
