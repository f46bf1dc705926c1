"""The rally lifecycle: create, join, leave, start, status, board, abandon, kick."""

from __future__ import annotations

import asyncio

from bot.engine.actions import Retire
from bot.engine.board import board_view
from bot.engine.dice import ScriptedDice
from bot.engine.errors import RallyError
from bot.engine.game import Seat, apply, new_game
from bot.engine.ruleset import ruleset_names
from bot.engine.stage_loader import load_stage, stage_names
from bot.engine.state import GameState
from bot.i18n import t
from bot.services.core import Core, snapshot_json
from bot.services.errors import ServiceError
from bot.services.reply import Actor, Place, Reply
from bot.services.status_text import status_lines
from bot.services.turns import after_action, turn_reply
from bot.store import Rally

ENGINE_MODULES = ("sisu", "shakedown")
MIN_DEADLINE_H, MAX_DEADLINE_H = 1, 168


class Lobby(Core):
    async def create(self, place: Place, actor: Actor, stage: str, drivers: int = 4, deadline_hours: float = 24,
                     ruleset: str = "classic-en", sisu: bool = False, shakedown: bool = False,
                     ai_on_timeout: bool = True) -> Reply:
        """Open a rally in this channel (lobby); the creator is its host. `ai_on_timeout` (a rally
        setting, not a rule: bot/services/deadlines.py) lets the AI drive a turn whose deadline passed."""
        try:
            loaded = load_stage(stage)
        except RallyError:
            raise ServiceError("rally.unknown_stage", stage=stage, stages=", ".join(stage_names())) from None
        if ruleset not in ruleset_names():
            raise ServiceError("rally.unknown_ruleset", ruleset=ruleset, rulesets=", ".join(ruleset_names()))
        if not 1 <= drivers <= 4:  # app_commands.Range is not enforced by Discord: check here too
            raise ServiceError("rally.bad_drivers", count=drivers)
        if not MIN_DEADLINE_H <= deadline_hours <= MAX_DEADLINE_H:
            raise ServiceError("rally.bad_deadline", hours=f"{deadline_hours:g}")
        modules: dict = {"sisu": bool(sisu), "shakedown": bool(shakedown)}
        if not ai_on_timeout:  # stored only when off, so rallies with the default stay as before
            modules["ai_on_timeout"] = False
        if self.dice_script is not None:
            modules["dice_script"] = self.dice_script
        rally = await self.store.rallies.create(
            guild_id=place.guild_id, channel_id=place.channel_id, host_id=actor.user_id, stage=loaded.name,
            ruleset=ruleset, seed=self.seed_source(), max_drivers=drivers, modules=modules,
            turn_deadline_s=int(deadline_hours * 3600))
        counts = loaded.counts()
        return Reply([t("rally.created", host=actor.name, title=loaded.title, length=loaded.length,
                        corners=counts["corners"], drivers=drivers, hours=f"{deadline_hours:g}")])

    async def join(self, place: Place, actor: Actor) -> Reply:
        rally = await self.rally_here(place)
        if rally.status != "lobby":
            raise ServiceError("rally.already_started")
        await self.store.drivers.join(rally.id, actor.user_id, actor.name)
        count = len(await self.store.drivers.list(rally.id, active_only=True))
        return Reply([t("rally.joined", name=actor.name, count=count, max=rally.max_drivers)])

    async def leave(self, place: Place, actor: Actor) -> Reply:
        rally = await self.rally_here(place)
        if rally.status == "lobby":
            await self.store.drivers.leave(rally.id, actor.user_id)
            return Reply([t("rally.left", name=actor.name)])
        return await self._retire(rally, actor, actor.user_id, "rally.left_running")

    async def kick(self, place: Place, actor: Actor, target_id: int, target_name: str = "") -> Reply:
        rally = await self.rally_here(place)
        self.require_boss(rally, actor, "remove a driver")
        if target_id == actor.user_id:
            raise ServiceError("rally.kick_self")
        if rally.status == "lobby":
            await self.store.drivers.kick(rally.id, target_id)
            return Reply([t("rally.kicked", name=target_name or str(target_id))])
        return await self._retire(rally, actor, target_id, "rally.kicked_running")

    async def _retire(self, rally: Rally, actor: Actor, target_id: int, key: str) -> Reply:
        async with self.lock(rally.id):
            rally = await self.store.rallies.get(rally.id)
            state = self.state_of(rally)
            if state.car_by_id(str(target_id)) is None:
                raise ServiceError("rally.not_driving")
            new, events = apply(state, Retire(str(target_id), driver=str(actor.user_id)))
            return await after_action(self, rally, actor, str(Retire(str(target_id))), state, new, events,
                                      lead=[t(key, name=state.car_by_id(str(target_id)).name)])

    async def start(self, place: Place, actor: Actor) -> Reply:
        """Seat the drivers in join order (A3: host's choice, here the order they joined) and go."""
        rally = await self.rally_here(place)
        self.require_boss(rally, actor, "start the rally")
        if rally.status != "lobby":
            raise ServiceError("rally.already_started")
        async with self.lock(rally.id):
            drivers = await self.store.drivers.list(rally.id, active_only=True)
            if not drivers:
                raise ServiceError("rally.no_drivers")
            seats = [Seat(str(d.user_id), d.display_name) for d in sorted(drivers, key=lambda d: d.seat)]
            state = start_state(rally.stage, rally.ruleset, rally.seed, rally.modules, seats)
            action = "start " + ",".join(s.id for s in seats)
            version = await self.store.set_snapshot(rally.id, rally.version, snapshot_json(state), "running",
                                                    actor=actor.user_id, action=action)
            self.remember(rally.id, version, state)
            lead = [t("rally.started", title=state.stage.title, order=", ".join(s.name for s in seats))]
            return await turn_reply(self, rally.id, version, state, [], lead)

    async def status(self, place: Place, actor: Actor) -> Reply:
        rally = await self.rally_here(place)
        if rally.status == "lobby":
            drivers = await self.store.drivers.list(rally.id, active_only=True)
            names = ", ".join(d.display_name for d in drivers) or t("rally.nobody")
            return Reply([t("rally.lobby_status", stage=rally.stage, names=names, count=len(drivers),
                            max=rally.max_drivers)], ephemeral=True)
        return Reply(status_lines(self.state_of(rally)), ephemeral=True)

    async def board(self, place: Place, actor: Actor) -> Reply:
        rally = await self.rally_here(place)
        if rally.status == "lobby":
            stage = load_stage(rally.stage)
            return Reply([t("rally.lobby_board", title=stage.title, length=stage.length)],
                         image=await self._preview(stage))
        state = self.state_of(rally)
        return Reply(status_lines(state), image=await self.board_image(state, board_view(state)))

    async def _preview(self, stage) -> bytes | None:
        if self.renderer is None:
            return None
        return await asyncio.to_thread(self.renderer.preview, stage)

    async def abandon(self, place: Place, actor: Actor) -> Reply:
        rally = await self.rally_here(place)
        self.require_boss(rally, actor, "abandon the rally")
        async with self.lock(rally.id):
            await self.store.rallies.set_status(rally.id, rally.version, "abandoned", actor=actor.user_id)
        return Reply([t("rally.abandoned", name=actor.name)])


def start_state(stage: str, ruleset: str, seed: int, modules: dict | None, seats: list[Seat]) -> GameState:
    """The state a rally starts in: the same function serves `start` and the replay of the log."""
    modules = modules or {}
    engine_modules = {k: bool(modules.get(k, False)) for k in ENGINE_MODULES}
    script = modules.get("dice_script")
    dice = ScriptedDice(script.get("faces", []), script.get("events", [])) if script is not None else None
    return new_game(stage, seats, seed=seed, ruleset=ruleset, modules=engine_modules, dice=dice)
