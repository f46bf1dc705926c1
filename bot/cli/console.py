"""`python -m bot console`: the offline console (see bot/console.py)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.cli import Subparsers
from bot.engine.errors import RallyError


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("console", help="play offline in the terminal, exactly as on Discord",
                              description="Type lines like `alice: /rally create stage:pinewood-sprint`, "
                                          "`bob: /rally join`, `alice: /roll 1`. Reads stdin when piped.")
    p.add_argument("--db", type=Path, help="SQLite file (default: RALLYBOT_DB or data/rallybot.sqlite3)")
    p.add_argument("--seed", type=int, help="dice seed for every new rally (reproducible sessions)")
    p.add_argument("--out", type=Path, help="folder where board images are written")
    p.add_argument("--dice", type=Path, help="script the dice: `.` plain face, `!` ⚠, spin/off_left/off_right")
    p.set_defaults(func=main)


def main(args) -> int:
    try:
        return asyncio.run(_main(args))
    except RallyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


async def _main(args) -> int:
    from bot.console import load_dice_script, run_console
    from bot.services import RallyService
    from bot.store import Store

    script = load_dice_script(args.dice) if args.dice else None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    store = await Store.open(args.db)
    try:
        seed = args.seed
        service = RallyService(store, seed_source=(lambda: seed) if seed is not None else None, dice_script=script)
        interactive = sys.stdin.isatty()
        await run_console(None if interactive else sys.stdin, service, images=args.out, interactive=interactive)
    finally:
        await store.close()
    return 0
