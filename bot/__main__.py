"""`python -m bot`: the bot (with DISCORD_TOKEN) and its offline tools, as argparse subcommands.

Each subcommand lives in `bot/cli/<name>.py`, or, for a game's own tool, in the module the
registry names (`bot.games.TOOLS`: classic's board pictures; `stage` is `bot/cli/stage.py`, which
hands the command to a game's own stage tool by `--game`), and exposes
`register(subparsers)`, which adds its parser and sets `func(args) -> int`. Modules are imported
lazily so a tool never pays for the imports of another (the stage tools do not import discord.py).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from bot.games import TOOLS

SUBCOMMANDS = ("run", "console", "web", "stage", "render", "simulate", "bench", "db", "commands", "sync", "verify")



def build_parser() -> argparse.ArgumentParser:
    return _build()[0]


def _build() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser and its subcommand parsers by name (only the tools this install provides)."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="rallybot: play-by-post Rallyman rallies")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        path = TOOLS.get(name, f"bot.cli.{name}")
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name == path:
                continue
            raise
        module.register(subparsers)
    return parser, subparsers.choices


def main(argv: list[str] | None = None) -> int:
    parser, commands = _build()
    args = parser.parse_args(argv)
    if args.command is None:
        default = "run" if "run" in commands else None
        if default is None:
            parser.print_help()
            return 0
        args = parser.parse_args([default])
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
