"""The console's commands: a typed `Command` becomes the service call Discord's command makes
(rallies, turns, championships, `/verify`), with the options read as the slash command reads them.
A game's own commands (`/roll`, `/odds` …) are not written here: any command of a registered game
goes to the service's one entry point (`verb`) with its options, as the slash command sends them."""

from __future__ import annotations

from pathlib import Path

from bot import games
from bot.console.channels import GUILD_NAME, Channels
from bot.console.errors import ConsoleError
from bot.console.lines import Command, user_id, yes
from bot.console.options import check_options
from bot.console.printer import Say
from bot.engine.core.game import Verb
from bot.i18n import t
from bot.services import Actor, Place, RallyService, Reply
from bot.services.help_text import help_lines
from bot.services.images import Renderer
from bot.services.league.leagues import Member
from bot.services.rules import rules_reply
from bot.services.stage_library import stage_list, stage_show

#: turn commands besides every game's own (`games.verb`): typed by a driver with a run in progress,
#: they go to that run's channel
TURN_COMMANDS = frozenset({"act", "hand", "rally status", "rally board", "rally abandon", "autopilot"})


def verb_options(verb: Verb, cmd: Command) -> dict[str, object]:
    """The options of a game's command as typed (`/roll 3 white 4 end:yes`): `name:value` as
    Discord reads them, a yes/no read as one, and the free words as its first text option when
    that is not given by name (as the slash command's first box); an option the command has not
    is passed on, so the service refuses it by name."""
    kinds = {o.name: o.kind for o in verb.options}
    values: dict[str, object] = {k: yes(v) if kinds.get(k) == "bool" else v for k, v in cmd.options.items()}
    first = next((o.name for o in verb.options if o.kind == "text"), None)
    if first is not None and first not in values and cmd.words:
        values[first] = " ".join(cmd.words)
    return values


def _role(value: str | None) -> int | None:
    """`role:987654321987654321` (a role id), or `role:none` to go back to Manage Server only."""
    text = (value or "").strip()
    if text.lower() in ("none", "off", ""):
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 20:
        raise ConsoleError(t("console.number", option="role", value=text[:40]))
    return int(text)


