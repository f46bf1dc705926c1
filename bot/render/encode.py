"""PNG encoding of finished images.

`compress_level` 1–6 only: level 9 and `optimize=True` cost 3–5× the time for about the same size
on these flat-colour images (DESIGN §3). RGB, no alpha: smaller files, and Discord shows PNGs
without transparency tricks.
"""

from __future__ import annotations

import io

from PIL import Image


def to_png(image: Image.Image, compress_level: int = 3) -> bytes:
    """The PNG bytes of `image` (converted to RGB if needed)."""
    if not 1 <= compress_level <= 6:
        raise ValueError(f"compress_level {compress_level}: PNG level must be 1–6")
    if image.mode != "RGB":
        image = image.convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
