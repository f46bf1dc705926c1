"""Pages and pictures cached per data version, and the ETags that let a browser skip them.

A page's data version is what a small query of `bot/store/web.py` answers (a league's rounds,
results and log; a rally's version …), with the page's address and language; its ETag is a hash
of those. The same version is the same bytes, so a page is built once per version, and a browser
that sends the ETag back gets 304 for the price of the version query.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: changes the ETags of every page when the site's own look or texts change (a new release)
SITE_VERSION = "web-2"


def etag_of(*parts: object) -> str:
    """A strong ETag (quoted) of a page's address, language and data version."""
    digest = hashlib.sha256(repr((SITE_VERSION, *parts)).encode()).hexdigest()[:32]
    return f'"{digest}"'


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether a request's `If-None-Match` names `etag` (or is `*`); weak tags compare equal."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match[:1000].split(",")]
    return "*" in tags or etag in tags


class Lru(Generic[K, V]):
    """A small least-recently-used map of at most `size` entries and, when `max_bytes` is given,
    at most that many bytes as `weigh` counts them (a page of a league with a thousand
    runs is far larger than a rally's; the newest entry is always kept, even alone over it)."""

    def __init__(self, size: int, max_bytes: int | None = None, weigh: Callable[[V], int] | None = None) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self.weigh = weigh if weigh is not None else (lambda value: 0)
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0

    def get(self, key: K) -> V | None:
        item = self._items.get(key)
        if item is None:
            return None
        self._items.move_to_end(key)
        return item[0]

    def put(self, key: K, value: V) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self._bytes -= old[1]
        weight = self.weigh(value)
        self._items[key] = (value, weight)
        self._bytes += weight
        while len(self._items) > 1 and (len(self._items) > self.size
                                        or (self.max_bytes is not None and self._bytes > self.max_bytes)):
            _, (_, gone) = self._items.popitem(last=False)
            self._bytes -= gone

    @property
    def bytes(self) -> int:
        """The bytes held now, as `weigh` counts them."""
        return self._bytes

    def pop(self, key: K) -> V | None:
        """Remove `key`; its value, or None when it was not kept."""
        item = self._items.pop(key, None)
        if item is None:
            return None
        self._bytes -= item[1]
        return item[0]

    def __len__(self) -> int:
        return len(self._items)


def body_bytes(value: tuple[str, bytes]) -> int:
    """The weight of a cached answer (its ETag and its body)."""
    return len(value[0]) + len(value[1])
