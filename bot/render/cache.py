"""A least-recently-used map bounded in bytes, for the renderer's in-memory caches.

Every cache of pictures in bot.render is one of these, each with its own bound, so a process's
image memory is the sum of the bounds whatever the number of stages (a weekly generated stage no
longer evicts the others by count, and 50 stages do not keep 50 layers). Each render worker
process has its own caches (they are module globals): the bounds are per process.
"""

from __future__ import annotations

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
    total passes `limit` (the newest entry is always kept, even alone over the limit). Thread-safe."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

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
            while len(self._items) > 1 and self._bytes > self.limit:
                _, (_, gone) = self._items.popitem(last=False)
                self._bytes -= gone

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
