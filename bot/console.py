"""The offline console: play a rally or a whole championship in a terminal exactly as on Discord,
through the same services, with a clock you can move.

Each input line is `name: /command options`, e.g. `alice: /rally create stage:pinewood-sprint`,
`bob: /rally join`, `alice: /roll 3 white`. Replies are printed with who sees them:
`[channel]` for everybody in the main channel, `[only alice]` for a private (ephemeral) reply or a
DM, `[#run-alice-r1]` for a post in a driver's run (on Discord: the private thread the bot makes).

Championships (issue 11): `/league …`, `/run …`, `/scratch …`, `/verify` call the league services.
The console owns the clock (`ConsoleClock`, bot/console_clock.py): `/clock +3d` moves it forward and runs every job that
falls due on the way at its own time (round opens, reminders, closes, turn deadlines), so a season
can be tried offline in minutes; `/clock +30h offline` jumps as if the bot had been down, so each
overdue job runs once, late, with its note. Due jobs also run before and after every command.

Console users are plain members; the names given with `--admins` have Manage Server (they may
create leagues), and `--roles bob:987654321987654321` gives a member a role (a league's organisers' role).
"""

from __future__ import annotations

import hashlib
import heapq
import re
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from bot.console_clock import ConsoleClock, parse_step
from bot.console_errors import ConsoleError
from bot.console_tables import table_lines
from bot.engine.ai import choose_action
from bot.i18n import DEFAULT_LANG, languages, render, t
from bot.services import Actor, Place, RallyService, Reply
from bot.services.deadlines import DeadlineService, plain_time
from bot.services.delivery import Outgoing
from bot.services.errors import error_reply
from bot.services.help_text import help_lines
from bot.services.images import Renderer, default_renderer, draw_async, image_name
from bot.store.clock import from_text, to_text
from bot.store.leagues import cards_tx, run_of_thread_tx, running_run_thread_tx

PLACE = Place(guild_id=1, channel_id=1)
GUILD_NAME = "console"
FIRST_RUN_CHANNEL = 1000  # a run's channel (a private thread on Discord): 1000, 1001, …
MAX_JOB_STEPS = 10_000  # moments the clock stops at in one `/clock` (jobs falling due on the way)
CLOCK_SETTING = "console_clock"  # the console's server settings keep its time (`restore_clock`)
AUTOPILOT_STEPS = 400  # actions of one `/autopilot` at most
_LINE = re.compile(r"^\s*([\w.-]+)(?:@([a-z]{2}))?\s*:\s*(/\S.*)$")
_CARDS_NAME = re.compile(r"[a-z0-9-]{1,60}\.json")
_USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
_CHANNEL_MENTION = re.compile(r"<#(\d{1,20})>")
_ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")

#: commands that need a subcommand, and the message naming them
_SUBCOMMANDS = {"rally": "console.rally_sub", "league": "console.league_sub", "run": "console.run_sub",
                "notify": "console.notify_sub"}
_SCRATCH = ("ranking", "run", "me")
#: turn commands: typed by a driver with a run in progress, they go to that run's channel
TURN_COMMANDS = frozenset({"roll", "stop", "line", "spare", "odds", "tires", "attack", "order", "place",
                           "rally status", "rally board", "rally abandon", "autopilot"})


def user_id(name: str) -> int:
    """A stable id per console user name, so a database can be reopened and played on."""
    return int.from_bytes(hashlib.sha256(name.lower().encode()).digest()[:6], "big")


