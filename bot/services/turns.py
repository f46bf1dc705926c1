"""Turn commands: roll, stop, line, spare, and the private odds preview."""

from __future__ import annotations

from bot.engine.actions import Action, Roll, Spare, Stop
from bot.engine.board import board_view
from bot.engine.dice_rules import describe_allowed, dice_allowed
from bot.engine.game import apply, legal_actions
from bot.engine.odds import odds
from bot.engine.parse import parse
from bot.engine.state import GameState
from bot.i18n import t
from bot.services.core import Core, snapshot_json
from bot.services.errors import ServiceError
from bot.services.narrate import narrate
from bot.services.reply import Actor, Place, Reply, TurnPrompt
from bot.services.status_text import results_lines
from bot.store import Rally


class Turns(Core):
    async def act(self, place: Place, actor: Actor, text: str, expected_version: int | None = None) -> Reply:
        """Any turn command as the driver would type it (`3 white 4`, `stop`, `skid`, `spare`).
        `expected_version` (buttons) refuses a click made on a turn that has moved on."""
        rally = await self.rally_here(place)
        async with self.lock(rally.id):
            rally = await self.store.rallies.get(rally.id)
            if rally.status != "running":
                raise ServiceError("rally.not_running")
            if expected_version is not None and expected_version != rally.version:
                raise ServiceError("turn.stale")
            state = self.state_of(rally)
            action = parse(text, state, driver=str(actor.user_id))
            new, events = apply(state, action)
            return await after_action(self, rally, actor, str(action), state, new, events)

    async def roll(self, place: Place, actor: Actor, dice: str, end: bool = False,
                   expected_version: int | None = None) -> Reply:
        text = dice.strip()
        if end and not text.lower().endswith("stop"):
            text += " stop"
        return await self.act(place, actor, text, expected_version)

    async def stop(self, place: Place, actor: Actor, expected_version: int | None = None) -> Reply:
        return await self.act(place, actor, "stop", expected_version)

    async def line(self, place: Place, actor: Actor, line: str) -> Reply:
        return await self.act(place, actor, line)

    async def spare(self, place: Place, actor: Actor) -> Reply:
        return await self.act(place, actor, "spare")

    async def odds(self, place: Place, actor: Actor, plan: str) -> Reply:
        """The exact chance of losing control for a plan of dice, shown only to the asker."""
        rally = await self.rally_here(place)
        if rally.status != "running":
            raise ServiceError("rally.not_running")
        state = self.state_of(rally)
        action = parse(plan, state, driver=str(actor.user_id))
        if not isinstance(action, Roll):
            raise ServiceError("odds.need_dice")
        result = odds(state, action)
        words = " ".join("white" if d == "W" else d for d in action.dice)
        lines = [t("odds.result", plan=words, percent=result.percent)]
        if result.knocked_out:
            lines.append(t("odds.knock_out", percent=f"{result.knocked_out * 100:.1f}%"))
        return Reply(lines, ephemeral=True)

    async def options(self, place: Place, actor: Actor) -> list[str]:
        """What this user may type next (autocomplete); empty when it is not their turn."""
        rally = await self.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None or rally.status != "running":
            return []
        return option_labels(self.state_of(rally), str(actor.user_id))


def option_labels(state: GameState, driver: str | None = None) -> list[str]:
    return [label(a) for a in legal_actions(state, driver)]


def label(action: Action) -> str:
    if isinstance(action, Roll):
        return " ".join([*action.dice, *([action.line] if action.line else [])])
    if isinstance(action, (Stop, Spare)):
        return str(action)
    return str(action)


async def after_action(core: Core, rally: Rally, actor: Actor, action_text: str, old: GameState, new: GameState,
                       events: list, lead: list[str] | None = None) -> Reply:
    """Commit action + snapshot + version, then tell the channel what happened."""
    status = "finished" if new.finished else None
    version = await core.store.append_action(rally.id, rally.version, actor.user_id, action_text,
                                             snapshot_json(new), status)
    core.remember(rally.id, version, new)
    return await turn_reply(core, rally.id, version, new, events, lead or [])


async def turn_reply(core: Core, rally_id: int, version: int, state: GameState, events: list,
                     lead: list[str]) -> Reply:
    """The channel message after an action: the story, and either the next prompt or results.
    The board image goes with the end of a turn (not every die) so the channel stays readable."""
    lines = list(lead) + narrate(events, state)
    if state.finished:
        lines += results_lines(state)
        return Reply(lines, image_name="results.png", render=core.results_render(state))
    car = state.cars[state.turn.car]
    turn_changed = not events or any(e.kind in ("turn", "retired") for e in events)
    allowed = describe_allowed(dice_allowed(state, car, state.turn))
    if turn_changed:
        lines.append(t("turn.your_turn", name=car.name, allowed=allowed))
    else:
        lines.append(t("turn.go_on", name=car.name, allowed=allowed))
    prompt = TurnPrompt(rally_id, version, int(car.id) if car.id.isdigit() else 0, tuple(option_labels(state)))
    render = core.board_render(state, board_view(state)) if turn_changed else None
    ping = (int(car.id),) if turn_changed and car.id.isdigit() else ()
    return Reply(lines, ping=ping, turn=prompt, render=render)
