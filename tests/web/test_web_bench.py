"""`python -m bot bench web` (bench/web.py) run tiny: 2 readers for 1 s a storm. It checks
the JSON line's figures and the command line's options, never the timings (those are the bench's)."""

from __future__ import annotations

import argparse
import json

import pytest

from bot.cli import bench as bench_cli

FIGURES = ("p99_ms", "static_p99_ms", "rps", "static_rps", "text_p99_ms_during", "text_p99_ms_without")
GOALS = ("p99_le_3x_static_p99", "rps_ge_half_static_rps", "text_p99_during_le_1_5x_without")


def args(name: str, **options: object) -> argparse.Namespace:
    base = {"runs": None, "results": None, "jobs": None, "backend": None, "processes": None, "url": None,
            "game": None, "clients": None, "seconds": None}
    return argparse.Namespace(name=name, **{**base, **options})


def test_bench_web_prints_one_json_line_with_its_figures(capsys):
    assert bench_cli.run(args("web", clients=2, seconds=1.0)) == 0
    (line,) = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    for key in FIGURES:
        assert isinstance(record[key], float) and record[key] > 0, key
    assert record["clients"] == 2 and record["seconds"] == 1.0
    assert record["errors"] == 0 and record["static_errors"] == 0  # every load answered 200
    assert record["static_file"] == "live.js" and record["static_bytes"] > 0
    assert record["commands_during"] > 0 and record["commands_without"] > 0
    assert set(record["goals"]) == set(GOALS) and all(isinstance(v, bool) for v in record["goals"].values())


@pytest.mark.parametrize(("name", "options", "says"), [
    ("store", {"clients": 5}, "only for 'bench web'"),
    ("store", {"seconds": 3.0}, "only for 'bench web' and 'bench live'"),
    ("web", {"clients": 0}, "must be above 0"),
    ("web", {"seconds": -1.0}, "must be above 0"),
])
def test_web_options_elsewhere_or_out_of_range_are_refused(name, options, says, capsys):
    assert bench_cli.run(args(name, **options)) == 2
    assert says in capsys.readouterr().err
