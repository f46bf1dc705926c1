"""The console's loop: each typed line is read, answered through the same services as on Discord
and printed, with the jobs that fell due run before and after it. `Console` wires the parts of
the package together (see `bot.console`), each given what it needs."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import suppress
from datetime import timedelta
from pathlib import Path
from typing import TextIO

from bot.console.autopilot import Autopilot
from bot.console.channels import PLACE, Channels
from bot.console.commands import Commands
from bot.console.jobs import Jobs
from bot.console.lines import LINE, Command, split_command, user_id
from bot.console.printer import Printer
from bot.console.sender import Sender
from bot.i18n import DEFAULT_LANG, languages, t
from bot.services import Actor, Place, RallyService, Reply
from bot.services.errors import error_reply
from bot.services.images import Renderer


class Console:
    """Runs console lines against a `RallyService` and prints the replies.

    `admins`: names of console users with Manage Server; `roles`: role ids per user name."""

    def __init__(self, service: RallyService, out: TextIO | None, images: Path | None = None,
                 renderer: Renderer | None = None, admins: Iterable[str] = (),
                 roles: Mapping[str, Iterable[int]] | None = None, lang: str = DEFAULT_LANG) -> None:
        self.lang = lang if lang in languages() else DEFAULT_LANG  # the server's language (`--lang`)
        self.place = Place(PLACE.guild_id, PLACE.channel_id, self.lang)
        self.service = service
        self.admins = {name.lower() for name in admins}
        self.roles = {name.lower(): tuple(ids) for name, ids in (roles or {}).items()}
        self.rooms = Channels(service, self.place)
        service.championships.tables.threads = self.rooms.table_thread  # a table game's round: a channel per table
        self.channels = self.rooms.labels  # channel id → its label ("" = main)
        self.printer = Printer(out, self.lang, self.channels)
        self.names = self.printer.names  # user id → console name
        self.readers = self.printer.readers  # console user → their own language (`alice@fr: …`)
        # Every part prints through `self._print`, so what the console prints has one door.
        self.sender = Sender(service, self._print, self.names, self.rooms, images, renderer)
        self.commands = Commands(service, self.place, self.rooms, self._print, self.sender.renderer)
        self.commands.readers = self.readers
        self.autopilot = Autopilot(service, self.rooms, self.names, self._print, self.sender.show, self.dispatch,
                                   self.actor, self.tick, self.lang)
        self.jobs = Jobs(service, self.printer, self._print, self.sender.deliver, self.autopilot.drive)
        service.work.ai_pause = timedelta(0)  # AI seats drive at once here (a few seconds on Discord)

    def actor(self, name: str) -> Actor:
        key = name.lower()
        return Actor(user_id(name), name, can_manage=key in self.admins, roles=self.roles.get(key, ()))

    async def run_line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        match = LINE.match(line)
        if not match:
            self._print(None, [t("console.format")], ephemeral=True)
            return
        name, reader_lang, text = match.group(1), match.group(2), match.group(3)
        if reader_lang is not None:
            if reader_lang not in languages():
                self._print(None, [t("console.unknown_language", code=reader_lang,
                                     languages=", ".join(languages()))], ephemeral=True)
                return
            self.readers[name.lower()] = reader_lang
        actor = self.actor(name)
        self.names[actor.user_id] = name
        await self.tick()  # what fell due meanwhile is posted before the command is answered
        try:
            command = split_command(text)
            if command.name == "autopilot":
                await self.autopilot.command(name, actor, command)
                await self.jobs.remember()
                return
            reply = await self.dispatch(actor, command)
        except Exception as exc:
            reply = error_reply(exc)
        await self.sender.show(name, reply)
        await self.tick()
        await self.jobs.remember()

    async def dispatch(self, actor: Actor, cmd: Command) -> Reply:
        """The reply to a command: `/clock` is the console's own, every other goes to its service."""
        if cmd.name == "clock":
            return await self.jobs.command(cmd)
        return await self.commands.dispatch(actor, cmd)

    async def tick(self) -> int:
        """Run what is due now and print it (see `Jobs.tick`)."""
        return await self.jobs.tick()

    def _print(self, name: str | None, lines: Iterable[str], ephemeral: bool, prefix: str | None = None,
               lang: str | None = None) -> None:
        """Print lines for their readers (see `Printer.print`)."""
        self.printer.print(name, lines, ephemeral, prefix, lang)


async def run_console(lines: Iterable[str] | None, service: RallyService, out: TextIO = sys.stdout,
                      images: Path | None = None, interactive: bool = False,
                      renderer: Renderer | None = None, admins: Iterable[str] = (),
                      roles: Mapping[str, Iterable[int]] | None = None, lang: str = DEFAULT_LANG) -> Console:
    console = Console(service, out, images, renderer, admins=admins, roles=roles, lang=lang)
    await console.jobs.restore()
    if interactive:
        print(t("console.welcome"), file=out)
        while True:
            try:  # read in a thread: the loop goes on meanwhile (jobs, the web page of `--web`)
                line = await asyncio.to_thread(input, "> ")
            except EOFError:
                break
            await console.run_line(line)
        return console
    async for line in _off_the_loop(lines or ()):
        await console.run_line(line)
    return console


async def _off_the_loop(lines: Iterable[str]) -> AsyncIterator[str]:
    """The lines of `lines`, each read when the previous one has run, in a thread of its own:
    reading a pipe (or any file) waits for its writer, and the loop must go on meanwhile (jobs,
    the web page of `--web`). A daemon thread, not the loop's executor: a reader still waiting on
    an open pipe never holds the process up at exit. One line at a time, never ahead: a session
    may choose its next line from what the last one printed. A list is read as it is."""
    if isinstance(lines, (list, tuple)):
        for line in lines:
            yield line
        return
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
    wanted = threading.Semaphore(0)  # released by the loop when it is ready for the next line

    def read() -> None:
        source = iter(lines)
        line: str | None = ""
        try:
            while line is not None:
                wanted.acquire()
                line = None  # what the loop is told if reading fails: the end
                line = next(source, None)
                if line is not None:
                    asyncio.run_coroutine_threadsafe(queue.put(line), loop).result()
        finally:  # the end (or a failure, which the thread then reports): the loop stops waiting
            with suppress(RuntimeError):  # the loop closed meanwhile: nobody is left to tell
                if not loop.is_closed():
                    asyncio.run_coroutine_threadsafe(queue.put(None), loop)

    threading.Thread(target=read, name="console-input", daemon=True).start()
    while True:
        wanted.release()
        if (line := await queue.get()) is None:
            return
        yield line
