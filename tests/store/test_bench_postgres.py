"""`bench live --backend postgresql --processes N` (shards over processes) and the bench command line's
backend options.

Smoke tests on tiny runs: the documented keys with sane values, no timing assertions. The database is
the test's own (`pg_url`, passed as `url=`), so no bench starts a server of its own here.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import types

import pytest

from bench.live import _load_processes, run
from bench.store import BenchError
from bot.cli import bench as bench_cli

LIVE_POSTGRESQL = [
    "bench", "backend", "processes", "text_p50_ms", "text_p99_ms", "baseline_text_p99_ms", "p99_vs_baseline",
    "startup_s", "startup_cpu_s", "rss_mb_10k", "rss_mb_100k", "rss_ratio", "text_p99_ms_10k",
    "cpu_ms_per_command", "baseline_cpu_ms_per_command", "delivered_p99_ms",
    "baseline_delivered_p99_ms", "rallies", "baseline_rallies", "pending_jobs", "commands", "refused",
    "baseline_commands", "baseline_refused", "rate_per_s", "seconds",
]


LIVE_SQLITE = [
    "bench", "text_p50_ms", "text_p99_ms", "text_p99_ms_1k", "p99_ratio", "startup_s", "delivered_p99_ms", "rallies",
    "pending_jobs", "commands", "rate_per_s", "seconds",
]


def test_the_sqlite_record_is_as_it_was_plus_the_burst():
    record = run(10, baseline=10, rate=20, seconds=0.5, burst=3)  # each rally gets at most one command: no race
    assert list(record) == [*LIVE_SQLITE, "burst_rallies", "ping_p99_ms", "text_only_p99_ms", "ping_over_text",
                            "board_p99_ms", "board_after_ping_p99_ms", "boards", "latency_ms"]
    assert record["burst_rallies"] == 3 and record["boards"] == 3
    assert record["commands"] == 10 and record["rallies"] == 10 and record["startup_s"] > 0
    assert 0 < record["text_p50_ms"] <= record["text_p99_ms"] <= record["delivered_p99_ms"]


async def test_shard_processes_at_two_sizes_against_one_sqlite_process_in_the_same_run(pg_url):
    record = await asyncio.to_thread(run, 30, rate=20, seconds=1, backend="postgresql", processes=2, url=pg_url)
    assert list(record) == LIVE_POSTGRESQL
    assert record["bench"] == "live" and record["backend"] == "postgresql" and record["processes"] == 2
    assert record["rallies"] == 30 and record["baseline_rallies"] == 3
    assert record["pending_jobs"] == 60  # two a rally: the database grown to the full size after the tenth
    # every command of the schedule was played, each by the process of its rally's shard: no rally
    # is sent commands by two processes, so none is refused
    assert record["commands"] == 20 and record["refused"] == 0
    assert record["baseline_commands"] == 20 and record["baseline_refused"] == 0
    assert 0 < record["text_p50_ms"] <= record["text_p99_ms"] and record["text_p99_ms_10k"] > 0
    assert record["delivered_p99_ms"] >= record["text_p50_ms"]  # posts delivered after arrival
    assert 0 < record["baseline_text_p99_ms"] and record["baseline_delivered_p99_ms"] > 0
    assert record["p99_vs_baseline"] == pytest.approx(record["text_p99_ms"] / record["baseline_text_p99_ms"],
                                                      rel=0.02)
    assert 0 < record["startup_s"] < 120 and 0 < record["startup_cpu_s"] < 120
    assert record["cpu_ms_per_command"] > 0 and record["baseline_cpu_ms_per_command"] > 0
    # a process's peak resident memory: a Python process with the bot's imports, tens of MB, not 0 or GBs
    assert 30 < record["rss_mb_10k"] < 2000 and 30 < record["rss_mb_100k"] < 2000
    assert record["rss_ratio"] == pytest.approx(record["rss_mb_100k"] / record["rss_mb_10k"], rel=0.02)


async def test_an_error_that_is_no_refusal_fails_the_bench(pg_url):
    """Only a refused command is counted: here the workers' rallies do not exist (nothing was seeded)."""
    with pytest.raises(RuntimeError, match=r"(?s)bench worker \d+ ended .*NotFound: There is no rally"):
        await asyncio.to_thread(_load_processes, pg_url, 2, 10, 0.2, 2)


