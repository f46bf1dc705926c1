"""`python -m bot simulate`: a whole rally driven by the AI, as one JSON object (for organisers).
The game's own `simulate` plays it and says what it prints (`--game`, default classic's).

    python -m bot simulate --stages pinewood-sprint,frozen-lakes,black-moor --drivers 4 --seed 7

Plays the course with AI drivers (RULES A2: specials in order; A3 start orders; A16 assistance
after each special unless `--assistance` says otherwise) and prints, per special, each driver's
time, second markers, damage, flats and outcome; the reclassification after each special; and
the rally classification (A17); and, under "ai", how often the AI drivers lost control (turns
begun, losses of control in total and by gear, and per 100 turns). The same arguments always
print the same rally. Stages are shipped names or generated ones (`gen-SEED` or `gen-SEED-LENGTH`).

A table game names its players and rules instead (`--players`, `--preset`; its course is the
preset's own unless `--stages` names one):

    python -m bot simulate --game roadrally --players 5 --preset rr-standard --seed 7
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.cli import Subparsers


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("simulate", help="play a whole rally with AI drivers and print it as JSON",
                              description="Play a whole game with AI drivers (a course of 1 to 4 specials, or a table "
                                          "game); one JSON object.")
    p.add_argument("--stages", default=None,
                   help="comma-separated stage names (1 to 4), e.g. a,b,c (a table game: its preset's course "
                        "if left out)")
    p.add_argument("--drivers", "--players", dest="drivers", type=int, default=4,
                   help="AI drivers or players (default 4; the game's seats: Rallyman 1 to 4, DIRT 1 to 6, "
                        "Road Rally USA 3 to 5)")
    p.add_argument("--ruleset", "--preset", dest="ruleset", default=None,
                   help="the ruleset or preset (default: the game's first, e.g. rr-standard)")
    p.add_argument("--seed", type=int, default=0, help="dice seed (the same seed gives the same rally)")
    p.add_argument("--assistance", default="all", help="all (default), none, or special numbers such as 1,2")
    p.add_argument("--modules", default="", help="rule modules, comma-separated (classic: sisu, shakedown, attack, "
                                                 "seconds, weather, splits)")
    p.add_argument("--game", default=None, help="the game (default: Rallyman)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from bot import games
    from bot.engine.core.errors import RallyError
    from bot.services.inputs import assistance, course, ruleset_name

    try:
        game = games.get(args.game)
        ruleset = ruleset_name(args.ruleset, game.id) if args.ruleset is not None else None
        named = args.stages if args.stages is not None else \
            game.library.default_stage(ruleset or game.library.rulesets()[0])
        if named is None:
            raise ValueError(f"--stages is required for {game.id}")
        stages = course(named, game.id)
        flags = assistance(args.assistance, len(stages))
        if not game.rules.seats.min <= args.drivers <= game.rules.seats.max:
            raise ValueError(f"--drivers is {game.rules.seats.min} to {game.rules.seats.max}, not {args.drivers}")
        if not 0 <= args.seed < 2**63:
            raise ValueError(f"--seed is a whole number from 0 to 2**63-1, not {args.seed}")
        report = game.coach.simulate(stages, args.drivers, args.seed, flags, args.modules, ruleset)
    except (RallyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, ensure_ascii=False))
    return 0


