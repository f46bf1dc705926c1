"""A least-recently-used map bounded in bytes, for the renderer's in-memory caches.

Every cache of pictures in bot.render is one of these, each with its own bound, so a process's
image memory is the sum of the bounds whatever the number of stages (a weekly generated stage no
longer evicts the others by count, and 50 stages do not keep 50 layers). Each render worker
process has its own caches (they are module globals): the bounds are per process.

Every `ByteLRU` made with a `share` is registered (`caches()`): `set_budget(total)` gives each its
share of `total` bytes, so one number (the render plan's cache budget of a process,
`bot.services.render_plan`) bounds them all; a cache made without a share keeps its own limit.
The shares below are the default limits' proportions (the static layers are most of it: a
board's first draw of a stage costs a whole layer, ~50–250 ms, a strip or a text a few ms).
"""

from __future__ import annotations

import ctypes
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

from PIL import Image

V = TypeVar("V")


def image_bytes(img: Image.Image) -> int:
    """Memory a Pillow image holds: Pillow stores RGB and RGBA as 4 bytes a pixel, L and P as 1."""
    per_pixel = 1 if img.mode in ("1", "L", "P") else 4
    return img.width * img.height * per_pixel


class ByteLRU(Generic[V]):
    """`key → value` with each value's size in bytes; the least recently used go first once the
    total passes `limit` (the newest entry is kept even alone over the limit, unless `keep_newest`
    is False: a cache of large, rarely used values keeps none then). Thread-safe."""

    def __init__(self, limit: int, name: str | None = None, share: float | None = None,
                 keep_newest: bool = True) -> None:
        self.limit = limit
        self.name = name
        self.share = share
        self.keep_newest = keep_newest
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        if share is not None:
            _registry.append(self)
            if _budget_total is not None:  # a module imported after the budget was set: shares again
                set_budget(_budget_total)

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, value: V, size: int) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._items[key] = (value, size)
            self._bytes += size
            self._shrink()

    def _shrink(self) -> None:
        while len(self._items) > (1 if self.keep_newest else 0) and self._bytes > self.limit:
            _, (_, gone) = self._items.popitem(last=False)
            self._bytes -= gone

    def set_limit(self, limit: int) -> None:
        """A new bound (the oldest entries go now if the cache holds more)."""
        with self._lock:
            self.limit = max(0, limit)
            self._shrink()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    @property
    def bytes(self) -> int:
        """The bytes held now (at most `limit`, unless a single entry is larger)."""
        return self._bytes

    def __len__(self) -> int:
        return len(self._items)


_registry: list[ByteLRU] = []  # the caches made with a share, in the order they were made
_budget_total: int | None = None  # the last budget set: a cache made later gets its share of it


def caches() -> list[ByteLRU]:
    """Every cache with a share of the budget (those of the modules imported so far)."""
    return list(_registry)


def set_budget(total: int) -> dict[str, int]:
    """Bound the shared caches to `total` bytes in all, each to its share of the shares' sum (the
    modules that draw are imported first, `bot.spec_drawing.apply_budget`; a cache made later,
    such as the career card's on the first `/driver`, gets its share then); their new limits by
    name."""
    global _budget_total
    _budget_total = total
    shares = sum(c.share or 0.0 for c in _registry) or 1.0
    limits = {}
    for cache in _registry:
        cache.set_limit(int(total * (cache.share or 0.0) / shares))
        limits[cache.name or repr(cache)] = cache.limit
    return limits


def budget() -> int:
    """The bytes the shared caches may hold in all now (the sum of their limits)."""
    return sum(c.limit for c in _registry)


def held() -> int:
    """The bytes the shared caches hold now."""
    return sum(c.bytes for c in _registry)


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters
MMAP_THRESHOLD = 128 * 1024


def return_freed_memory() -> bool:
    """In a process that draws: allocations of `MMAP_THRESHOLD` bytes and more (image buffers)
    get their own mapping, given back to the system when freed, and the heap's free top is given
    back past 1 MB, instead of glibc raising both thresholds as it sees large frees. Measured
    (150 boards of the three games over 50 stages, in one process): 190 MB resident without,
    160 MB with, at the same speed; without it the freed buffers of a board's drawing stay
    resident. False where it does not apply (not glibc)."""
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, 1024 * 1024))
