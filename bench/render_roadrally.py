"""Benchmark of a Road Rally USA board (`python -m bench.render_roadrally`): a 5-seat AI game on
the standard course std-7 after 60 actions (several cars on one space), drawn from the spectators'
view. Medians over RUNS runs:
- draw_ms: `board_image` (course, cars, panel, legend, header; no static layer is kept yet);
- encode_ms: its palette PNG; total_ms = draw + encode; png_kib: the PNG's size.
Not yet hooked to `python -m bot bench` (the game is not registered yet)."""

from __future__ import annotations

import statistics
import time

from bot.engine.roadrally.view import view
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS
from bot.render.roadrally.board import board_image
from bot.render.roadrally.sample import NAMES, ai_game

RUNS = 15


def figures(runs: int = RUNS) -> dict[str, float]:
    st = ai_game("std-7", actions=60)
    v = view(st, None)
    draw, encode, size = [], [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        img = board_image(st.road, v, DEFAULT_OPTIONS, NAMES)
        t1 = time.perf_counter()
        png = to_png(img, DEFAULT_OPTIONS.compress_level, DEFAULT_OPTIONS.palette)
        t2 = time.perf_counter()
        draw.append((t1 - t0) * 1000)
        encode.append((t2 - t1) * 1000)
        size = len(png)
    d, e = statistics.median(draw), statistics.median(encode)
    return {"draw_ms": round(d, 1), "encode_ms": round(e, 1), "total_ms": round(d + e, 1),
            "png_kib": round(size / 1024, 1)}


if __name__ == "__main__":
    print(figures())
