"""`bench render` and `bench memory` still run (at small sizes: their figures are measured elsewhere)."""

from __future__ import annotations

from bench import memory
from bench import render as render_bench
from bot import sizing
from bot.engine.rallyman.stages.loader import load_stage
from bot.services import images


def test_the_render_bench_measures_overlay_and_palette_encode_in_process():
    record = render_bench._in_process(load_stage("pinewood-sprint"), runs=3)
    assert record["encode_ms"] > 0 and record["png_kib"] < record["png_rgb_kib"]
    assert abs(record["total_over_encode"] - record["total_ms"] / record["encode_ms"]) < 0.01
    assert len(render_bench._specs("pinewood-sprint", 5)) == 5


def test_the_memory_bench_holds_rallies_and_draws_a_board_for_each():
    images.shutdown_pool()
    images._pending.clear()  # warm requests of the rallies other tests created
    record = memory.run(rallies=6, stages=3, clients=2, seconds=0.5, render=False, league_runs=2)
    assert record["bench"] == "memory" and record["boards"] == 6
    assert record["games"] == {"rallyman": 2, "dirt": 2, "roadrally": 2}  # the three games, spread
    plan = record["render"]  # the bot's plan on this host with its web page on (counted in the budget)
    assert plan["web"] is True and plan["workers"] == sizing.host_plan(web=True).workers
    assert record["rss_mb"] > 0 and record["baseline_mb"] > 0 and len(record["workers_rss_mb"]) == plan["workers"]
    assert set(record["peak_parts_mb"]) == {"bot", "workers", "web"} and record["web_rss_mb"] > 0
    assert record["total_rss_mb"] >= record["rss_mb"] + sum(record["workers_rss_mb"]) - 1  # a peak, bot + workers
    assert record["league_runs"] == 2 and record["pages"] > 0 and record["web_refused"] == []
    assert images._pool is None  # the bench stops its workers


def test_the_memory_bench_holds_servers_and_counts_them_in_its_plan():
    images.shutdown_pool()
    images._pending.clear()
    record = memory.run(rallies=3, stages=3, clients=0, seconds=0.5, render=False, league_runs=2, servers=25)
    assert record["servers"] == 25 and record["render"]["servers"] == 25 and record["boards"] == 3
    assert record["servers_mb"] >= 0  # 25 servers: ~1 MB, under RSS's page noise
    assert record["least_budget_mb"] == sizing.minimum_mb(record["render"]["workers"], False, 25)
    assert images._pool is None
