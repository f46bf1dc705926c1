"""Pages and pictures cached per data version, and the ETags that let a browser skip them.

A page's data version is what a small query of `bot/store/web.py` answers (a league's rounds,
results and log; a rally's version …), with the page's address and language; its ETag is a hash
of those. The same version is the same bytes, so a page is built once per version, and a browser
that sends the ETag back gets 304 for the price of the version query.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
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
    """A small least-recently-used map of at most `size` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        """Remove `key`; its value, or None when it was not kept."""
        return self._items.pop(key, None)

    def __len__(self) -> int:
        return len(self._items)
