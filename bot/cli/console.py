"""`python -m bot console`: the offline console (see bot/console/)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from bot.cli import Subparsers, add_db_option
from bot.engine.core.errors import RallyError


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("console", help="play offline in the terminal, exactly as on Discord",
                              description="Type lines like `alice: /rally create stage:pinewood-sprint`, "
                                          "`bob: /rally join`, `alice: /roll 1`, `mod: /league create name:Cup`, "
                                          "`mod: /clock +7d`. Reads stdin when piped.")
    add_db_option(p)
    p.add_argument("--seed", type=int, help="dice seed for every new rally, and the secrets of new league rounds "
                                            "(reproducible sessions)")
    p.add_argument("--out", type=Path, help="folder where board images and result cards are written")
    p.add_argument("--dice", type=Path, help="script the dice: `.` plain face, `!` ⚠, spin/off_left/off_right")
    p.add_argument("--now", help="start the console's clock at this time, e.g. 2026-11-23T08:00Z (default: now); "
                                 "`/clock +3d` moves it")
    p.add_argument("--admins", default="", help="console users with Manage Server, e.g. `mod,alice` "
                                                 "(they may create leagues); everybody else is a plain member")
    p.add_argument("--roles", default="", help="role ids of console users, e.g. `bob:77,carol:77` "
                                                "(for `/league organisers role:77`)")
    p.add_argument("--lang", default="en", choices=("en", "fr", "de"),
                   help="the server's language: rallies and leagues created here write in it, and it is every "
                        "reader's language unless a line says otherwise (`alice@de: /odds 3`)")
    p.add_argument("--web", type=int, metavar="PORT",
                   help="also serve the spectators' web page on http://127.0.0.1:PORT/ (after piped lines, it "
                        "keeps serving until Ctrl-C)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:  # Ctrl-C ends a session (and its web page)
        return 0
    except RallyError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _roles(text: str) -> dict[str, list[int]]:
    from bot.console.errors import ConsoleError
    from bot.i18n import t

    roles: dict[str, list[int]] = {}
    for item in _names(text):
        name, _, role = item.partition(":")
        if not name.strip() or not role.strip().isdigit():
            raise ConsoleError(t("console.number", option="--roles", value=item[:40]))
        roles.setdefault(name.strip().lower(), []).append(int(role))
    return roles


async def _main(args: argparse.Namespace) -> int:
    from bot.config import ConfigError, render_from
    from bot.console import load_dice_script, run_console
    from bot.console.clock import console_service, parse_now
    from bot.services.images import configure
    from bot.sizing import host_plan
    from bot.store import Store
    from bot.store.leagues import round_count_tx

    try:  # the render plan (bot/sizing.py): RALLYBOT_RENDER_WORKERS, RALLYBOT_MEMORY_MB
        found = render_from(os.environ)
        plan = host_plan(found["render_workers"], found["memory_mb"])  # its web page, if any, is in its process
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    configure(plan)
    if args.out:  # it draws pictures: said once, as the bot's start-up log says it
        print(plan.line(), file=sys.stderr)
    script = load_dice_script(args.dice) if args.dice else None
    now = parse_now(args.now) if args.now else None
    roles = _roles(args.roles)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    if args.web is not None and not 0 <= args.web <= 65535:
        print(f"error: --web needs a port number from 0 to 65535, not {args.web}", file=sys.stderr)
        return 2
    store = await Store.open(args.db or None)
    web = None
    try:
        rounds_before = await store.db.read(round_count_tx)
        service = console_service(store, seed=args.seed, dice_script=script, now=now, rounds_before=rounds_before)
        if args.web is not None:
            web = await _start_web(store, service.work.clock, args.web)
        interactive = sys.stdin.isatty()
        await run_console(None if interactive else sys.stdin, service, images=args.out, interactive=interactive,
                          admins=_names(args.admins), roles=roles, lang=args.lang)
        if web is not None and not interactive:  # a piped session: its pages stay up until Ctrl-C
            await asyncio.Event().wait()
    finally:
        if web is not None:
            await web.stop()
        await store.close()
    return 0


async def _start_web(store: Any, clock: Any, port: int) -> Any:
    """The web page on the console's store and clock, on 127.0.0.1:PORT; prints its address.

    In the console's own process, unlike the bot's page (a child process, bot/web/child.py): the
    console's clock moves (`/clock +7d`) and the site must read that very clock (the home page's
    week, a league's local time), which a callable shares simply and exactly only in-process; and
    the console is a tool for trying the bot with one reader, not a bot whose commands a storm of
    readers could slow. Its database may also be one only this process sees (`:memory:`)."""
    from bot.web import WebOptions, WebServer, create_app

    web = WebServer(create_app(store, WebOptions(clock=clock)))
    print(f"web page: {await web.start(port)}", flush=True)
    return web
