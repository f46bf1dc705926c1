"""`python -m bot bench league` prints the issue-11 record (tiny sizes; no timing assertions)."""

from __future__ import annotations

import json

from bot.__main__ import main

KEYS = ["bench", "close_ms", "rating_ms", "rating_over_close", "scratch_ms", "tick_ms", "select_ms", "idle_tick_ms",
        "runs", "results", "pending_jobs", "cards_kib", "rated", "goals_ms", "goals"]


def test_bench_league_prints_one_json_line_with_every_figure_measured(capsys):
    assert main(["bench", "league", "--runs", "4", "--results", "30", "--jobs", "40"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert list(record) == KEYS
    assert record["bench"] == "league"
    for key in ("close_ms", "rating_ms", "scratch_ms", "tick_ms", "select_ms", "idle_tick_ms", "cards_kib"):
        assert record[key] > 0, key
    # The sizes asked for are what the database held when it was timed: every run of the round
    # closed with a result, the whole world ranking, and the pending jobs (plus the week's own
    # scratch.close job, which is not due yet).
    assert record["runs"] == 4
    assert record["rated"] == 4  # the close rated every driver of its round, once
    assert record["rating_over_close"] == round(record["rating_ms"] / record["close_ms"], 3) < 1
    assert record["results"] == 30
    assert record["pending_jobs"] >= 40
    assert record["goals_ms"] == {"close": 2000, "scratch": 20, "tick": 10}
    assert record["goals"] == {"rating_over_close": 0.2}


def test_bench_sizes_are_refused_for_another_bench_and_below_one(capsys):
    assert main(["bench", "store", "--runs", "3"]) == 2
    assert "only for 'bench league'" in capsys.readouterr().err
    assert main(["bench", "league", "--jobs", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
