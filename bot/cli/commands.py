"""`python -m bot commands`: the slash-command tree as JSON, without connecting to Discord.

Loads every extension on a bot that never logs in. `--markdown` prints the README's command
table instead; `--raw` the exact payload a sync would send (localisations included);
`--localized` the summary with each command's and option's French and German names,
descriptions and choice names (what a French or German Discord client shows).
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
    form.add_argument("--localized", action="store_true",
                      help="the JSON with the French and German names and descriptions")
    p.set_defaults(func=main)


async def build_tree(localized: bool = False) -> tuple[list[dict], dict[str, str]]:
    """The global sync payload (with `localized`, translated as the bot syncs it) and the
    extensions that failed to load."""
    from bot.client import RallyBot
    from bot.cogs.tree_info import sync_payload, tree_payload
    from bot.views.translator import CatalogueTranslator

    bot = RallyBot(start_loops=False, sync=False)
    await bot.load_extensions()
    if not localized:
        return tree_payload(bot.tree), bot.extension_errors
    await bot.tree.set_translator(CatalogueTranslator())
    return await sync_payload(bot.tree), bot.extension_errors


def main(args) -> int:
    from bot.cogs.tree_info import markdown_table, summary

    payload, errors = asyncio.run(build_tree(localized=args.raw or args.localized))
    if args.raw:
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    elif args.markdown:
        print(markdown_table(summary(payload)))
    else:
        print(json.dumps(summary(payload, localized=args.localized), indent=2, ensure_ascii=False))
    return 1 if errors else 0
