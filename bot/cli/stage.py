"""`python -m bot stage ACTION … [--game GAME]`: the stage tools of every game, one command.

Each game keeps its own stage tool in its own folder (`bot/engine/<game>/stages/tool.py`: classic's
and DIRT's), found by the registry as `bot.games.TOOLS["stage:GAME"]` (this module never imports
a game: tests/house/test_game_packages.py). This one only picks the tool and hands it the rest of
the command line, parsed by the tool's own parser:

- `--game GAME` (anywhere after `stage`) picks the game; without it, classic (`rallyman`);
- `validate PATH…` without `--game` tells the games apart by folder: a file or folder under a
  folder named after a game with a stage tool (its data folder, e.g. `data/dirt/stages/mill-ford.stage`)
  is that game's (the nearest such folder wins), anything else the default game's; each game's
  tool checks its own files and the exit code is the worst of them.

So `python -m bot stage list --game dirt`, `python -m bot stage generate --game dirt --seed 3
--tiles 14` and `python -m bot stage validate data/rallyman/stages/*.stage data/dirt/stages/*.stage` all work.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import Any

from bot.games import DEFAULT_GAME, TOOLS

PREFIX = "stage:"


def tool_games() -> tuple[str, ...]:
    """The games that have a stage tool, by id."""
    return tuple(key[len(PREFIX):] for key in TOOLS if key.startswith(PREFIX))


def register(subparsers: Any) -> None:
    """Add `stage` to the `python -m bot` parser: the game's tool parses what follows."""
    parser = subparsers.add_parser(
        "stage", add_help=False, help="stage tools: list, validate, show, generate (--game: " + ", ".join(tool_games())
        + f"; default {DEFAULT_GAME})")
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--game", default=None)
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rest = list(args.rest)
    game = args.game
    while "--game" in rest:  # `--game` after the action: the game's tools do not know it
        i = rest.index("--game")
        if i + 1 >= len(rest):
            print("stage: --game needs a game: " + ", ".join(tool_games()), file=sys.stderr)
            return 2
        game = rest[i + 1]
        del rest[i:i + 2]
    if game is not None and game not in tool_games():
        print(f"stage: no game {game!r} has stage tools; games: {', '.join(tool_games())}", file=sys.stderr)
        return 2
    if args.help:
        print(f"games (--game): {', '.join(tool_games())}; default {DEFAULT_GAME}")
        rest.append("--help")
    if game is None and rest[:1] == ["validate"] and len(rest) > 1:
        return validate_by_folder(rest[1:])
    return call(game or DEFAULT_GAME, rest)


def call(game: str, rest: list[str]) -> int:
    """Run the game's own `stage` tool on `rest` (its action and options)."""
    module = importlib.import_module(TOOLS[PREFIX + game])
    parser = argparse.ArgumentParser(prog="python -m bot")
    module.register(parser.add_subparsers(dest="command"))
    parsed = parser.parse_args(["stage", *rest])
    return int(parsed.func(parsed) or 0)


def game_of_path(path: str) -> str:
    """The game whose stage files `path` holds: the nearest folder of it (the path itself, when a
    folder) named after a game with a stage tool; else the default game."""
    folders = Path(path).parts if Path(path).is_dir() else Path(path).parts[:-1]
    return next((name for name in reversed(folders) if name in tool_games()), DEFAULT_GAME)


def validate_by_folder(paths: list[str]) -> int:
    """`validate` with files of several games: each game's tool checks its own; the worst exit."""
    options = [p for p in paths if p.startswith("-")]
    files = [p for p in paths if not p.startswith("-")]
    groups = {game: [p for p in files if game_of_path(p) == game] for game in tool_games()}
    codes = [call(game, ["validate", *options, *group]) for game, group in groups.items() if group]
    return max(codes, default=0)
