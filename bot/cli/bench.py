"""`python -m bot bench NAME`: run `bench/NAME.py` and print its one JSON line.

The `bench` package sits at the top of the checkout, next to `bot/`; `python -m` puts the
current directory on sys.path, and the checkout root is added too so it works from anywhere.
`bench league` takes its sizes (`--runs`, `--results`, `--jobs`) for a smaller, quicker run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from bot.cli import Subparsers
from bot.paths import ROOT

NAMES = ("engine", "store", "render", "live", "league")
SIZES = ("runs", "results", "jobs")  # `bench league` sizes: --runs, --results, --jobs


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("bench", help="run a benchmark and print one JSON line",
                              description="Run bench/NAME.py (its run() function) and print its JSON figures.")
    p.add_argument("name", choices=NAMES, metavar="NAME", help=f"one of: {', '.join(NAMES)}")
    p.add_argument("--runs", type=int, help="league: finished runs in the round that closes (default 1000)")
    p.add_argument("--results", type=int, help="league: finished runs in the week's world ranking (default 100000)")
    p.add_argument("--jobs", type=int, help="league: pending jobs not yet due at the scheduler tick (default 100000)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sizes = {name: value for name in SIZES if (value := getattr(args, name, None)) is not None}
    if sizes and args.name != "league":
        print(f"--{' --'.join(sizes)}: only for 'bench league'", file=sys.stderr)
        return 2
    if any(value < 1 for value in sizes.values()):
        print("--runs, --results and --jobs must be at least 1", file=sys.stderr)
        return 2
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        module = importlib.import_module(f"bench.{args.name}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"bench.{args.name}", "bench"):
            print(f"no benchmark '{args.name}' yet: bench/{args.name}.py does not exist", file=sys.stderr)
            return 2
        raise
    print(json.dumps(module.run(**sizes)))
    return 0
