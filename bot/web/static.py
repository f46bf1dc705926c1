"""The site's static files, read once into memory from a fixed list: no request path ever
names a file on disk (an unknown name is a 404 of the route, not a look-up)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "static"
#: name in the address → (file in bot/web/static/, content type)
FILES = {"site.css": ("site.css", "text/css; charset=utf-8"),
         "live.js": ("live.js", "text/javascript; charset=utf-8"),
         "replay.js": ("replay.js", "text/javascript; charset=utf-8"),
         "icon.svg": ("icon.svg", "image/svg+xml")}


@lru_cache(maxsize=1)
def static_files() -> dict[str, tuple[bytes, str, str]]:
    """name → (bytes, content type, ETag), read at first use."""
    out = {}
    for name, (file, kind) in FILES.items():
        body = (FOLDER / file).read_bytes()
        out[name] = (body, kind, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
    return out
