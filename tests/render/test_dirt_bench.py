"""`python -m bot bench render --game dirt` runs DIRT's board bench (bench/render_dirt.py), at a small
size here: its figures are measured by running it, never by a test."""

from __future__ import annotations

import json

from bench import render_dirt
from bot.__main__ import main


def test_the_dirt_render_bench_measures_overlay_and_palette_encode_in_process():
    record = render_dirt._in_process(runs=3)
    assert record["encode_ms"] > 0 and record["png_kib"] < record["png_rgb_kib"]
    assert abs(record["total_over_encode"] - record["total_ms"] / record["encode_ms"]) < 0.01
    assert record["width"] == 1080


def test_bench_render_game_dirt_runs_the_dirt_bench(capsys, monkeypatch):
    monkeypatch.setattr(render_dirt, "run", lambda: {"bench": "render", "game": "dirt"})
    assert main(["bench", "render", "--game", "dirt"]) == 0
    assert json.loads(capsys.readouterr().out) == {"bench": "render", "game": "dirt"}


def test_game_is_refused_for_another_bench(capsys):
    assert main(["bench", "store", "--game", "dirt"]) == 2
    assert "--game" in capsys.readouterr().err
