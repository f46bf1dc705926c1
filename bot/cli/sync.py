"""`python -m bot sync`: push the slash commands to Discord now (the bot syncs by itself only
when the command tree changed). Globally by default, or to one server with `--guild ID`.

When Discord refuses them, it prints what the bot logs at start-up (a line per refused field:
the command, its option and the field, with Discord's message; bot/views/discord_errors.py) and
exits with code 1."""

from __future__ import annotations

import asyncio
import logging
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
    from bot.cli.logs import configure

    configure(settings.log_level, settings.token)
    try:
        return asyncio.run(_sync(settings, args.guild))
    except Exception:  # logged through the redacting handler, not printed by Python with the token
        logging.getLogger("bot.cli.sync").exception("the sync stopped")
        return 1


async def _sync(settings, guild_id: int | None) -> int:
    import discord

    from bot.client import RallyBot
    from bot.i18n import t
    from bot.views.discord_errors import SyncFailed

    bot = RallyBot(settings, start_loops=False, sync=False)
    try:
        await bot.login(settings.token)  # HTTP only: runs setup_hook, no gateway connection
        await bot.sync_commands(force=True, guild_id=guild_id or 0)
        print(f"synced to {'server ' + str(guild_id) if guild_id else 'all servers (global)'}")
    except discord.LoginFailure as exc:
        from bot.cli.logs import hide

        print(t("discord.login_failed", reason=hide(str(exc), [settings.token])), file=sys.stderr)
        return 1
    except SyncFailed as failed:
        for line in failed.lines:
            print(f"Discord refused the slash commands ({failed.scope}): {line}", file=sys.stderr)
        return 1
    finally:
        await bot.close()
    return 0
