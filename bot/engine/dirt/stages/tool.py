"""`python -m bot stage … --game dirt`: DIRT's stage tools for organisers (dispatched by
`bot/cli/stage.py`, which picks a game's tool by `--game` through `bot.games.TOOLS`).

- `list` prints a header line, then one line per shipped DIRT stage (data/dirt/stages/): name,
  title, tiles, length class, corners, slides, shortcuts, jumps and the 1–5 difficulty of
  `bot.engine.core.difficulty` (the same formula as classic's);
- `validate PATH...` checks DIRT stage files (a folder: its `.stage` files) and prints
  `ok NAME (N tiles)` or `file:line: reason — hint` for each; exit 1 if any is invalid;
- `generate --seed N [--tiles T]` prints a generated stage's text (save it as a .stage file).

No Discord, no database: these run anywhere the repository is checked out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.engine.core.stage_text import read_stage_file
from bot.engine.core.stage_tool import expand, load_each, print_generated, print_table
from bot.engine.dirt.library import DIRT_STAGES, jumps, shortcuts, slides
from bot.engine.dirt.stages import catalogue
from bot.engine.dirt.stages.generator import LENGTHS, generate
from bot.engine.dirt.stages.loader import parse_stage


def register(subparsers: Any) -> None:
    """Add `stage` and its actions (DIRT's) to a `python -m bot` parser."""
    parser = subparsers.add_parser("stage", help="DIRT stage tools: list, validate, generate")
    actions = parser.add_subparsers(dest="stage_action", metavar="ACTION")
    actions.add_parser("list", help="table of the shipped DIRT stages").set_defaults(func=cmd_list)
    validate = actions.add_parser("validate", help="check DIRT stage files; exit 1 if any is invalid")
    validate.add_argument("paths", nargs="+", type=Path, metavar="PATH", help=".stage file, or a folder of them")
    validate.set_defaults(func=cmd_validate)
    gen = actions.add_parser("generate", help="print a new DIRT stage made from a seed")
    gen.add_argument("--seed", type=int, required=True, help="same seed, same stage")
    gen.add_argument("--tiles", type=int, default=10,
                     help=f"tiles, grid and run-off included ({LENGTHS.start}–{LENGTHS.stop - 1}, default 10)")
    gen.set_defaults(func=cmd_generate)

    def usage(_: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    parser.set_defaults(func=usage)


HEADER = ("name", "title", "tiles", "length", "corners", "slides", "shortcuts", "jumps", "difficulty")
NUMERIC = {2, 4, 5, 6, 7, 8}


def cmd_list(_: argparse.Namespace) -> int:
    """One row per shipped stage; a stage that does not load is reported and makes the exit 1."""
    loaded, failed = load_each(DIRT_STAGES.names(), lambda name: (catalogue.load_stage(name), DIRT_STAGES.facts(name)),
                               "error: {}")
    rows = [HEADER] + [(name, stage.title, str(facts.length), facts.length_class, str(facts.corners),
                        str(slides(stage)), str(shortcuts(stage)), str(jumps(stage)), str(facts.difficulty))
                       for name, (stage, facts) in loaded]
    print_table(rows, NUMERIC)
    return 1 if failed else 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Check every file given (folders: their .stage files); report each one."""
    loaded, failed = load_each(expand(args.paths),
                               lambda path: parse_stage(read_stage_file(path), str(path), path.stem))
    for _, stage in loaded:
        print(f"ok {stage.name} ({len(stage.tiles)} tiles)")
    return 1 if failed else 0


def cmd_generate(args: argparse.Namespace) -> int:
    """Print the text of the DIRT stage generated from `--seed` and `--tiles` (same seed, same text)."""
    return print_generated(lambda: generate(args.seed, args.tiles), "stage generate")
