"""What every game's render bench measures in its own process (bench/render.py, bench/render_dirt.py):
board after board as a render worker draws them, then the palette PNG of each frame, the same-run
baseline; and, for comparison only, the true-colour PNG of the last frame."""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.render.encode import quantize
from bot.render.options import RenderOptions


def board_figures(draw: Callable[[int], Image.Image], runs: int, options: RenderOptions) -> dict[str, Any]:
    """Medians over `runs` boards `draw(i)`: overlay_ms (drawing), encode_ms (its palette PNG),
    total_over_encode (goal ≤ 1.3), png_kib; encode_rgb_ms and png_rgb_kib of the last frame."""
    overlay, encode, encode_rgb, sizes, sizes_rgb = [], [], [], [], []
    image = None
    for i in range(runs):  # what a worker does, board after board
        t0 = time.perf_counter()
        image = draw(i)
        t1 = time.perf_counter()
        buf = io.BytesIO()
        quantize(image).save(buf, format="PNG", compress_level=options.compress_level)
        t2 = time.perf_counter()
        overlay.append((t1 - t0) * 1000)
        encode.append((t2 - t1) * 1000)
        sizes.append(buf.tell())
    assert image is not None
    for _ in range(runs):  # the true-colour PNG of the same frame, apart (for comparison only)
        t2 = time.perf_counter()
        rgb = io.BytesIO()
        image.save(rgb, format="PNG", compress_level=options.compress_level)
        encode_rgb.append((time.perf_counter() - t2) * 1000)
        sizes_rgb.append(rgb.tell())
    o, e = statistics.median(overlay), statistics.median(encode)
    return {
        "overlay_ms": round(o, 2),
        "encode_ms": round(e, 2),
        "total_ms": round(o + e, 2),
        "warm_ms": round(o + e, 2),
        "total_over_encode": round((o + e) / e, 3),
        "png_kib": round(statistics.median(sizes) / 1024, 1),
        "encode_rgb_ms": round(statistics.median(encode_rgb), 2),
        "png_rgb_kib": round(statistics.median(sizes_rgb) / 1024, 1),
        "width": image.width,
        "height": image.height,
    }