@dataclass
class Command:
    name: str  # e.g. "rally create", "roll", "league round add"
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
    if head in _SUBCOMMANDS:
        if not rest or ":" in rest[0]:
            raise ConsoleError(t(_SUBCOMMANDS[head]))
        head, rest = f"{head} {rest[0].lower()}", rest[1:]
        if head == "league round":
            if not rest or ":" in rest[0]:
                raise ConsoleError(t("console.round_sub"))
            head, rest = f"league round {rest[0].lower()}", rest[1:]
    elif head == "scratch":  # `/scratch` and `/scratch week:…` are the ranking
        if rest and rest[0].lower() in _SCRATCH:
            head, rest = f"scratch {rest[0].lower()}", rest[1:]
        else:
            head = "scratch ranking"
    options: dict[str, str] = {}
    words = []
    last = None  # the option a following plain word may still belong to
    for part in rest:
        key, sep, value = part.partition(":")
        if sep and key.isidentifier():
            last = key.lower()
            options[last] = value
        elif last is not None and (options[last] == "" or options[last].endswith(",")):
            # `stage:a, b` and `stage: a` as Discord reads them: the value goes on after the comma
            options[last] = f"{options[last]} {part}" if options[last] else part
        else:
            last = None
            words.append(part)
    return Command(head, words, options)


def written_count(folder: Path | None) -> int:
    """The highest number of the images and cards files (`NNN-…`) already in `folder`."""
    if folder is None or not folder.is_dir():
        return 0
    numbers = [int(m.group(1)) for p in folder.iterdir() if (m := re.match(r"(\d{3,})-", p.name))]
    return max(numbers, default=0)


def _yes(value: str | None) -> bool:
    return (value or "").lower() in ("yes", "y", "true", "on", "1")


def _role(value: str | None) -> int | None:
    """`role:987654321987654321` (a role id), or `role:none` to go back to Manage Server only."""
    text = (value or "").strip()
    if text.lower() in ("none", "off", ""):
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        raise ConsoleError(t("console.number", option="role", value=text[:40]))
    return int(text)


