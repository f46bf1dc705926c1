"""`python -m bot render`: draw a stage preview, or the board after K AI turns, to a PNG file.

    python -m bot render --stage pinewood-sprint --out preview.png
    python -m bot render --stage pinewood-sprint --seed 7 --turns 12 --out board.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

NO_ENGINE = "--turns needs the rules engine (bot.engine.rallyman.simulate), not available yet"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("render", help="draw a stage preview or a board after K AI turns to a PNG",
                              description="Draw the preview of a stage, or (with --turns) the board after K "
                                          "turns played by the AI, and write it as PNG.")
    p.add_argument("--stage", required=True, help="stage name (file stem in data/rallyman/stages/)")
    p.add_argument("--seed", type=int, default=1, help="dice seed for --turns (default 1)")
    p.add_argument("--turns", type=int, default=None, help="play this many AI turns and draw the board")
    p.add_argument("--width", type=int, default=1080, help="image width in pixels (default 1080)")
    p.add_argument("--out", required=True, type=Path, help="PNG file to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.engine.core.errors import StageError
    from bot.engine.rallyman.stages.catalogue import load_stage
    from bot.render import RenderOptions
    from bot.render.painter import png
    from bot.render.rallyman.painter import PAINTER

    try:
        stage = load_stage(args.stage)
    except StageError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        options = RenderOptions(width=args.width)
    except ValueError as exc:
        print(f"--width: {exc}", file=sys.stderr)
        return 2
    if args.turns is None:
        data = png(PAINTER.preview(stage, options), options)
        what = "preview"
    else:
        if args.turns < 0:
            print("--turns must be 0 or more", file=sys.stderr)
            return 2
        try:
            from bot.engine.rallyman.simulate import board_after_turns
        except ImportError:
            print(NO_ENGINE, file=sys.stderr)
            return 2
        view = board_after_turns(stage, seed=args.seed, turns=args.turns)
        data = png(PAINTER.board((stage, view), options), options)
        what = f"board after {args.turns} turns (seed {args.seed})"
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(data)
    except OSError as exc:
        print(f"cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"{stage.title}: {what} → {args.out} ({len(data) // 1024} KiB)")
    return 0