class Commands:
    """Runs a command for an actor: typed in the main channel `place`, or for a turn command where
    the actor's turns go (`channels`); prints what is for the actor alone through `say`."""

    def __init__(self, service: RallyService, place: Place, channels: Channels, say: Say,
                 renderer: Renderer | None = None) -> None:
        self.service = service
        self.renderer = renderer  # draws `/stage show`'s preview (None: no image, only the facts)
        self.place = place
        self.channels = channels
        self.say = say
        self.readers: dict[str, str] = {}  # console user → their own language (`alice@fr: …`), set by the console

    async def dispatch(self, actor: Actor, cmd: Command) -> Reply:
        """The service's reply to `cmd` typed by `actor`; a line that is no command, or an option
        the command has not (by Discord's names: `bot.console.options`), is refused."""
        if games.verb(cmd.name) is None:  # a game's command: its service refuses an option by name
            check_options(cmd)
        if cmd.name.startswith(("league", "steward ", "run ", "scratch")) or cmd.name == "verify":
            return await self._championship(actor, cmd)
        s, o = self.service, cmd.options
        turn = cmd.name in TURN_COMMANDS or games.verb(cmd.name) is not None
        here = await self.channels.turn_place(actor) if turn else self.place
        if cmd.name == "rally create":
            stage = o.get("stage") or (cmd.words[0] if cmd.words else None)  # none: the game's default, if any
            deadline = o.get("deadline_hours", "24")
            # Numbers go to the service as typed: it parses them strictly (no inf, nan, 1e309, junk).
            return await s.create(self.place, actor, stage, drivers=o.get("drivers", "4"),
                                  deadline_hours=deadline[:-1] if deadline.endswith("h") else deadline,
                                  ruleset=o.get("ruleset"),
                                  sisu=yes(o.get("sisu")), shakedown=yes(o.get("shakedown")),
                                  ai_on_timeout=yes(o.get("ai_on_timeout", "yes")),
                                  assistance=o.get("assistance", "all"), order=o.get("order", "joined"),
                                  modules=o.get("modules", ""), language=o.get("language"), game=o.get("game"),
                                  preset=o.get("preset"))
        simple = {"rally join": s.join, "rally leave": s.leave, "rally start": s.start, "rally status": s.status,
                  "rally board": s.board, "rally abandon": s.abandon}
        if cmd.name in simple:
            return await simple[cmd.name](here, actor)
        if cmd.name == "rally results":
            return await s.results(self.place, actor, o.get("rally") or (cmd.words[0] if cmd.words else None))
        if cmd.name == "rally history":
            return await s.history(self.place, actor)
        if cmd.name == "replay":  # `/replay rally:12` or `/replay 12`
            return await s.replay(self.place, actor, o.get("rally") or (cmd.words[0] if cmd.words else None))
        if cmd.name == "rally add-ai":
            return await s.add_ai(self.place, actor, o.get("count") or (cmd.words[0] if cmd.words else None),
                                  o.get("style") or (cmd.words[1] if len(cmd.words) > 1 else None))
        if cmd.name == "rally remove-ai":
            return await s.remove_ai(self.place, actor, o.get("name") or " ".join(cmd.words))
        if cmd.name == "rally web":  # `/rally web public` (or `visibility:private`)
            choice = o.get("visibility") or (cmd.words[0] if cmd.words else "")
            return await s.channel_web.set(self.place, actor, choice)
        if cmd.name == "rally kick":
            target = o.get("driver") or (cmd.words[0] if cmd.words else "")
            if not target:
                raise ConsoleError(t("console.need_driver"))
            return await s.kick(self.place, actor, user_id(target.lstrip("@")), target.lstrip("@"))
        verb = games.verb(cmd.name)
        if verb is not None:
            return await s.verb(here, actor, cmd.name, verb_options(verb, cmd))
        if cmd.name == "act":
            return await s.act(here, actor, o.get("action") or " ".join(cmd.words), option="action")
        if cmd.name == "hand":  # `/hand` or `/hand driver:bob` (anyone's but one's own is refused)
            other = o.get("driver") or (cmd.words[0] if cmd.words else "")
            return await s.hand(here, actor, user_id(other.lstrip("@")) if other else None)
        if cmd.name.startswith("notify"):
            return await s.notify.set(self.place, actor, cmd.name.split()[1],
                                      o.get("value") or (cmd.words[0] if cmd.words else ""))
        if cmd.name == "ratings":  # `/ratings [game] [scope:server|world]`
            return await s.ratings.ratings(self.place, actor, o.get("game") or (cmd.words[0] if cmd.words else None),
                                           o.get("scope"))
        if cmd.name == "driver":  # `/driver`, `/driver bob`, `/driver user:bob game:dirt`
            other = (o.get("user") or (cmd.words[0] if cmd.words else "")).lstrip("@")
            return await s.careers.driver(self.place, actor, user_id(other) if other else None, other or None,
                                          o.get("game"), self.readers.get(actor.name.lower(), self.place.lang),
                                          self.renderer)
        if cmd.name == "help":
            return Reply([*help_lines(), t("console.help_console")], ephemeral=True)
        if cmd.name == "rules":
            return rules_reply(o.get("game") or (cmd.words[0] if cmd.words else None), o.get("ruleset"))
        if cmd.name == "stage list":
            return stage_list(o.get("game") or (cmd.words[0] if cmd.words else None), self.place.lang)
        if cmd.name == "stage show":
            name = o.get("name") or (cmd.words[0] if cmd.words else "")
            return await stage_show(o.get("game"), name, self.place.lang, self.renderer)
        raise ConsoleError(t("console.unknown", command="/" + cmd.name))

    # -- championships -------------------------------------------------------------------------------

    async def _championship(self, actor: Actor, cmd: Command) -> Reply:
        champs, o = self.service.championships, cmd.options
        leagues = champs.leagues
        league = o.get("league")
        if cmd.name == "league create":
            name = o.get("name") or " ".join(cmd.words)
            return await leagues.create(self.place, actor, name, o.get("timezone", "UTC"), points=o.get("points"),
                                        drop=o.get("drop"), ruleset=o.get("ruleset"),
                                        modules=o.get("modules", ""), dice=o.get("dice", "personal"),
                                        language=o.get("language"), game=o.get("game"))
        if cmd.name == "league join":
            return await leagues.join(self.place, actor, league)
        if cmd.name == "league organisers":  # `role:ID|none`, or `add:NAME` and/or `remove:NAME` (a handover)
            named = {k: Member(user_id(o[k].lstrip("@")), o[k].lstrip("@")) for k in ("add", "remove") if o.get(k)}
            return await leagues.organisers(self.place, actor, _role(o.get("role")), league, **named)
        if cmd.name == "league settings":
            if "world_name" not in o:
                raise ConsoleError(t("console.need_option", command="/league settings", option="world_name:on|off"))
            return await leagues.world_name(self.place, actor, o.get("world_name"))
        if cmd.name == "league web":  # `/league web public` (or `visibility:private`)
            return await leagues.web(self.place, actor, o.get("visibility") or (cmd.words[0] if cmd.words else ""),
                                     league)
        if cmd.name == "league round add":
            stage = o.get("stage") or (cmd.words[0] if cmd.words else "")
            return await champs.rounds.round_add(self.place, actor, stage, opens=o.get("opens"), closes=o.get("closes"),
                                                 day=o.get("day"), hour=o.get("hour"), rounds=o.get("rounds", "1"),
                                                 power_stage=yes(o.get("power_stage")),
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
        if cmd.name == "league leave":
            return await leagues.leave(self.place, actor, league)
        if cmd.name.startswith("steward "):
            return await self._steward(actor, cmd)
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
            rnd, found = await champs.check_run(self.place, actor, league, o.get("round"), o.get("ghost"))
            channel = await self.channels.new(f"run-{actor.name}-r{rnd.number}")
            reply = await champs.start_run(self.place, actor, rnd, found, channel, GUILD_NAME, o.get("ghost"))
            return self._run_started(actor, channel, reply)
        if cmd.name == "run replay":
            driver = (o.get("driver") or "").lstrip("@")
            return await champs.replay(self.place, actor, user_id(driver) if driver else actor.user_id, league,
                                       o.get("round"), o.get("turn"))
        if cmd.name == "scratch run":
            week = await champs.scratch.check_run(self.place, actor, o.get("game"), o.get("ghost"))
            channel = await self.channels.new(f"scratch-{actor.name}-{week.week}")
            started = await champs.scratch.start_run(self.place, actor, channel, GUILD_NAME, o.get("game"),
                                                     o.get("ghost"))
            return self._run_started(actor, channel, started)
        if cmd.name == "scratch ranking":
            return await champs.scratch.ranking(self.place, actor, o.get("week") or " ".join(cmd.words) or None,
                                                o.get("game"))
        if cmd.name == "scratch me":
            return await champs.scratch.me(self.place, actor, o.get("game"))
        if cmd.name == "verify":
            return self.verify(o.get("file") or " ".join(cmd.words), o.get("seed_sha256"))
        raise ConsoleError(t("console.unknown", command="/" + cmd.name))

    async def _steward(self, actor: Actor, cmd: Command) -> Reply:
        """`/steward withdraw|change|lift-dsq|move|kick`, with Discord's options."""
        champs, o = self.service.championships, cmd.options
        action = cmd.name.split()[1]
        if action == "move":
            return await champs.rounds.round_move(self.place, actor, o.get("round"), o.get("reason"),
                                                  opens=o.get("opens"), closes=o.get("closes"), league=o.get("league"))
        driver = (o.get("driver") or "").lstrip("@")
        if not driver:
            raise ConsoleError(t("console.need_option", command=f"/{cmd.name}", option="driver:NAME"))
        if action == "kick":
            return await champs.leagues.kick(self.place, actor, user_id(driver), driver, o.get("reason"),
                                             o.get("league"))
        return await champs.stewarding.steward(self.place, actor, action, user_id(driver), driver, o.get("round"),
                                               o.get("reason"), o.get("seconds"), o.get("league"))

    def _run_started(self, actor: Actor, channel: int, reply: Reply) -> Reply:
        """The run's posts go to its own channel; its driver is told where it is."""
        self.say(actor.name, [t("run.thread_ready", thread="#" + self.channels.labels[channel])], ephemeral=True)
        return Reply(reply.lines[1:], ping=reply.ping, turn=reply.turn, outbox=reply.outbox)

    def verify(self, path: str, published: str | None = None) -> Reply:
        """`/verify file:PATH [seed_sha256:HASH]`: replay a result card, or a round's cards file,
        with the engine alone (what `/verify` does with an attachment on Discord)."""
        if not path:
            raise ConsoleError(t("console.need_option", command="/verify", option="file:PATH"))
        try:
            from bot.services.world.card_check import MAX_BYTES, verify_bytes
        except ImportError:
            raise ConsoleError(t("console.verify_missing")) from None
        try:
            with Path(path).expanduser().open("rb") as file:
                data = file.read(MAX_BYTES + 1)  # a larger file is refused by its size, never read whole
        except OSError as exc:
            raise ConsoleError(t("console.no_file", path=path[:200], why=type(exc).__name__)) from None
        return Reply(list(verify_bytes(data, published).lines), ephemeral=True)
