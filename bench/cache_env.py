"""The render disk cache folder a benchmark uses: its own, never the bot's (`RALLYBOT_CACHE`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def own_cache_env(folder: str | None = None) -> Iterator[None]:
    """Inside: `RALLYBOT_CACHE` is `folder` (when given; code inside may set it again); after,
    whatever it was before, unset if it was unset."""
    saved = os.environ.get("RALLYBOT_CACHE")
    if folder is not None:
        os.environ["RALLYBOT_CACHE"] = folder
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("RALLYBOT_CACHE", None)
        else:
            os.environ["RALLYBOT_CACHE"] = saved
