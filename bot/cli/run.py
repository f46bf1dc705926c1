"""`python -m bot run` (also plain `python -m bot`): run the Discord bot.

Without DISCORD_TOKEN it explains how to get one and how to try the offline console, and exits
with code 2 (no traceback). The token never reaches the log or the terminal (bot/cli/logs.py):
a login failure's reason and a failure that stops the bot are said with it hidden (code 1).
Shards that clash with a live process's on the same database (bot/store/shards.py) stop the
start with the other process named (code 2), before any post or job is claimed.
SIGTERM and SIGINT (Ctrl-C, a host stopping the dyno) close the bot cleanly: scheduler stopped,
gateway closed, database checkpointed and closed.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from bot.cli import Subparsers

NO_TOKEN = 2
CLOSE_TIMEOUT_S = 10


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN; the default command)",
                              description="Run the bot. Settings from the environment or a .env file: "
                                          "DISCORD_TOKEN, RALLYBOT_DB, DEV_GUILD_ID, LOG_LEVEL.")
    p.set_defaults(func=main)


def load_settings():
    """Settings from .env + environment, or (None, message) when they are unusable."""
    from bot.config import ConfigError, Settings, apply_dotenv
    from bot.i18n import t

    try:
        apply_dotenv()
        return Settings.from_env(), None
    except ConfigError as exc:
        return None, t("discord.config_error", reason=str(exc))


def main(args) -> int:
    from bot.i18n import t

    settings, problem = load_settings()
    if problem:
        print(problem, file=sys.stderr)
        return NO_TOKEN
    if not settings.token:
        print(t("discord.no_token"), file=sys.stderr)
        return NO_TOKEN
    from bot.cli.logs import configure

    configure(settings.log_level, settings.token)
    from bot.store.shards import ShardConflict

    try:
        return asyncio.run(serve(settings))
    except ShardConflict as exc:  # another process serves these shards: said plainly, exit 2
        print(t("discord.config_error", reason=str(exc)), file=sys.stderr)
        return NO_TOKEN
    except Exception:  # logged through the redacting handler, not printed by Python with the token
        logging.getLogger("bot.cli.run").exception("the bot stopped")
        return 1


async def serve(settings) -> int:
    import discord

    from bot.client import RallyBot
    from bot.i18n import t

    bot = RallyBot(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(settings.token))
    waiter = asyncio.create_task(stop.wait())
    try:
        await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
        await bot.close()
        if not runner.done():  # start() returns once the bot is closed; never wait forever
            try:
                await asyncio.wait_for(runner, CLOSE_TIMEOUT_S)
            except (TimeoutError, asyncio.CancelledError):
                pass
    if not runner.cancelled() and isinstance(runner.exception(), discord.LoginFailure):
        from bot.cli.logs import hide

        print(t("discord.login_failed", reason=hide(str(runner.exception()), [settings.token])), file=sys.stderr)
        return 1
    failure = None if runner.cancelled() else runner.exception()
    if failure is not None:
        raise failure
    return 0
