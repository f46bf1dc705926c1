"""bench/store.py returns the issue-4 record (smoke test on a tiny run; no timing assertions)."""

from __future__ import annotations

from bench.store import realistic_snapshot, run, snapshots


def test_run_returns_the_issue_4_record():
    record = run(rallies=3, repeats=1, commits=20)
    assert list(record)[:7] == [
        "bench", "raw_commit_per_s", "action_commit_per_s", "commit_ratio",
        "service_p50_ms", "service_p99_ms", "rallies",
    ]
    assert record["bench"] == "store" and record["rallies"] == 3
    assert record["raw_commit_per_s"] > 0 and record["action_commit_per_s"] > 0 and record["commit_ratio"] > 0
    assert 0 < record["service_p50_ms"] <= record["service_p99_ms"]
    assert record["service_calls"] > 0  # three rallies really played through the services


def test_snapshots_are_realistic_size():
    sizes = [len(s) for s in snapshots()]
    assert 3000 <= sum(sizes) / len(sizes) <= 5000
    assert realistic_snapshot.__doc__
