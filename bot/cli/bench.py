"""`python -m bot bench NAME`: run `bench/NAME.py` and print its one JSON line.

The `bench` package sits at the top of the checkout, next to `bot/`; `python -m` puts the
current directory on sys.path, and the checkout root is added too so it works from anywhere.
`bench league` takes its sizes (`--runs`, `--results`, `--jobs`) for a smaller, quicker run.
`bench store` and `bench live` take `--backend postgresql`: the same figures on a
PostgreSQL database, `--url` (an existing empty one) or else a fresh one on a throwaway server
started from the checkout's `tests/pg_server.py` and stopped at the end; DATABASE_URL and
RALLYBOT_DB are never used, since a bench writes its own rallies. `bench live --processes N` runs
N bot processes on that database at once (PostgreSQL only: SQLite serves one process), each serving
its own shard; `--rallies N` (default 10,000) sizes it and `--seconds` shortens the load (default 30).
`bench engine --game dirt` and `bench render --game dirt` measure DIRT's engine and board instead of
classic's (`bench/engine_dirt.py`, `bench/render_dirt.py`); `bench render --game roadrally` Road Rally
USA's board and results card (`bench/render_roadrally.py`): a game's bench is found by its file's
name, `bench/<engine|render>_<game>.py`.
`bench web` storms the spectators' site with `--clients` readers (default 200) for
`--seconds` per storm (default 20) beside the bot's command path (`bench/web.py`).
`bench replay` draws the animated replay of a 3-special rally of 4 AI cars in one
render worker (`bench/replay.py`).
`bench gateway` feeds the real bot what Discord sends it for a shard (READY, and with no intent
nothing but a busy minute of interactions: `bench/gateway.py`); `--servers N` (default 2,500)
sizes the shard. `bench memory --servers N` holds N servers in the bot as well (default 0).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from typing import Any

from bot.cli import Subparsers
from bot.paths import ROOT
from bot.store.connection import POSTGRESQL, SQLITE, is_postgres_url

NAMES = ("engine", "store", "render", "live", "league", "check", "memory", "web", "replay", "gateway")
SERVER_NAMES = ("gateway", "memory")  # the benches that take --servers
SIZES = ("runs", "results", "jobs")  # `bench league` sizes: --runs, --results, --jobs
BACKEND_NAMES = ("store", "live")  # the benches that run on either backend
GAME_KINDS = ("engine", "render")  # the benches a game may have of its own


def _game_benches() -> dict[tuple[str, str], str]:
    """(kind, game) → the bench module of that game, found by its name: `bench/<kind>_<game>.py`
    (`engine_dirt`), so a game's bench needs no line here; classic's are `bench/<kind>.py`."""
    return {(kind, path.stem.removeprefix(f"{kind}_")): path.stem
            for kind in GAME_KINDS for path in sorted((ROOT / "bench").glob(f"{kind}_*.py"))}


#: `bench engine|render --game NAME`: the module measuring that game (classic's are bench/NAME.py)
GAME_BENCHES = _game_benches()
GAMES = ("rallyman", *dict.fromkeys(game for _, game in GAME_BENCHES))  # --game's choices


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("bench", help="run a benchmark and print one JSON line",
                              description="Run bench/NAME.py (its run() function) and print its JSON figures.")
    p.add_argument("name", choices=NAMES, metavar="NAME", help=f"one of: {', '.join(NAMES)}")
    p.add_argument("--runs", type=int, help="league: finished runs in the round that closes (default 1000)")
    p.add_argument("--results", type=int, help="league: finished runs in the week's world ranking (default 100000)")
    p.add_argument("--jobs", type=int, help="league: pending jobs not yet due at the scheduler tick (default 100000)")
    p.add_argument("--backend", choices=(SQLITE, POSTGRESQL),
                   help="store, live: the database the figures are measured on (default sqlite)")
    p.add_argument("--processes", type=int,
                   help="live: bot processes sharing the rallies (default 1; more only with --backend postgresql)")
    p.add_argument("--url", help="postgresql: an existing empty database to use (postgresql://…); without it a "
                                 "throwaway server is started from tests/pg_server.py and stopped at the end")
    p.add_argument("--game", choices=GAMES,
                   help="engine, render: the game measured (default rallyman)")
    p.add_argument("--clients", type=int, help="web: concurrent readers of the pages (default 200)")
    p.add_argument("--seconds", type=float,
                   help="web, live: seconds of each storm and of the command load (default 20; live 30)")
    p.add_argument("--rallies", type=int, help="live: running rallies in the database (default 10000)")
    p.add_argument("--servers", type=int,
                   help="gateway: servers of the shard (default 2500); memory: servers in the bot's cache (default 0)")
    p.set_defaults(func=run)


def _options(args: argparse.Namespace) -> dict[str, Any] | str:
    """The keyword arguments of the bench's `run()`, or why the command line is refused."""
    sizes = {name: value for name in SIZES if (value := getattr(args, name, None)) is not None}
    if sizes and args.name != "league":
        return f"--{' --'.join(sizes)}: only for 'bench league'"
    if any(value < 1 for value in sizes.values()):
        return "--runs, --results and --jobs must be at least 1"
    backend = getattr(args, "backend", None)
    processes, url = getattr(args, "processes", None), getattr(args, "url", None)
    if backend is not None and args.name not in BACKEND_NAMES:
        return "--backend: only for 'bench store' and 'bench live'"
    if processes is not None and args.name != "live":
        return "--processes: only for 'bench live'"
    if getattr(args, "game", None) is not None and args.name not in GAME_KINDS:
        return "--game: only for 'bench engine' and 'bench render'"
    game = getattr(args, "game", None)
    if game not in (None, "rallyman") and (args.name, game) not in GAME_BENCHES:
        return f"bench {args.name} --game {game}: no such benchmark yet"
    if url is not None and backend != POSTGRESQL:
        return "--url: only with --backend postgresql"
    if url is not None and not is_postgres_url(url):
        return "--url must be a postgresql:// URL"
    if processes is not None and processes < 1:
        return "--processes must be at least 1"
    if processes not in (None, 1) and backend != POSTGRESQL:
        return (f"--processes {processes}: SQLite serves one process (one bot process per database file); "
                "several processes share a database with --backend postgresql")
    servers = getattr(args, "servers", None)
    if servers is not None:
        if args.name not in SERVER_NAMES:
            return "--servers: only for 'bench gateway' and 'bench memory'"
        if servers < 0 or (servers == 0 and args.name == "gateway"):
            return "--servers must be at least 1 for 'bench gateway', 0 or more for 'bench memory'"
        return {"servers": servers}
    seconds, rallies = getattr(args, "seconds", None), getattr(args, "rallies", None)
    if rallies is not None and args.name != "live":
        return "--rallies: only for 'bench live'"
    if rallies is not None and rallies < 1:
        return "--rallies must be at least 1"
    web = {name: value for name in ("clients", "seconds") if (value := getattr(args, name, None)) is not None}
    if "clients" in web and args.name != "web":
        return "--clients: only for 'bench web'"
    if "seconds" in web and args.name not in ("web", "live"):
        return "--seconds: only for 'bench web' and 'bench live'"
    if any(value <= 0 for value in web.values()):
        return "--clients and --seconds must be above 0"
    if web and args.name == "web":
        return web
    if args.name not in BACKEND_NAMES:
        return sizes
    options: dict[str, Any] = {"backend": backend or SQLITE, "url": url}
    if args.name == "live":
        options["processes"] = processes or 1
        options.update({k: v for k, v in (("rallies", rallies), ("seconds", seconds)) if v is not None})
    return options


def run(args: argparse.Namespace) -> int:
    options = _options(args)
    if isinstance(options, str):
        print(options, file=sys.stderr)
        return 2
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    name = GAME_BENCHES.get((args.name, getattr(args, "game", None) or "rallyman"), args.name)
    try:
        module = importlib.import_module(f"bench.{name}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"bench.{name}", "bench"):
            print(f"no benchmark '{name}' yet: bench/{name}.py does not exist", file=sys.stderr)
            return 2
        raise
    refusal = getattr(module, "BenchError", None)  # bench store and live: cannot run as asked
    try:
        record = module.run(**options)
    except Exception as exc:
        if refusal is None or not isinstance(exc, refusal):
            raise
        print(f"bench {args.name}: {exc}", file=sys.stderr)  # no server to run on, a database in use
        return 2
    print(json.dumps(record))
    return 0
