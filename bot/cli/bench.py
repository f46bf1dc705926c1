"""`python -m bot bench NAME`: run `bench/NAME.py` and print its one JSON line.

The `bench` package sits at the top of the checkout, next to `bot/`; `python -m` puts the
current directory on sys.path, and the checkout root is added too so it works from anywhere.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from bot.cli import Subparsers
from bot.paths import ROOT

NAMES = ("engine", "store", "render", "live")


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("bench", help="run a benchmark and print one JSON line",
                              description="Run bench/NAME.py (its run() function) and print its JSON figures.")
    p.add_argument("name", choices=NAMES, metavar="NAME", help=f"one of: {', '.join(NAMES)}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        module = importlib.import_module(f"bench.{args.name}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"bench.{args.name}", "bench"):
            print(f"no benchmark '{args.name}' yet: bench/{args.name}.py does not exist", file=sys.stderr)
            return 2
        raise
    print(json.dumps(module.run()))
    return 0
