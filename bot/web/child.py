"""`WebChild`: the bot's web page as a child process (`python -m bot web`, bot/web/process.py),
started, watched and stopped by the bot, so that a storm of page views never delays a command.

    child = WebChild(settings.db, port, host, forwarded=settings.web_proxy)
    address = await child.start()   # WebStartError: the port is taken, the database unreadable …
    …
    await child.stop()              # SIGTERM, then SIGKILL after `stop_timeout` seconds

Why a fresh interpreter (`asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "web", …)`)
rather than `multiprocessing`: the child shares nothing with the bot (a fork would copy the bot's
threads, its database connection and its event loop; a spawned `multiprocessing` child would need
the same fresh start plus pickled arguments and a pipe protocol), the very same command serves a
site on its own (`python -m bot web`), and the parent only needs what any process gives: its
stdout line `web page: ADDRESS` (`process.READY`), its exit status, its stderr lines (relayed to
this log) and a pid to signal.

Its pictures: a bot that gives `draw` (its own `images.draw_async` with its renderer) lends the
child its render workers through a socket pair made at each start (bot/web/draw_link.py: the
child's end passed with `pass_fds`, `--draw-fd N`; this end served by a `DrawLender`), so the
child never draws (a drawing process costs about 70 MB). Without `draw` it draws itself.

What the child is given: the database in its environment (`RALLYBOT_DB`: a PostgreSQL URL's
password never shows in the process list), the bot's render cache folder (`RALLYBOT_CACHE`),
this checkout on `PYTHONPATH`, and a stdin pipe it watches (`--until-stdin-closes`): a bot killed
outright (SIGKILL) closes it, and the page stops too. It runs in a session of its own (a Ctrl-C
in the bot's terminal is the bot's to handle, and on Linux its own autogroup, whose priority it
lowers with its own: `process.lower_priority`, `process.NICE`).

Watching: when the child dies on its own it is started again after a backoff (`BACKOFF_FIRST`
seconds, doubled at each death in a row up to `BACKOFF_MAX`; a child that served `STABLE_S`
seconds resets it), each death and restart logged. A child asked for port 0 is restarted on the
port it got, so the address stays. The first start's failure is the caller's to log (`start`
raises); the bot then goes on without the page.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path

from bot.store.connection import Target, is_postgres_url
from bot.web.draw_link import Draw, DrawLender
from bot.web.process import NICE, READY, Budget, WebStartError, check_port

log = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0  # the child imports the bot and opens the store before it answers
STOP_TIMEOUT_S = 5.0  # after SIGTERM, then SIGKILL
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 60.0
STABLE_S = 60.0  # a child that served this long before dying restarts after BACKOFF_FIRST again
STDERR_KEPT = 20  # the child's last stderr lines, for the reason of a failed start


class WebChild:
    """One web page process at a time, on `host:port`, reading the database `target`."""

    def __init__(self, target: Target, port: int, host: str = "127.0.0.1", *, forwarded: bool = False,
                 nice: int = NICE, budget: Budget | None = None, start_timeout: float = START_TIMEOUT_S,
                 stop_timeout: float = STOP_TIMEOUT_S, backoff_first: float = BACKOFF_FIRST,
                 backoff_max: float = BACKOFF_MAX, draw: Draw | None = None) -> None:
        if str(target) in ("", ":memory:"):
            raise WebStartError("the web page cannot read an in-memory database (only its own process sees it): "
                                "give the bot a database file or a PostgreSQL database")
        self.target = target if is_postgres_url(target) else Path(target).resolve()
        self.port = check_port(port)
        self.host = host
        self.forwarded = forwarded
        self.nice = nice
        self.budget = budget  # each reader's (rate, burst); None: the site's defaults
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.backoff_first = backoff_first
        self.backoff_max = backoff_max
        self.draw = draw  # the bot's drawing, lent to the child (bot/web/draw_link.py); None: it draws itself
        self.lender: DrawLender | None = None
        self._draw_fd: int | None = None  # the child's end of the drawing link, while it starts
        self._lending: asyncio.Task[None] | None = None
        self.address = ""
        self.restarts = 0  # times the child was started again after dying
        self.exit_status: int | None = None  # of the last child stopped (0: it stopped cleanly on SIGTERM)
        self.process: asyncio.subprocess.Process | None = None
        self._stopping = False
        self._watcher: asyncio.Task[None] | None = None
        self._relays: set[asyncio.Task[None]] = set()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None and self.process.returncode is None else None

    async def start(self) -> str:
        """Start the child and wait until it listens; its address. `WebStartError` (naming the
        port and the child's reason) when it exits or stays silent instead; nothing is left running."""
        self._stopping = False
        await self._spawn()
        self._watcher = asyncio.create_task(self._watch(), name="web-child-watch")
        return self.address

    def _command(self) -> list[str]:
        command = [sys.executable, "-m", "bot", "web", "--port", str(self.port), "--host", self.host,
                   "--nice", str(self.nice), "--until-stdin-closes"]
        if self._draw_fd is not None:
            command += ["--draw-fd", str(self._draw_fd)]
        if self.budget is not None:
            command += ["--rate", repr(float(self.budget[0])), "--burst", str(int(self.budget[1]))]
        return command + (["--proxy"] if self.forwarded else [])

    def _environment(self) -> dict[str, str]:
        from bot.render.disk_cache import OFF, cache_dir

        env = dict(os.environ)
        env["RALLYBOT_DB"] = str(self.target)
        env.setdefault("MALLOC_ARENA_MAX", "2")  # glibc: a few threads, not an arena of freed memory each
        cache = cache_dir()
        env["RALLYBOT_CACHE"] = str(cache) if cache is not None else OFF
        checkout = str(Path(__file__).resolve().parents[2])  # the folder holding the `bot` package
        env["PYTHONPATH"] = os.pathsep.join(p for p in (checkout, env.get("PYTHONPATH", "")) if p)
        return env

    async def _spawn(self) -> None:
        ours, theirs = socket.socketpair() if self.draw is not None else (None, None)
        self._draw_fd = theirs.fileno() if theirs is not None else None
        try:
            process = await asyncio.create_subprocess_exec(
                *self._command(), env=self._environment(),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                start_new_session=True, pass_fds=(theirs.fileno(),) if theirs is not None else ())
        except OSError as exc:  # no interpreter, no process left to start
            if ours is not None:
                ours.close()
            raise WebStartError(f"the web page could not start on port {self.port}: {exc}") from exc
        finally:
            if theirs is not None:
                theirs.close()  # the child holds its own copy
        try:
            await self._await_ready(process)
        except BaseException:
            if ours is not None:
                ours.close()
            raise
        if ours is not None and self.draw is not None:
            self._stop_lending()
            self.lender = DrawLender(self.draw)
            self._lending = asyncio.create_task(self.lender.serve(ours), name="web-child-draw")

    def _stop_lending(self) -> None:
        if self._lending is not None:
            self._lending.cancel()
            self._lending = None

    async def _await_ready(self, process: asyncio.subprocess.Process) -> None:
        """Wait for the child's address line; the child becomes `self.process`."""
        assert process.stdout is not None and process.stderr is not None
        said: collections.deque[str] = collections.deque(maxlen=STDERR_KEPT)
        errors = self._relay(process.stderr, said, logging.WARNING)
        try:
            line = await asyncio.wait_for(self._ready_line(process.stdout), self.start_timeout)
        except TimeoutError:
            await self._end(process)
            raise WebStartError(f"the web page could not start on port {self.port}: it did not say its address "
                                f"within {self.start_timeout:.3g} s") from None
        except asyncio.CancelledError:
            await self._end(process)
            raise
        if line is None:
            await self._end(process)
            await asyncio.wait({errors}, timeout=2.0)  # the child's last words: its reason
            reason = next((text for text in reversed(said) if text.strip()), f"exit status {process.returncode}")
            raise WebStartError(f"the web page could not start on port {self.port}: {reason.removeprefix('error: ')}")
        self._relay(process.stdout, None, logging.INFO)
        self.address = line.removeprefix(READY).strip()
        if self.port == 0:  # restarts keep the address the first start got
            self.port = int(self.address.rstrip("/").rsplit(":", 1)[1])
        self.process = process

    @staticmethod
    async def _ready_line(stdout: asyncio.StreamReader) -> str | None:
        """The child's `web page: ADDRESS` line, or None when its stdout ends first."""
        while raw := await stdout.readline():
            text = raw.decode(errors="replace").strip()
            if text.startswith(READY):
                return text
        return None

    def _relay(self, stream: asyncio.StreamReader, kept: collections.deque[str] | None,
               level: int) -> asyncio.Task[None]:
        """The child's lines in this process's log (and the last ones in `kept`), until it closes them."""
        async def relay() -> None:
            while raw := await stream.readline():
                text = raw.decode(errors="replace").rstrip()
                if kept is not None:
                    kept.append(text)
                if text:
                    log.log(level, "web page process: %s", text)

        task = asyncio.create_task(relay(), name="web-child-relay")
        self._relays.add(task)
        task.add_done_callback(self._relays.discard)
        return task

    async def _watch(self) -> None:
        """Start the child again whenever it dies (not when it is stopped), with a backoff."""
        delay = self.backoff_first
        while not self._stopping:
            process = self.process
            if process is None:
                return
            began = time.monotonic()
            code = await process.wait()
            if self._stopping:
                return
            if time.monotonic() - began >= STABLE_S:
                delay = self.backoff_first
            log.warning("the web page's process %s ended (exit status %s): starting it again in %.3g s",
                        process.pid, code, delay)
            while not self._stopping:
                await asyncio.sleep(delay)
                delay = min(self.backoff_max, delay * 2)
                try:
                    await self._spawn()
                except WebStartError as exc:
                    log.error("%s; trying again in %.3g s", exc, delay)
                    continue
                except Exception:  # a bug of ours: logged with its trace, and the page is tried again
                    log.exception("the web page could not be started again; trying again in %.3g s", delay)
                    continue
                self.restarts += 1
                log.info("the web page is back at %s (process %s)", self.address, self.pid)
                break

    async def _end(self, process: asyncio.subprocess.Process) -> None:
        """SIGTERM, then SIGKILL after `stop_timeout` seconds; waits for the exit."""
        if process.stdin is not None:
            process.stdin.close()
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), self.stop_timeout)
            except TimeoutError:
                log.warning("the web page's process %s did not stop in %.0f s: killing it", process.pid,
                            self.stop_timeout)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        self.exit_status = process.returncode

    async def stop(self) -> None:
        """Stop watching and stop the child (safe to call twice)."""
        self._stopping = True
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
        process, self.process = self.process, None
        if process is not None:
            await self._end(process)
        self._stop_lending()
        if self._relays:
            await asyncio.wait(set(self._relays), timeout=1.0)
