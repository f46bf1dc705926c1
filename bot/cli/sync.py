"""`python -m bot sync`: push the slash commands to Discord now (the bot syncs by itself only
when the command tree changed). Globally by default, or to one server with `--guild ID`."""

from __future__ import annotations

import asyncio
import sys

from bot.cli import Subparsers


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("sync", help="sync the slash commands to Discord now (needs DISCORD_TOKEN)")
    p.add_argument("--guild", type=int, help="sync to this server only (instant) instead of globally")
    p.set_defaults(func=main)


def main(args) -> int:
    from bot.cli.run import NO_TOKEN, load_settings
    from bot.i18n import t

    settings, problem = load_settings()
    if problem or not settings.token:
        print(problem or t("discord.no_token"), file=sys.stderr)
        return NO_TOKEN
    return asyncio.run(_sync(settings, args.guild))


async def _sync(settings, guild_id: int | None) -> int:
    import discord

    from bot.client import RallyBot
    from bot.i18n import t

    bot = RallyBot(settings, start_loops=False, sync=False)
    try:
        await bot.login(settings.token)  # HTTP only: runs setup_hook, no gateway connection
        await bot.sync_commands(force=True, guild_id=guild_id or 0)
        print(f"synced to {'server ' + str(guild_id) if guild_id else 'all servers (global)'}")
    except discord.LoginFailure as exc:
        print(t("discord.login_failed", reason=str(exc)), file=sys.stderr)
        return 1
    finally:
        await bot.close()
    return 0
