"""Benchmark of the board image after a turn (issue 5): overlay + PNG encode vs the encode alone.

A mid-stage board with 4 cars on a shipped stage (one skidding, a path of 3 dice with one ⚠, see
`bot.render.sample`). The static layer is warmed first, as in a running bot. Each run times:
- overlay_ms: copying the cached static layer and drawing cars, dice, header and table;
- encode_ms: the PNG encode of that frame (the baseline, measured in the same run);
total = overlay + encode. Medians over RUNS runs. Goal: total ≤ 1.5 × encode, PNG ≤ 500 KiB.
"""

from __future__ import annotations

import io
import json
import statistics
import time

from bot.engine.stage_loader import load_stage, stage_names
from bot.render.board import board_image
from bot.render.options import DEFAULT_OPTIONS
from bot.render.sample import sample_view

RUNS = 30
PREFERRED = "greystone-col"  # a long stage (camera view + overview strip): the heavier case


def _stage():
    names = stage_names()
    return load_stage(PREFERRED if PREFERRED in names else names[0])


def run(runs: int = RUNS) -> dict:
    stage = _stage()
    view = sample_view(stage)
    options = DEFAULT_OPTIONS
    board_image(stage, view, options)  # warm the static layer, sprites and fonts
    overlay, encode, sizes = [], [], []
    image = None
    for _ in range(runs):
        t0 = time.perf_counter()
        image = board_image(stage, view, options)
        t1 = time.perf_counter()
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=options.compress_level)
        t2 = time.perf_counter()
        overlay.append((t1 - t0) * 1000)
        encode.append((t2 - t1) * 1000)
        sizes.append(buf.tell())
    o, e = statistics.median(overlay), statistics.median(encode)
    return {
        "bench": "render",
        "overlay_ms": round(o, 2),
        "encode_ms": round(e, 2),
        "total_ms": round(o + e, 2),
        "total_over_encode": round((o + e) / e, 3),
        "png_kib": round(statistics.median(sizes) / 1024, 1),
        "width": image.width,
        "height": image.height,
        "stage": stage.name,
        "runs": runs,
    }


def main() -> int:
    print(json.dumps(run()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
