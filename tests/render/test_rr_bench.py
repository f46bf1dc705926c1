"""`python -m bot bench render --game roadrally` runs Road Rally USA's picture bench
(bench/render_roadrally.py), at a small size here: its figures are measured by running it, never
by a test."""

from __future__ import annotations

import json

from bench import render_roadrally
from bot.__main__ import main


def test_the_roadrally_render_bench_measures_the_board_and_the_results_card():
    record = render_roadrally.run(runs=2)
    assert record["bench"] == "render" and record["game"] == "roadrally" and record["runs"] == 2
    assert record["draw_ms"] > 0 and record["encode_ms"] > 0 and record["data_ms"] > 0 and record["results_ms"] > 0
    # total_ms is the unrounded sum rounded: it may differ from the sum of the two rounded figures by 0.1
    assert abs(record["total_ms"] - (record["draw_ms"] + record["encode_ms"])) <= 0.1 + 1e-9


def test_bench_render_game_roadrally_runs_the_roadrally_bench(capsys, monkeypatch):
    monkeypatch.setattr(render_roadrally, "run", lambda: {"bench": "render", "game": "roadrally"})
    assert main(["bench", "render", "--game", "roadrally"]) == 0
    assert json.loads(capsys.readouterr().out) == {"bench": "render", "game": "roadrally"}


def test_a_game_without_that_bench_is_refused(capsys, monkeypatch):
    from bot.cli import bench as bench_cli
    benches = {k: v for k, v in bench_cli.GAME_BENCHES.items() if k != ("engine", "roadrally")}
    monkeypatch.setattr(bench_cli, "GAME_BENCHES", benches)
    assert main(["bench", "engine", "--game", "roadrally"]) == 2
    assert "no such benchmark" in capsys.readouterr().err
