"""Where a board's static layer is looked for before it is drawn, the same for every game: the
process's memory cache (`bot.render.cache.ByteLRU`), then the disk cache (`bot.render.disk_cache`),
with the counters tests and logs read."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

from PIL import Image

from bot.render import disk_cache
from bot.render.cache import ByteLRU, image_bytes


@dataclass
class LayerStats:
    """Counters of a static-layer cache, for tests and logs: `hits` and `misses` are the memory
    cache's; a miss is then read from disk (`disk_hits`) or drawn (`drawn`)."""

    hits: int = 0
    misses: int = 0
    disk_hits: int = 0
    drawn: int = 0
    windows: int = 0  # boards whose window was drawn alone (a game's WINDOW_FIRST)

    def reset(self) -> None:
        self.hits = self.misses = self.disk_hits = self.drawn = self.windows = 0


def kept_layer(cache: ByteLRU[Image.Image], stats: LayerStats, key: Hashable, name: Callable[[], str],
               size: tuple[int, int], on_disk: Callable[[Image.Image], None] | None = None) -> Image.Image | None:
    """The layer of `key` from memory, else from disk by its file `name` (worked out on a miss
    only) when it is of `size` (then kept in memory, and `on_disk` is told), else None."""
    img = cache.get(key)
    if img is not None:
        stats.hits += 1
        return img
    stats.misses += 1
    img = disk_cache.load(name())
    if img is None or img.size != size:
        return None
    stats.disk_hits += 1
    cache.put(key, img, image_bytes(img))
    if on_disk is not None:
        on_disk(img)
    return img