class Console:
    """Runs console lines against a `RallyService` and prints the replies.

    `admins`: names of console users with Manage Server; `roles`: role ids per user name."""

    def __init__(self, service: RallyService, out: TextIO | None, images: Path | None = None,
                 renderer: Renderer | None = None, admins: Iterable[str] = (),
                 roles: Mapping[str, Iterable[int]] | None = None, lang: str = DEFAULT_LANG) -> None:
        self.lang = lang if lang in languages() else DEFAULT_LANG  # the server's language (`--lang`)
        self.place = Place(PLACE.guild_id, PLACE.channel_id, self.lang)
        self.readers: dict[str, str] = {}  # console user → their own language (`alice@fr: …`)
        self.service = service
        self.out = out
        self.images = images
        self.renderer = renderer if renderer is not None or images is None else default_renderer()
        self.names: dict[int, str] = {}
        self.count = written_count(images)  # `--out` numbering goes on from what is there: nothing overwritten
        self.admins = {name.lower() for name in admins}
        self.roles = {name.lower(): tuple(ids) for name, ids in (roles or {}).items()}
        self.clock: Callable[[], datetime] = service.work.clock
        self.deadlines = DeadlineService(service.work, clock=self.clock, when=plain_time)
        service.work.ai_pause = timedelta(0)  # AI seats drive at once here (a few seconds on Discord)
        self.autopiloted: dict[str, int | None] = {}  # console user → turns left (None: until `/autopilot off`)
        self.channels: dict[int, str] = {PLACE.channel_id: ""}  # channel id → its label ("" = main)
        self._header: str | None = None  # printed before the next line (the time jobs ran at)

    # -- lines ---------------------------------------------------------------------------------------

    def actor(self, name: str) -> Actor:
        key = name.lower()
        return Actor(user_id(name), name, can_manage=key in self.admins, roles=self.roles.get(key, ()))

    async def run_line(self, line: str) -> None:
        line = line.strip()
        if not line or line.startswith("#"):
            return
        match = _LINE.match(line)
        if not match:
            self._print(None, [t("console.format")], ephemeral=True)
            return
        name, reader_lang, text = match.group(1), match.group(2), match.group(3)
        if reader_lang is not None:
            if reader_lang not in languages():
                self._print(None, [t("console.unknown_language", lang=reader_lang,
                                     languages=", ".join(languages()))], ephemeral=True)
                return
            self.readers[name.lower()] = reader_lang
        actor = self.actor(name)
        self.names[actor.user_id] = name
        await self.tick()  # what fell due meanwhile is posted before the command is answered
        try:
            command = split_command(text)
            if command.name == "autopilot":
                await self.autopilot(name, actor, command)
                await self.remember_clock()
                return
            reply = await self.dispatch(actor, command)
        except Exception as exc:
            reply = error_reply(exc)
        await self._show(name, reply)
        await self.tick()
        await self.remember_clock()

    async def dispatch(self, actor: Actor, cmd: Command) -> Reply:
        if cmd.name.startswith(("league", "run ", "scratch")) or cmd.name in ("verify", "clock"):
            return await self._championship(actor, cmd)
        s, o = self.service, cmd.options
        here = await self.turn_place(actor) if cmd.name in TURN_COMMANDS else self.place
        if cmd.name == "rally create":
            stage = o.get("stage") or (cmd.words[0] if cmd.words else "")
            if not stage:
                raise ConsoleError(t("console.need_stage"))
            deadline = o.get("deadline", "24")
            # Numbers go to the service as typed: it parses them strictly (no inf, nan, 1e309, junk).
            return await s.create(self.place, actor, stage, drivers=o.get("drivers", "4"),
                                  deadline_hours=deadline[:-1] if deadline.endswith("h") else deadline,
                                  ruleset=o.get("ruleset", "classic"),
                                  sisu=_yes(o.get("sisu")), shakedown=_yes(o.get("shakedown")),
                                  assistance=o.get("assistance", "all"), order=o.get("order", "joined"),
                                  modules=o.get("modules", ""), language=o.get("language"))
        simple = {"rally join": s.join, "rally leave": s.leave, "rally start": s.start, "rally status": s.status,
                  "rally board": s.board, "rally abandon": s.abandon}
        if cmd.name in simple:
            return await simple[cmd.name](here, actor)
        if cmd.name == "rally results":
            return await s.results(self.place, actor, o.get("rally") or (cmd.words[0] if cmd.words else None))
        if cmd.name == "rally history":
            return await s.history(self.place, actor)
        if cmd.name == "rally add-ai":
            return await s.add_ai(self.place, actor, o.get("count") or (cmd.words[0] if cmd.words else None),
                                  o.get("style") or (cmd.words[1] if len(cmd.words) > 1 else None))
        if cmd.name == "rally remove-ai":
            return await s.remove_ai(self.place, actor, o.get("name") or " ".join(cmd.words))
        if cmd.name == "rally kick":
            target = o.get("driver") or (cmd.words[0] if cmd.words else "")
            if not target:
                raise ConsoleError(t("console.need_driver"))
            return await s.kick(self.place, actor, user_id(target.lstrip("@")), target.lstrip("@"))
        if cmd.name == "roll":
            dice = o.get("dice") or " ".join(cmd.words)
            return await s.roll(here, actor, dice, end=_yes(o.get("end")))
        if cmd.name == "stop":
            return await s.stop(here, actor)
        if cmd.name == "line":
            return await s.line(here, actor, o.get("line") or " ".join(cmd.words))
        if cmd.name in ("attack", "order", "place"):
            text = o.get("dice") or o.get("order") or o.get("die") or " ".join(cmd.words)
            call = {"attack": s.attack, "order": s.order, "place": s.place_die}[cmd.name]
            return await call(here, actor, text)
        if cmd.name == "tires":
            return await s.tires(here, actor, o.get("tires") or " ".join(cmd.words))
        if cmd.name == "spare":
            return await s.spare(here, actor)
        if cmd.name == "odds":
            return await s.odds(here, actor, o.get("dice") or " ".join(cmd.words))
        if cmd.name.startswith("notify"):
            return await s.notify.set(self.place, actor, cmd.name.split()[1],
                                      o.get("value") or (cmd.words[0] if cmd.words else ""))
        if cmd.name == "help":
            return Reply([*help_lines(), t("console.help_console")], ephemeral=True)
        raise ConsoleError(t("console.unknown", command="/" + cmd.name))

    # -- championships -------------------------------------------------------------------------------

    async def _championship(self, actor: Actor, cmd: Command) -> Reply:
        champs, o = self.service.championships, cmd.options
        leagues = champs.leagues
        league = o.get("league")
        if cmd.name == "clock":
            return await self.clock_command(cmd)
        if cmd.name == "league create":
            name = o.get("name") or " ".join(cmd.words)
            return await leagues.create(self.place, actor, name, o.get("timezone", "UTC"), points=o.get("points"),
                                        drop=o.get("drop"), ruleset=o.get("ruleset", "classic"),
                                        modules=o.get("modules", ""), dice=o.get("dice", "personal"),
                                        language=o.get("language"))
        if cmd.name == "league join":
            return await leagues.join(self.place, actor, league)
        if cmd.name == "league organisers":
            return await leagues.organisers(self.place, actor, _role(o.get("role")), league)
        if cmd.name == "league settings":
            if "world_name" not in o:
                raise ConsoleError(t("console.need_option", command="/league settings", option="world_name:on|off"))
            return await leagues.world_name(self.place, actor, o.get("world_name"))
        if cmd.name == "league round add":
            stage = o.get("stage") or o.get("course") or (cmd.words[0] if cmd.words else "")
            return await champs.rounds.round_add(self.place, actor, stage, opens=o.get("opens"), closes=o.get("closes"),
                                                 day=o.get("day"), hour=o.get("hour"), rounds=o.get("rounds", "1"),
                                                 power_stage=_yes(o.get("power_stage")),
                                                 assistance=o.get("assistance", "all"), league=league)
        if cmd.name == "league round list":
            return await champs.rounds.round_list(self.place, actor, league)
        if cmd.name == "league round cancel":
            return await champs.rounds.round_cancel(self.place, actor, o.get("round"), o.get("reason"), league)
        if cmd.name in ("league penalty", "league disqualify"):
            driver = (o.get("driver") or "").lstrip("@")
            if not driver:
                raise ConsoleError(t("console.need_option", command=f"/{cmd.name}", option="driver:NAME"))
            if cmd.name == "league penalty":
                return await champs.stewarding.penalty(self.place, actor, user_id(driver), driver, o.get("seconds"),
                                                       o.get("reason"), o.get("round"), league)
            return await champs.stewarding.disqualify(self.place, actor, user_id(driver), driver, o.get("round"),
                                                      o.get("reason"), league)
        if cmd.name == "league standings":
            return await champs.standings(self.place, actor, league)
        if cmd.name == "league results":
            return await champs.results(self.place, actor, o.get("round") or (cmd.words[0] if cmd.words else ""),
                                        league)
        if cmd.name == "league export":
            return await champs.exports.export(self.place, actor, league)
        if cmd.name == "league calendar":
            return await champs.exports.calendar(self.place, actor, league)
        if cmd.name == "run start":
            rnd, found = await champs.check_run(self.place, actor, league, o.get("round"))
            channel = await self._new_channel(f"run-{actor.name}-r{rnd.number}")
            reply = await champs.start_run(self.place, actor, rnd, found, channel, GUILD_NAME)
            return self._run_started(actor, channel, reply)
        if cmd.name == "run replay":
            driver = (o.get("driver") or "").lstrip("@")
            return await champs.replay(self.place, actor, user_id(driver) if driver else actor.user_id, league,
                                       o.get("round"), o.get("turn"))
        if cmd.name == "scratch run":
            week = await champs.scratch.check_run(self.place, actor)
            channel = await self._new_channel(f"scratch-{actor.name}-{week.week}")
            started = await champs.scratch.start_run(self.place, actor, channel, GUILD_NAME)
            return self._run_started(actor, channel, started)
        if cmd.name == "scratch ranking":
            return await champs.scratch.ranking(self.place, actor, o.get("week") or " ".join(cmd.words) or None)
        if cmd.name == "scratch me":
            return await champs.scratch.me(self.place, actor)
        if cmd.name == "verify":
            return self.verify(o.get("file") or " ".join(cmd.words), o.get("seed_sha256"))
        raise ConsoleError(t("console.unknown", command="/" + cmd.name))

    def _run_started(self, actor: Actor, channel: int, reply: Reply) -> Reply:
        """The run's posts go to its own channel; its driver is told where it is."""
        self._print(actor.name, [t("run.thread_ready", thread="#" + self.channels[channel])], ephemeral=True)
        return Reply(reply.lines[1:], ping=reply.ping, turn=reply.turn, outbox=reply.outbox)

    async def _new_channel(self, label: str) -> int:
        """A new channel for a run (a private thread on Discord): after every channel used so far."""
        used = [FIRST_RUN_CHANNEL - 1, *self.channels, await self.service.store.rallies.last_channel(PLACE.guild_id)]
        channel = max(used) + 1
        self.channels[channel] = re.sub(r"[^\w-]+", "-", label.lower())
        return channel

    async def turn_place(self, actor: Actor) -> Place:
        """Where the actor's turn commands go: their run in progress (its channel), else the main channel."""
        thread = await self.service.store.db.read(lambda tx: running_run_thread_tx(tx, actor.user_id, PLACE.guild_id))
        return self.place if thread is None else Place(PLACE.guild_id, thread, self.lang)

    async def _label(self, channel_id: int) -> str:
        """How a channel is named in the transcript: "" (main), `run-alice-r1`, `scratch-bob-2026-w48`."""
        if channel_id in self.channels:
            return self.channels[channel_id]
        row = await self.service.store.db.read(lambda tx: run_of_thread_tx(tx, channel_id))
        if row is None:
            label = f"channel-{channel_id}"
        elif row[3] is None:
            label = f"scratch-{row[0]}-{row[2]}"
        else:
            label = f"run-{row[0]}-r{row[1]}"
        self.channels[channel_id] = re.sub(r"[^\w-]+", "-", label.lower())
        return self.channels[channel_id]

    def verify(self, path: str, published: str | None = None) -> Reply:
        """`/verify file:PATH [seed_sha256:HASH]`: replay a result card, or a round's cards file,
        with the engine alone (what `/verify` does with an attachment on Discord)."""
        if not path:
            raise ConsoleError(t("console.need_option", command="/verify", option="file:PATH"))
        try:
            from bot.services.card_check import MAX_BYTES, verify_bytes
        except ImportError:
            raise ConsoleError(t("console.verify_missing")) from None
        try:
            with Path(path).expanduser().open("rb") as file:
                data = file.read(MAX_BYTES + 1)  # a larger file is refused by its size, never read whole
        except OSError as exc:
            raise ConsoleError(t("console.no_file", path=path[:200], why=type(exc).__name__)) from None
        return Reply(list(verify_bytes(data, published).lines), ephemeral=True)

    # -- the clock and the jobs ----------------------------------------------------------------------

    async def clock_command(self, cmd: Command) -> Reply:
        """`/clock` (the time), `/clock +3d` (jobs run at their own times on the way),
        `/clock +30h offline` (the bot was down: each overdue job runs once, late)."""
        if not cmd.words and not cmd.options:
            return self._time_now()
        if not isinstance(self.clock, ConsoleClock):
            raise ConsoleError(t("console.clock_fixed"))
        words = [w.lower() for w in cmd.words]
        offline = "offline" in words or _yes(cmd.options.get("offline"))
        steps = [w for w in words if w != "offline"] + [f"{k}:{v}" for k, v in cmd.options.items() if k != "offline"]
        if len(steps) != 1:
            raise ConsoleError(t("console.clock_bad", value=" ".join(cmd.words)[:40]))
        target = self.clock() + parse_step(steps[0])
        if offline:
            self.clock.move_to(target)
        else:
            await self._run_until(target)
            self.clock.move_to(target)
        self._header = f"{t('console.prefix_clock', self.lang)} {plain_time(self.clock())}"
        await self.tick()
        self._header = None
        return self._time_now()

    def _time_now(self) -> Reply:
        """The console's time, printed for everybody (it is everybody's time)."""
        self._print(None, [t("console.clock_now", time=plain_time(self.clock()))], ephemeral=False,
                    prefix=t("console.prefix_clock", self.lang))
        return Reply([])

    async def _run_until(self, target: datetime) -> None:
        """Stop the clock at each moment a job falls due before `target` and run what is due then,
        as the running bot would have (posts delivered at that moment start the clocks they start)."""
        assert isinstance(self.clock, ConsoleClock)
        last, repeats = None, 0
        for _ in range(MAX_JOB_STEPS):
            due = await self.service.store.jobs.next_due(target)
            if due is None:
                return
            moment = max(due, self.clock())
            repeats = repeats + 1 if moment == last else 0
            if repeats > 5:  # a job that cannot run now (held by a lease): leave it for later
                return
            last = moment
            self.clock.move_to(moment)
            self._header = f"{t('console.prefix_clock', self.lang)} {plain_time(self.clock())}"
            await self.tick()

    async def restore_clock(self) -> None:
        """The clock goes on from the time this database last saw in the console (kept with the
        console's server settings): a later session never takes it back, even with an earlier `--now`."""
        stored = (await self.service.store.guilds.get(PLACE.guild_id)).get(CLOCK_SETTING)
        if not isinstance(self.clock, ConsoleClock) or not isinstance(stored, str):
            return
        try:
            seen = from_text(stored)
        except ValueError:
            return
        if seen > self.clock():
            self.clock.move_to(seen)
            self._print(None, [t("console.clock_resumed", time=plain_time(seen))], ephemeral=False,
                        prefix=t("console.prefix_clock", self.lang))

    async def remember_clock(self) -> None:
        """Keep the console's time with the database (after every line)."""
        if isinstance(self.clock, ConsoleClock):
            await self.service.store.guilds.update(PLACE.guild_id, **{CLOCK_SETTING: to_text(self.clock())})

    async def tick(self) -> int:
        """Run the jobs due now (league, world and turn jobs, AI seats' turns) and print what they
        posted, then let the autopilot drive; again, until nothing more happens at this moment."""
        done = 0
        for _ in range(AUTOPILOT_STEPS):
            ran = await self.deadlines.run_due(self.clock())
            delivered = await self.deliver()
            driven = await self._drive_autopilots()
            done += ran
            if not (ran or delivered or driven):
                break
        return done

    # -- autopilot -----------------------------------------------------------------------------------

    async def autopilot(self, name: str, actor: Actor, cmd: Command) -> None:
        """Console only: the AI (`bot.engine.ai.choose_action`) plays the caller's turns where their
        turn commands go (their run in progress, else the main channel's rally), each action printed
        and played as if typed. `/autopilot` stays on for that driver, turn after turn, until
        `/autopilot off`; `/autopilot turns:N` drives their next N turns, then goes off."""
        text = (cmd.options.get("turns") or (cmd.words[0] if cmd.words else "")).strip()
        if text.lower() == "off":
            self.autopiloted.pop(name.lower(), None)
            self._print(name, [t("console.autopilot_off")], ephemeral=True)
            return
        limit = None
        if text:
            if not text.isdigit() or not 1 <= int(text) <= 1000:
                raise ConsoleError(t("console.number", option="turns", value=text[:40]))
            limit = int(text)
        self.autopiloted[name.lower()] = limit
        self.names.setdefault(actor.user_id, name)
        if not await self._autopilot_turns(name, actor):
            place = await self.turn_place(actor)
            rally = await self.service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            waiting = rally is not None and rally.status == "running" and limit is None
            if not waiting:  # nothing of theirs runs: nothing to stay on for
                self.autopiloted.pop(name.lower(), None)
            await self._show(name, Reply([t("console.autopilot_on" if waiting else "console.autopilot_idle")],
                                         ephemeral=True))
        await self.tick()

    async def _drive_autopilots(self) -> int:
        """Every driver on autopilot whose turn it is now plays it; how many actions were played."""
        played = 0
        for key in list(self.autopiloted):
            name = next((n for n in self.names.values() if n.lower() == key), key)
            played += await self._autopilot_turns(name, self.actor(name))
        return played

    async def _autopilot_turns(self, name: str, actor: Actor) -> int:
        """Play `name`'s turns while it is their turn (and their autopilot is on); the actions played."""
        place = await self.turn_place(actor)
        played = 0
        for _ in range(AUTOPILOT_STEPS):
            key = name.lower()
            if key not in self.autopiloted:
                break
            rally = await self.service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            if rally is None or rally.status != "running":
                break
            state = self.service.work.state_of(rally)
            if state.active is None or state.active.id != str(actor.user_id) or state.turn is None:
                break
            round_before = (state.round, state.turn.car)
            typed = "/" + str(choose_action(state))
            self._print(None, [f"{name}: {typed}"], ephemeral=False, prefix=t("console.prefix_autopilot", self.lang))
            try:
                reply = await self.dispatch(actor, split_command(typed))
            except Exception as exc:
                self.autopiloted.pop(key, None)
                await self._show(name, error_reply(exc))
                break
            await self._show(name, reply)
            played += 1
            after = await self.service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            now = self.service.work.state_of(after) if after is not None and after.status == "running" else None
            if now is None or now.turn is None or (now.round, now.turn.car) != round_before:
                left = self.autopiloted.get(key)
                if left is not None:  # `turns:N`: one turn fewer to drive
                    if left <= 1:
                        self.autopiloted.pop(key, None)
                    else:
                        self.autopiloted[key] = left - 1
            if now is None:
                break
        return played

    # -- printing ------------------------------------------------------------------------------------

    async def _show(self, name: str, reply: Reply) -> None:
        """A private reply is printed for its reader; public posts come out of the outbox."""
        if reply.ephemeral or not reply.outbox:
            self._print(name, reply.lines, ephemeral=True)
            for file_name, data in reply.files:
                self._file(name, file_name, data)
        await self.deliver()

    def _file(self, reader: str, name: str, data: bytes) -> None:
        """A file of a private reply (a league's export, its calendar): written next to the images
        (`--out`), else named."""
        if self.images is None:
            self._print(reader, [t("console.cards_attached", name=name)], ephemeral=True)
            return
        self.count += 1
        path = self.images / f"{self.count:03d}-{name}"
        path.write_bytes(data)
        self._print(reader, [t("console.file", path=str(path))], ephemeral=True)

    async def deliver(self) -> int:
        """The console is a sender too: print every owed post, oldest first across channels, and
        mark it delivered (which starts a delivered turn's clock, exactly as on Discord)."""
        delivery = self.service.delivery
        count = 0
        waiting: list[tuple[int, int, Outgoing]] = []  # claimed heads of the lanes, by row id
        while True:
            for out in await delivery.claim():
                heapq.heappush(waiting, (out.row.id, count + len(waiting), out))
            if not waiting:
                return count
            _, _, out = heapq.heappop(waiting)
            await self._deliver_one(out)
            await delivery.sent(out, None)
            count += 1

    async def _deliver_one(self, out: Outgoing) -> None:
        user = out.row.user_id
        reader = self.names.get(user, str(user)) if user is not None else None
        where = None if out.is_dm else await self._label(out.row.channel_id)
        prefix = f"[#{where}]" if where else None
        self._print(reader, out.lines, ephemeral=out.is_dm, prefix=prefix, lang=out.lang)
        image = out.image
        if image is not None and image.get("kind") == "table":
            self._print(reader, table_lines(image, out.lang), ephemeral=out.is_dm, prefix=prefix, lang=out.lang)
        if image is not None and self.images is not None and self.renderer is not None:
            self.count += 1
            path = self.images / f"{self.count:03d}-{image_name(image)}"
            path.write_bytes(await draw_async(self.renderer, image, out.lang))
            self._print(reader, [t("console.image", path=str(path))], ephemeral=out.is_dm, prefix=prefix)
        attach = out.row.body.get("attach")
        if isinstance(attach, dict) and attach.get("kind") == "cards":
            await self._attachment(reader, out, attach, prefix)

    async def _attachment(self, reader: str | None, out: Outgoing, attach: dict, prefix: str | None) -> None:
        """A round's cards file: written next to the images (`--out`), else named."""
        name = str(attach.get("name", ""))
        name = name if _CARDS_NAME.fullmatch(name) else "cards.json"
        round_id = int(attach.get("round_id", 0))
        body = await self.service.store.db.read(lambda tx: cards_tx(tx, round_id))
        if body is None:
            return
        if self.images is None:
            self._print(reader, [t("console.cards_attached", name=name)], ephemeral=out.is_dm, prefix=prefix)
            return
        self.count += 1
        path = self.images / f"{self.count:03d}-{name}"
        path.write_text(body, encoding="utf-8")
        self._print(reader, [t("console.cards_file", path=str(path))], ephemeral=out.is_dm, prefix=prefix)

    def _mentions(self, text: str) -> str:
        """Discord mentions as a terminal shows them: `@alice`, `#run-alice-r1`, `@role-987654321987654321`."""
        def user(match: re.Match[str]) -> str:
            name = self.names.get(int(match.group(1)))
            return f"@{name}" if name else match.group(0)

        def channel(match: re.Match[str]) -> str:
            label = self.channels.get(int(match.group(1)))
            return f"#{label or 'channel'}" if label is not None else match.group(0)

        text = _USER_MENTION.sub(user, text)
        text = _CHANNEL_MENTION.sub(channel, text)
        return _ROLE_MENTION.sub(lambda m: f"@role-{m.group(1)}", text)

    def _print(self, name: str | None, lines: Iterable[str], ephemeral: bool, prefix: str | None = None,
               lang: str | None = None) -> None:
        """Print lines (messages) for their readers: a private answer in its reader's language, a
        post in `lang` (the rally's or the league's)."""
        if self.out is None:
            return
        if lang is None:
            lang = self.readers.get(name.lower(), self.lang) if ephemeral and name else self.lang
        if prefix is None:
            prefix = t("console.prefix_only", lang, name=name) if ephemeral and name \
                else t("console.prefix_channel", lang) if not ephemeral else t("console.prefix_you", lang)
        for line in lines:
            if self._header is not None:
                print(self._header, file=self.out)
                self._header = None
            for part in self._mentions(render(line, lang)).split("\n"):
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
                      renderer: Renderer | None = None, admins: Iterable[str] = (),
                      roles: Mapping[str, Iterable[int]] | None = None, lang: str = DEFAULT_LANG) -> Console:
    console = Console(service, out, images, renderer, admins=admins, roles=roles, lang=lang)
    await console.restore_clock()
    if interactive:
        print(t("console.welcome"), file=out)
        while True:
            try:
                line = input("> ")
            except EOFError:
                break
            await console.run_line(line)
        return console
    for line in lines or ():
        await console.run_line(line)
    return console
