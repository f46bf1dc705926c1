"""The burst of `bench live` at a tiny size: it runs end to end and its figures make sense."""

from __future__ import annotations

from bench.burst import measure


def test_a_small_burst_reports_pings_boards_and_the_text_only_baseline(tmp_path):
    figures = measure(tmp_path, rallies=4)
    assert figures["burst_rallies"] == 4 and figures["boards"] == 4, figures
    assert 0 < figures["text_only_p99_ms"] and 0 < figures["ping_p99_ms"] <= figures["board_p99_ms"], figures
    assert figures["ping_over_text"] > 0
