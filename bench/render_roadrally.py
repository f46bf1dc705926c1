"""Benchmark of a Road Rally USA board (`python -m bench.render_roadrally`): a 5-seat AI game on
the standard course std-7 after 60 actions (several cars on one space), drawn from the spectators'
view. Medians over RUNS runs:
- draw_ms: `board_image` (course, cars, panel, legend, header; no static layer is kept yet);
- encode_ms: its palette PNG; total_ms = draw + encode; png_kib: the PNG's size;
- data_ms: the same board as the services draw it, from its outbox data (`board_picture` on
  `board_data`: the course reloaded by name, the view rebuilt) to the PNG;
- results_ms: the classification card of a finished 5-seat game (C8), from its data to the PNG.
`python -m bot bench render --game roadrally` runs `run()` and prints one JSON line."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from typing import Any

from bot.engine.roadrally.pictures import PICTURES, board_data, results_data
from bot.engine.roadrally.view import view
from bot.i18n import DEFAULT_LANG
from bot.render.encode import to_png
from bot.render.options import DEFAULT_OPTIONS
from bot.render.painter import png
from bot.render.roadrally.board import board_image
from bot.render.roadrally.painter import PAINTER
from bot.render.roadrally.sample import NAMES, ai_game
from bot.services.images import localized

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


def _median_ms(draw: Callable[[], bytes], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        draw()
        times.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(times), 1)


def run(runs: int = RUNS) -> dict[str, Any]:
    record: dict[str, Any] = {"bench": "render", "game": "roadrally"}
    record.update(figures(runs))
    board = board_data(view(ai_game("std-7", actions=60), None), NAMES)
    record["data_ms"] = _median_ms(lambda: png(PAINTER.board(PICTURES.board_picture(board), DEFAULT_OPTIONS)), runs)
    card = localized(results_data(view(ai_game("std-7", actions=3000), None), NAMES), DEFAULT_LANG)
    results = PICTURES.results_picture(card)
    record["results_ms"] = _median_ms(lambda: png(PAINTER.results(results, DEFAULT_OPTIONS)), runs)
    record.update({"course": "std-7", "runs": runs})
    return record


if __name__ == "__main__":
    print(json.dumps(run()))
