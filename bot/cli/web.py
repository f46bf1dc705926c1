"""`python -m bot web`: the spectators' web page in a process of its own, read-only (see
bot/web/process.py). The bot starts it itself when `RALLYBOT_WEB_PORT` is set; alone, it serves
any rallybot database, e.g. a PostgreSQL one from another host."""

from __future__ import annotations

import argparse
import sys

from bot.cli import Subparsers, add_db_option


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("web", help="serve the spectators' web page (read-only, low priority)",
                              description="Serve the web page from the database, read-only, at a low CPU priority. "
                                          "Prints `web page: http://HOST:PORT/` once it listens; stops on SIGTERM "
                                          "or Ctrl-C.")
    add_db_option(p, "; the file must exist")
    p.add_argument("--port", type=int, default=8080, help="TCP port (0: any free one; default 8080)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0: every "
                                                       "interface)")
    p.add_argument("--proxy", action="store_true", help="behind a reverse proxy: count each reader's budget on "
                                                        "the address it adds to X-Forwarded-For")
    p.add_argument("--nice", type=int, default=None, help="lower the process's CPU priority by this much "
                                                          "(0-19, default 10)")
    p.add_argument("--rate", type=float, default=None, help="requests a second each reader may make (default 10)")
    p.add_argument("--burst", type=int, default=None, help="requests a reader may make at once (default 60)")
    p.add_argument("--until-stdin-closes", action="store_true", help=argparse.SUPPRESS)  # the bot's child
    p.add_argument("--draw-fd", type=int, default=None, help=argparse.SUPPRESS)  # the bot's drawing link
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from bot.config import ConfigError, apply_dotenv
    from bot.paths import default_db
    from bot.web.options import WebOptions
    from bot.web.process import NICE
    from bot.web.process import main as serve

    try:
        apply_dotenv()
        target = args.db or default_db()
    except (ConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    budget = None
    if args.rate is not None or args.burst is not None:
        default = WebOptions()
        budget = (default.rate if args.rate is None else args.rate, default.burst if args.burst is None else args.burst)
    return serve(target, args.port, args.host, forwarded=args.proxy, nice=NICE if args.nice is None else args.nice,
                 budget=budget, until_stdin_closes=args.until_stdin_closes, draw_fd=args.draw_fd)
