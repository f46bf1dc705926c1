"""`python -m bot commands`: the slash-command tree as JSON, without connecting to Discord.

Loads every extension on a bot that never logs in. `--markdown` prints the README's command
table instead; `--raw` the exact payload a sync would send.
"""

from __future__ import annotations

import asyncio
import json

from bot.cli import Subparsers


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("commands", help="print the slash commands as JSON (no Discord connection)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help="the command table of the README")
    form.add_argument("--raw", action="store_true", help="the exact payload `sync` sends to Discord")
    p.set_defaults(func=main)


async def build_tree() -> tuple[list[dict], dict[str, str]]:
    """The global sync payload and the extensions that failed to load."""
    from bot.client import RallyBot
    from bot.cogs.tree_info import tree_payload

    bot = RallyBot(start_loops=False, sync=False)
    await bot.load_extensions()
    return tree_payload(bot.tree), bot.extension_errors


def main(args) -> int:
    from bot.cogs.tree_info import markdown_table, summary

    payload, errors = asyncio.run(build_tree())
    if args.raw:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    elif args.markdown:
        print(markdown_table(summary(payload)))
    else:
        print(json.dumps(summary(payload), indent=2, ensure_ascii=False))
    return 1 if errors else 0
