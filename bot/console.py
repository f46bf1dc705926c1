"""The offline console: play a rally in a terminal exactly as on Discord, through the same services.

Each input line is `name: /command options`, e.g. `alice: /rally create stage:pinewood-sprint`,
`bob: /rally join`, `alice: /roll 3 white`. Replies are printed with who sees them:
`[channel]` for everybody, `[only alice]` for a private (ephemeral) reply.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.engine.errors import RallyError
from bot.i18n import t
from bot.services import Actor, Place, RallyService, Reply
from bot.services.errors import error_reply
from bot.services.images import Renderer, default_renderer, draw_async, image_name

PLACE = Place(guild_id=1, channel_id=1)
_LINE = re.compile(r"^\s*([\w.-]+)\s*:\s*(/\S.*)$")


def user_id(name: str) -> int:
    """A stable id per console user name, so a database can be reopened and played on."""
    return int.from_bytes(hashlib.sha256(name.lower().encode()).digest()[:6], "big")


class ConsoleError(RallyError):
    """A console line that is not a command."""


@dataclass
class Command:
    name: str  # e.g. "rally create", "roll"
    words: list[str]  # free words after the command
    options: dict[str, str]  # key:value options


def split_command(text: str) -> Command:
    try:
        parts = shlex.split(text.lstrip("/"))
    except ValueError:
        raise ConsoleError(t("console.quotes")) from None
    if not parts:
        raise ConsoleError(t("console.empty"))
    head = parts[0].lower()
    rest = parts[1:]
    if head == "rally":
        if not rest:
            raise ConsoleError(t("console.rally_sub"))
        head, rest = f"rally {rest[0].lower()}", rest[1:]
    options = {}
    words = []
    for part in rest:
        key, sep, value = part.partition(":")
        if sep and key.isidentifier():
            options[key.lower()] = value
        else:
            words.append(part)
    return Command(head, words, options)


def _yes(value: str | None) -> bool:
    return (value or "").lower() in ("yes", "y", "true", "on", "1")


class Console:
    """Runs console lines against a `RallyService` and prints the replies."""

    def __init__(self, service: RallyService, out: TextIO, images: Path | None = None,
                 renderer: Renderer | None = None) -> None:
        self.service = service
        self.out = out
        self.images = images
        self.renderer = renderer if renderer is not None or images is None else default_renderer()
        self.names: dict[int, str] = {}
        self.count = 0

    async def run_line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        match = _LINE.match(line)
        if not match:
            self._print(None, [t("console.format")], ephemeral=True)
            return
        name, text = match.group(1), match.group(2)
        actor = Actor(user_id(name), name)
        self.names[actor.user_id] = name
        try:
            reply = await self.dispatch(actor, split_command(text))
        except Exception as exc:
            reply = error_reply(exc)
        await self._show(name, reply)

    async def dispatch(self, actor: Actor, cmd: Command) -> Reply:
        s, o = self.service, cmd.options
        if cmd.name == "rally create":
            stage = o.get("stage") or (cmd.words[0] if cmd.words else "")
            if not stage:
                raise ConsoleError(t("console.need_stage"))
            deadline = o.get("deadline", "24")
            # Numbers go to the service as typed: it parses them strictly (no inf, nan, 1e309, junk).
            return await s.create(PLACE, actor, stage, drivers=o.get("drivers", "4"),
                                  deadline_hours=deadline[:-1] if deadline.endswith("h") else deadline,
                                  ruleset=o.get("ruleset", "classic-en"),
                                  sisu=_yes(o.get("sisu")), shakedown=_yes(o.get("shakedown")),
                                  assistance=o.get("assistance", "all"), order=o.get("order", "joined"),
                                  modules=o.get("modules", ""))
        simple = {"rally join": s.join, "rally leave": s.leave, "rally start": s.start, "rally status": s.status,
                  "rally board": s.board, "rally abandon": s.abandon}
        if cmd.name in simple:
            return await simple[cmd.name](PLACE, actor)
        if cmd.name == "rally kick":
            target = o.get("driver") or (cmd.words[0] if cmd.words else "")
            if not target:
                raise ConsoleError(t("console.need_driver"))
            return await s.kick(PLACE, actor, user_id(target.lstrip("@")), target.lstrip("@"))
        if cmd.name == "roll":
            dice = o.get("dice") or " ".join(cmd.words)
            return await s.roll(PLACE, actor, dice, end=_yes(o.get("end")))
        if cmd.name == "stop":
            return await s.stop(PLACE, actor)
        if cmd.name == "line":
            return await s.line(PLACE, actor, o.get("line") or " ".join(cmd.words))
        if cmd.name in ("attack", "order", "place"):
            text = o.get("dice") or o.get("order") or o.get("die") or " ".join(cmd.words)
            call = {"attack": s.attack, "order": s.order, "place": s.place_die}[cmd.name]
            return await call(PLACE, actor, text)
        if cmd.name == "tires":
            return await s.tires(PLACE, actor, o.get("tires") or " ".join(cmd.words))
        if cmd.name == "spare":
            return await s.spare(PLACE, actor)
        if cmd.name == "odds":
            return await s.odds(PLACE, actor, o.get("dice") or " ".join(cmd.words))
        if cmd.name == "help":
            return Reply([t("console.help")], ephemeral=True)
        raise ConsoleError(t("console.unknown", command="/" + cmd.name))

    async def _show(self, name: str, reply: Reply) -> None:
        """A private reply is printed for its reader; public posts come out of the outbox."""
        if reply.ephemeral or not reply.outbox:
            self._print(name, reply.lines, ephemeral=True)
        await self.deliver()

    async def deliver(self) -> int:
        """The console is a sender too: print every owed post in order and mark it delivered
        (which starts a delivered turn's clock, exactly as on Discord). Returns how many."""
        delivery = self.service.delivery
        count = 0
        while batch := await delivery.claim():
            for out in batch:
                user = out.row.user_id
                reader = self.names.get(user, str(user)) if user is not None else None
                self._print(reader, out.lines, ephemeral=out.is_dm)
                if out.image is not None and self.images is not None and self.renderer is not None:
                    self.count += 1
                    path = self.images / f"{self.count:03d}-{image_name(out.image)}"
                    path.write_bytes(await draw_async(self.renderer, out.image))
                    self._print(reader, [t("console.image", path=str(path))], ephemeral=out.is_dm)
                await delivery.sent(out, None)
                count += 1
        return count

    def _print(self, name: str | None, lines: Iterable[str], ephemeral: bool) -> None:
        prefix = f"[only {name}]" if ephemeral and name else "[channel]" if not ephemeral else "[only you]"
        for line in lines:
            for part in line.split("\n"):
                print(f"{prefix} {part.replace('**', '')}", file=self.out)
        self.out.flush()


def load_dice_script(path: Path) -> dict:
    """`--dice FILE`: faces in order (`.` plain, `!` ⚠) and loss-of-control events by name."""
    faces: list[bool] = []
    events: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        for word in line.split("#", 1)[0].split():
            if word in (".", "!"):
                faces.append(word == "!")
            elif word in ("spin", "off_left", "off_right"):
                events.append(word)
            else:
                raise ConsoleError(t("console.dice_file", path=str(path), word=word))
    return {"faces": faces, "events": events}


async def run_console(lines: Iterable[str] | None, service: RallyService, out: TextIO = sys.stdout,
                      images: Path | None = None, interactive: bool = False,
                      renderer: Renderer | None = None) -> None:
    console = Console(service, out, images, renderer)
    if interactive:
        print(t("console.welcome"), file=out)
        while True:
            try:
                line = input("> ")
            except EOFError:
                break
            await console.run_line(line)
        return
    for line in lines or ():
        await console.run_line(line)
