"""The web page's own process ("Fast"): `python -m bot web` serves the site from a
read-only store, at a low CPU priority, away from the bot's event loop and database thread.

    python -m bot web [--db TARGET] [--port 8080] [--host 127.0.0.1] [--proxy] [--nice 10]
                      [--rate 10 --burst 60]

The bot starts it as its child (bot/web/child.py, with `RALLYBOT_WEB_PORT`), and it is useful
alone too: a site on another host reading the bot's PostgreSQL database. What it does:

- lowers its own CPU priority first (`os.nice(NICE)`, 10 by default: a page view never outranks
  a driver's command on a shared CPU; the bot stays at 0), and its session's autogroup's when it
  leads its own session (`lower_priority`);
- opens the store read-only (`Store.open(target, read_only=True)`: SQLite through a
  `file:…?mode=ro` URI connection, PostgreSQL through a pool whose sessions are
  `default_transaction_read_only`; never migrating: a schema other than this code's is refused);
- has its pictures drawn by the bot's render workers when the bot lends them (`--draw-fd`: one
  end of a socket pair, bot/web/draw_link.py): it then never draws and never imports the drawing
  code (70 MB less); alone, it draws them in a thread of its own (`ThreadRenderer`),
  reading and filling the on-disk layer cache (`RALLYBOT_CACHE`), never a pool of render workers;
- keeps its caches of pages, pictures and replays within `CHILD_PAGES_MB`, `CHILD_IMAGES_MB` and
  `CHILD_REPLAYS_MB` (20 MB in all: `bot.sizing.WEB_MB` counts them full);
- reuses a page's data version for `CHILD_VERSION_TTL` seconds (bot/web/versions.py: the
  staleness bound), so a storm of readers costs a few queries a second, not one per request;
- prints `web page: http://HOST:PORT/` on stdout once it listens (the line the bot waits for;
  `READY`), then serves until SIGTERM or SIGINT (and, started by the bot, until its stdin closes:
  a bot killed outright takes its page with it). A failure to start (port taken, no database) is
  one line on stderr, `error: …`, and exit status 2; nothing is served.

Its clock is the real one (`WebOptions.clock` = UTC now): the bot's own clock is the real one
outside tests. The console's moving clock (`/clock +7d`) is why `console --web` keeps its site in
the console's process (bot/cli/console.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from dataclasses import replace
from typing import TextIO

from bot.store.connection import Target, redact

log = logging.getLogger(__name__)

READY = "web page:"  # the first word of the line that gives the address
NICE = 10  # the increment of the page's process priority (0 … 19; the bot stays at 0)
START_FAILED = 2

Budget = tuple[float, int]  # each reader's request budget: `WebOptions.rate` a second, `burst` at once


class WebStartError(RuntimeError):
    """The web page could not start; the text names the address or database and the reason."""


def check_port(port: int) -> int:
    """`port` when it is a TCP port (0: any free one), else a `WebStartError` saying so."""
    if not 0 <= port <= 65535:
        raise WebStartError(f"the web page needs a port number from 0 to 65535, not {port}")
    return port


def lower_priority(increment: int) -> int:
    """`os.nice(increment)` (0 … 19); returns the process's niceness after it.

    Linux with autogroups (`kernel.sched_autogroup_enabled`) shares the CPU between sessions
    first and applies a nice value only within its session: a process started in a session of
    its own (the bot starts its page so: `start_new_session`) also sets its session's autogroup
    to the same value, else it would weigh as much as the bot's whole session. A process in
    someone else's session (a shell's) leaves that session's priority alone."""
    if not 0 <= increment <= 19:
        raise WebStartError(f"--nice must be from 0 to 19, not {increment}")
    if not hasattr(os, "nice"):
        return 0
    niceness = os.nice(increment)
    if increment and os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError):  # no autogroups here (not Linux, or turned off)
            with open("/proc/self/autogroup", "w", encoding="ascii") as group:
                group.write(str(increment))
    return niceness


#: MB of picture caches in the web page's process when it draws its own pictures (alone: its
#: boards and previews are cached as bytes by the site, drawn from the shared on-disk layers)
PICTURE_CACHE_MB = 8


