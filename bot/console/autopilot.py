"""`/autopilot` (console only): the AI (the game's `choose`, from the driver's own view) plays a driver's turns,
each action printed and played as if typed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot import games
from bot.console.channels import Channels
from bot.console.errors import ConsoleError
from bot.console.lines import Command, split_command
from bot.console.printer import Say
from bot.engine.core.game import Game
from bot.i18n import t
from bot.services import Actor, RallyService, Reply
from bot.services.errors import error_reply

AUTOPILOT_STEPS = 400  # actions of one `/autopilot` at most


class Autopilot:
    """Who is on autopilot, and their turns played: each action typed through `dispatch`, its reply
    shown with `show`; `tick` runs what falls due once it is switched on."""

    def __init__(self, service: RallyService, channels: Channels, names: dict[int, str], say: Say,
                 show: Callable[[str, Reply], Awaitable[None]],
                 dispatch: Callable[[Actor, Command], Awaitable[Reply]],
                 actor: Callable[[str], Actor], tick: Callable[[], Awaitable[int]], lang: str) -> None:
        self.service = service
        self.lang = lang  # the server's language (the autopilot's prefix)
        self.channels = channels
        self.names = names  # user id → console name
        self.say = say
        self.show = show
        self.dispatch = dispatch
        self.actor = actor
        self.tick = tick
        self.autopiloted: dict[str, int | None] = {}  # console user → turns left (None: until `/autopilot off`)
        self.rally_of: dict[str, int] = {}  # console user → the one rally their autopilot drives

    async def command(self, name: str, actor: Actor, cmd: Command) -> None:
        """Console only: the AI (the game's `choose`) plays the caller's turns where their
        turn commands go (their run in progress, else the main channel's rally), each action printed
        and played as if typed. `/autopilot` stays on for that driver, turn after turn, until
        `/autopilot off`; `/autopilot turns:N` drives their next N turns, then goes off. It belongs
        to the rally it was switched on in: a driver's next run (another round's) is theirs to drive."""
        text = (cmd.options.get("turns") or (cmd.words[0] if cmd.words else "")).strip()
        if text.lower() == "off":
            self.autopiloted.pop(name.lower(), None)
            self.say(name, [t("console.autopilot_off")], ephemeral=True)
            return
        limit = None
        if text:
            if not text.isdigit() or not 1 <= int(text) <= 1000:
                raise ConsoleError(t("console.number", option="turns", value=text[:40]))
            limit = int(text)
        self.autopiloted[name.lower()] = limit
        self.names.setdefault(actor.user_id, name)
        here = await self.channels.turn_place(actor)
        current = await self.service.store.rallies.get_active_in_channel(here.guild_id, here.channel_id)
        if current is not None:
            self.rally_of[name.lower()] = current.id
        if not await self.turns(name, actor):
            place = await self.channels.turn_place(actor)
            rally = await self.service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            waiting = rally is not None and rally.status == "running" and limit is None
            if not waiting:  # nothing of theirs runs: nothing to stay on for
                self.autopiloted.pop(name.lower(), None)
            await self.show(name, Reply([t("console.autopilot_on" if waiting else "console.autopilot_idle")],
                                        ephemeral=True))
        await self.tick()

    async def drive(self) -> int:
        """Every driver on autopilot whose turn it is now plays it; how many actions were played."""
        played = 0
        for key in list(self.autopiloted):
            name = next((n for n in self.names.values() if n.lower() == key), key)
            played += await self.turns(name, self.actor(name))
        return played

    async def turns(self, name: str, actor: Actor) -> int:
        """Play `name`'s turns while it is their turn (and their autopilot is on); the actions played."""
        place = await self.channels.turn_place(actor)
        played = 0
        for _ in range(AUTOPILOT_STEPS):
            key = name.lower()
            if key not in self.autopiloted:
                break
            rally = await self.service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            if rally is None or rally.status != "running":
                break
            if self.rally_of.get(key, rally.id) != rally.id:  # another rally: not the one it was set for
                self.autopiloted.pop(key, None)
                break
            state = await self.service.turns.answered_state(rally)  # in a window: with its own answer
            game, seat = games.get(rally.game), str(actor.user_id)
            if seat not in game.rules.to_act(state):
                break
            turn_before = turn_of(game, state)
            typed = "/" + game.commands.typed(game.coach.choose(game.rules.view(state, seat), seat))
            self.say(None, [f"{name}: {typed}"], ephemeral=False, prefix=t("console.prefix_autopilot", self.lang))
            try:
                reply = await self.dispatch(actor, split_command(typed))
            except Exception as exc:
                self.autopiloted.pop(key, None)
                await self.show(name, error_reply(exc))
                break
            await self.show(name, reply)
            played += 1
            after = await self.service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            now = await self.service.turns.answered_state(after) if after is not None and after.status == "running" \
                else None
            if now is None or not game.rules.to_act(now) or turn_of(game, now) != turn_before:
                left = self.autopiloted.get(key)
                if left is not None:  # `turns:N`: one turn fewer to drive
                    if left <= 1:
                        self.autopiloted.pop(key, None)
                    else:
                        self.autopiloted[key] = left - 1
            if now is None:
                break
        return played


def turn_of(game: Game[Any, Any, Any, Any], state: Any) -> tuple:
    """Where play stands and who acts: a change is a turn passed."""
    return game.rules.progress(game.rules.view(state, None)), game.rules.to_act(state)