def args(name: str, **options: object) -> argparse.Namespace:
    base = {"runs": None, "results": None, "jobs": None, "backend": None, "processes": None, "url": None}
    return argparse.Namespace(name=name, **{**base, **options})


@pytest.mark.parametrize(("name", "options", "says"), [
    ("live", {"processes": 2}, "SQLite serves one process"),
    ("live", {"backend": "sqlite", "processes": 3}, "SQLite serves one process"),
    ("live", {"backend": "postgresql", "processes": 0}, "at least 1"),
    ("store", {"processes": 2, "backend": "postgresql"}, "only for 'bench live'"),
    ("engine", {"backend": "postgresql"}, "only for 'bench store' and 'bench live'"),
    ("store", {"url": "postgresql://u@127.0.0.1:1/x"}, "only with --backend postgresql"),
    ("live", {"backend": "postgresql", "url": "/tmp/x.sqlite3"}, "postgresql:// URL"),
    ("store", {"runs": 5}, "only for 'bench league'"),
    ("store", {"rallies": 5}, "--rallies: only for 'bench live'"),
    ("live", {"rallies": 0}, "--rallies must be at least 1"),
    ("live", {"seconds": 0.0}, "must be above 0"),
])
def test_command_lines_the_bench_refuses_exit_2(name, options, says, capsys):
    assert bench_cli.run(args(name, **options)) == 2
    assert says in capsys.readouterr().err


def fake_bench(monkeypatch, name: str, **behaviour: object) -> list[dict]:
    calls: list[dict] = []

    def fake_run(**kwargs: object) -> dict:
        calls.append(kwargs)
        if "error" in behaviour:
            raise behaviour["error"]  # type: ignore[misc]
        return {"bench": name}

    module = types.SimpleNamespace(run=fake_run, BenchError=BenchError)
    monkeypatch.setitem(sys.modules, f"bench.{name}", module)
    return calls


def test_the_options_reach_the_bench_as_keyword_arguments(monkeypatch, capsys):
    live = fake_bench(monkeypatch, "live")
    store = fake_bench(monkeypatch, "store")
    url = "postgresql://rallybot@127.0.0.1:5432/bench"
    assert bench_cli.run(args("live", backend="postgresql", processes=2, url=url)) == 0
    assert bench_cli.run(args("live")) == 0
    assert bench_cli.run(args("live", backend="postgresql", processes=4, rallies=100_000, seconds=5.0)) == 0
    assert bench_cli.run(args("store", backend="postgresql")) == 0
    assert bench_cli.run(args("store")) == 0
    assert live == [{"backend": "postgresql", "url": url, "processes": 2},
                    {"backend": "sqlite", "url": None, "processes": 1},
                    {"backend": "postgresql", "url": None, "processes": 4, "rallies": 100_000, "seconds": 5.0}]
    assert store == [{"backend": "postgresql", "url": None}, {"backend": "sqlite", "url": None}]
    assert capsys.readouterr().out.splitlines() == ['{"bench": "live"}'] * 3 + ['{"bench": "store"}'] * 2


def test_a_bench_that_cannot_run_as_asked_says_why_and_exits_2(monkeypatch, capsys):
    fake_bench(monkeypatch, "store", error=BenchError("the database x already holds 3 rallies"))
    assert bench_cli.run(args("store", backend="postgresql", url="postgresql://u@127.0.0.1:1/x")) == 2
    assert "bench store: the database x already holds 3 rallies" in capsys.readouterr().err