async def serve(target: Target, port: int, host: str, *, forwarded: bool = False, budget: Budget | None = None,
                until_stdin_closes: bool = False, draw_fd: int | None = None, out: TextIO = sys.stdout) -> int:
    """Serve the site on `host:port` from the database `target`, read-only, until told to stop;
    its pictures drawn by the bot through the socket `draw_fd` when given, else here.
    Returns the exit status (0, or `START_FAILED` with the reason on stderr)."""
    from bot.services.images import ThreadRenderer, apply_budget
    from bot.store import Store
    from bot.web.app import create_app
    from bot.web.draw_link import LinkedDrawer
    from bot.web.options import CHILD_VERSION_TTL, WebOptions, child_caches
    from bot.web.server import WebServer

    check_port(port)
    shown = redact(str(target))
    try:
        store = await Store.open(target, read_only=True)
    except Exception as exc:  # no such file, a server that refuses, another schema
        print(f"error: the web page cannot read the database {shown}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return START_FAILED
    server: WebServer | None = None
    drawer: LinkedDrawer | None = None
    try:
        if draw_fd is not None:
            try:
                drawer = await LinkedDrawer.connect(draw_fd)
            except OSError as exc:
                print(f"error: the web page cannot use the drawing link --draw-fd {draw_fd}: {exc}", file=sys.stderr)
                return START_FAILED
        else:
            apply_budget(PICTURE_CACHE_MB)  # its picture caches bounded like a worker's, smaller
        options = child_caches(WebOptions(forwarded=forwarded, version_ttl=CHILD_VERSION_TTL,
                                          public_url=public_address()))
        if budget is not None:
            options = replace(options, rate=budget[0], burst=budget[1])
        server = WebServer(create_app(store, options, renderer=ThreadRenderer(), drawer=drawer))
        try:
            address = await server.start(port, host)
        except OSError as exc:
            print(f"error: the web page cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
            return START_FAILED
        print(f"{READY} {address}", file=out, flush=True)
        await _until_stopped(until_stdin_closes)
        return 0
    finally:
        if server is not None:
            await server.stop()
        if drawer is not None:
            await drawer.close()
        await store.close()


def public_address() -> str | None:
    """The site's public address, `RALLYBOT_PUBLIC_URL` of the environment the bot hands its page's
    process (None when unset or not an http(s) address: previews then name the site's own paths)."""
    from bot.config import ConfigError, public_url_from

    try:
        return public_url_from(os.environ)
    except ConfigError:
        return None


async def _until_stopped(until_stdin_closes: bool) -> None:
    """Wait for SIGTERM or SIGINT (and, when asked, the end of stdin: the parent is gone)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM,) if until_stdin_closes else (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no signal handlers on this platform
            loop.add_signal_handler(sig, stop.set)
    if until_stdin_closes:
        def watch() -> None:  # the raw descriptor: a buffered reader's lock would hold up the exit
            with contextlib.suppress(OSError, ValueError):
                while os.read(sys.stdin.fileno(), 4096):
                    pass
            loop.call_soon_threadsafe(stop.set)

        threading.Thread(target=watch, name="web-parent-watch", daemon=True).start()
    await stop.wait()


def main(target: Target, port: int, host: str, *, forwarded: bool = False, nice: int = NICE,
         budget: Budget | None = None, until_stdin_closes: bool = False, draw_fd: int | None = None,
         log_level: str = "WARNING") -> int:
    """`python -m bot web`: lower the priority, then serve (see the module docstring)."""
    logging.basicConfig(level=log_level, stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    try:
        check_port(port)
        if budget is not None and not (budget[0] > 0 and budget[1] >= 1):
            raise WebStartError(f"--rate must be above 0 and --burst at least 1, not {budget[0]} and {budget[1]}")
        lower_priority(nice)
    except WebStartError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return START_FAILED
    if until_stdin_closes:  # the bot stops it (SIGTERM): a Ctrl-C in the bot's terminal is the bot's
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return asyncio.run(serve(target, port, host, forwarded=forwarded, budget=budget,
                             until_stdin_closes=until_stdin_closes, draw_fd=draw_fd))
