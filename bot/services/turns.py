"""Turn commands: roll, stop, line, spare, and the private odds preview.

A turn command is bound to the rally version the command found when it arrived (a button carries
the version it was drawn for): if anything was committed between its arrival and its turn under
the rally's lock, it is refused ("already played") and changes nothing, so a double submit never
plays twice.
"""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import Action, Attack, Roll, Spare, Stop
from bot.engine.rallyman.dice_rules import describe_allowed, dice_allowed
from bot.engine.rallyman.game import legal_actions
from bot.engine.rallyman.narrate import narrate
from bot.engine.rallyman.odds import odds
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.state import GameState
from bot.engine.rallyman.status_text import course_lines, results_lines
from bot.engine.rallyman.words import dice_words
from bot.services.errors import ServiceError
from bot.services.images import board_spec, results_spec
from bot.services.inputs import MAX_COMMAND_TEXT, text_option
from bot.services.reply import Actor, Place, Reply, TurnPrompt
from bot.services.work import Change, Committed, Logged, Post, RallyWork, game_of
from bot.store import Rally


def require_running(rally: Rally) -> None:
    """Refuse a turn command on a rally that is not running, saying why (the truth, not a guess)."""
    if rally.status == "running":
        return
    key = {"lobby": "rally.not_running", "abandoned": "rally.abandoned_meanwhile",
           "finished": "rally.finished_meanwhile"}[rally.status]
    raise ServiceError(key)


class Turns:
    """`act` (any turn command as typed), `roll`, `stop`, `line`, `spare`, `odds`, `options`."""

    def __init__(self, work: RallyWork) -> None:
        self.work = work

    async def act(self, place: Place, actor: Actor, text: str, expected_version: int | None = None) -> Reply:
        """Any turn command as the driver would type it (`3 white 4`, `stop`, `skid`, `spare`).
        `expected_version` (buttons) is the version the button was drawn for; a typed command is
        bound to the version current when it arrived."""
        return await self._play(place, actor, text_option("dice", text, MAX_COMMAND_TEXT), expected_version)

    async def _play(self, place: Place, actor: Actor, text: str, expected_version: int | None) -> Reply:
        """The command path of a turn command whose text was checked already."""
        async with self.work.locked(place) as (seen, rally):
            require_running(rally)
            if expected_version is not None and expected_version != rally.version:
                raise ServiceError("turn.stale")
            if expected_version is None and seen.version != rally.version:
                raise ServiceError("turn.already_played")
            game = game_of(rally)
            state = self.work.state_of(rally)
            seat = str(actor.user_id)
            action = game.parse(text, state, seat)
            new, events = game.apply(state, seat, action)
            change = Change(logged=[Logged(game.encode(action), actor.user_id, new,
                                           "finished" if game.finished(new) else None)], played_by=actor.user_id)
            post = turn_post(rally.id, rally.version + 1, new, events, [], change)
            committed = await self.work.commit(rally, change)
            return reply_of(post, committed)

    async def roll(self, place: Place, actor: Actor, dice: str, end: bool = False,
                   expected_version: int | None = None) -> Reply:
        text = text_option("dice", dice, MAX_COMMAND_TEXT)  # what the user typed is what is limited
        if end and not text.lower().endswith("stop"):
            text += " stop"
        return await self._play(place, actor, text, expected_version)

    async def stop(self, place: Place, actor: Actor, expected_version: int | None = None) -> Reply:
        return await self.act(place, actor, "stop", expected_version)

    async def line(self, place: Place, actor: Actor, line: str) -> Reply:
        return await self.act(place, actor, text_option("line", line, MAX_COMMAND_TEXT))

    async def spare(self, place: Place, actor: Actor) -> Reply:
        return await self.act(place, actor, "spare")

    async def attack(self, place: Place, actor: Actor, dice: str) -> Reply:
        """Time attack (Rules+ module, RULES A18): roll a group of dice at once; then `order`."""
        return await self.act(place, actor, "attack " + text_option("dice", dice, MAX_COMMAND_TEXT))

    async def order(self, place: Place, actor: Actor, order: str) -> Reply:
        """The order of the dice of a time attack (A18.3), or `best` for the bot's proposal."""
        return await self.act(place, actor, "order " + text_option("order", order, MAX_COMMAND_TEXT))

    async def place_die(self, place: Place, actor: Actor, die: str) -> Reply:
        """Place the next die with second markers instead of rolling it (Rules+ module, A19)."""
        return await self.act(place, actor, "place " + text_option("die", die, MAX_COMMAND_TEXT))

    async def tires(self, place: Place, actor: Actor, tires: str) -> Reply:
        """Choose asphalt or snow tires before the first die of a special where that is allowed
        (Rules+ weather module, RULES A20.2)."""
        return await self.act(place, actor, "tires " + text_option("tires", tires, MAX_COMMAND_TEXT))

    async def odds(self, place: Place, actor: Actor, plan: str) -> Reply:
        """The exact chance of losing control for a plan of dice, shown only to the asker."""
        plan = text_option("dice", plan, MAX_COMMAND_TEXT)
        rally = await self.work.rally_here(place)
        require_running(rally)
        state = self.work.state_of(rally)
        action = parse(plan, state, driver=str(actor.user_id))
        if not isinstance(action, (Roll, Attack)):
            raise ServiceError("odds.need_dice")
        result = odds(state, action)
        words = dice_words(action.dice)
        key = "odds.attack" if isinstance(action, Attack) else "odds.result"
        lines = [msg(key, plan=words, percent=result.percent)]
        if result.knocked_out:
            lines.append(msg("odds.knock_out", percent=msg("number.percent",
                                                           value=round(result.knocked_out * 100, 1))))
        return Reply(lines, ephemeral=True)

    async def options(self, place: Place, actor: Actor) -> list[str]:
        """What this user may type next (autocomplete); empty when it is not their turn."""
        if place.guild_id <= 0:
            return []
        rally = await self.work.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None or rally.status != "running":
            return []
        return option_labels(self.work.state_of(rally), str(actor.user_id))


def option_labels(state: GameState, driver: str | None = None) -> list[str]:
    return [label(a) for a in legal_actions(state, driver)]


def label(action: Action) -> str:
    if isinstance(action, Roll):
        return " ".join([*action.dice, *([action.line] if action.line else [])])
    if isinstance(action, (Stop, Spare)):
        return str(action)
    return str(action)


def turn_post(rally_id: int, version: int, state: GameState, events: list[Event], lead: list[str],
              change: Change) -> Post:
    """The channel post after an action (the story, then the next prompt or the results), added
    to `change`; when the turn passed or the rally ended, the change also ends the turn's clock.
    The board image goes with the end of a turn (not every die) so the channel stays readable."""
    if state.course is not None:  # "SSn is over" says it, with the special's number
        events = [e for e in events if e.kind != "stage_over"]
    over = [i for i, e in enumerate(events) if e.kind == "special_over"]
    if over and not state.finished and state.course is not None:
        # A special of the rally ended and the next one began: its results go first, in their own
        # post with the results image, then the new special's first prompt with its board.
        cut = over[-1] + 1
        results = Post(list(lead) + narrate(events[:cut], state) + course_lines(state.course),
                       image=results_spec(state))
        change.posts.append(results)
        lead, events = [], events[cut:]
    lines = list(lead) + narrate(events, state)
    if state.finished or state.turn is None:
        lines += results_lines(state)
        post = Post(lines, image=results_spec(state), close_turn=True)
        change.end_turn_clock = True
        change.posts.append(post)
        return post
    car = state.cars[state.turn.car]
    turn_changed = not events or any(e.kind in ("turn", "retired") for e in events)
    driver_id = int(car.id) if car.id.lstrip("-").isdigit() else 0
    if driver_id < 0:  # an AI seat (bot/services/ai_drivers.py): it drives as soon as this is delivered
        lines.append(msg("turn.ai_drives", name=car.name))
        post = Post(lines, turn=TurnPrompt(rally_id, version, driver_id, ()),
                    image=board_spec(state) if turn_changed else None)
        change.end_turn_clock = change.end_turn_clock or turn_changed
        change.posts.append(post)
        return post
    allowed = describe_allowed(dice_allowed(state, car, state.turn))
    if state.turn.attack is not None:  # a time attack rolled: only its order may follow (A18.3)
        orders = [o for o in option_labels(state) if o.startswith("order ")]
        lines.append(msg("turn.order_due", name=car.name, orders=", ".join(f"`{o}`" for o in orders[:6])))
    elif turn_changed or not state.turn.started:  # not begun yet (after tires, a spare): no `/stop` (A6.3.7)
        lines.append(msg("turn.your_turn", name=car.name, allowed=allowed))
    else:
        lines.append(msg("turn.go_on", name=car.name, allowed=allowed))
    prompt = TurnPrompt(rally_id, version, driver_id, tuple(option_labels(state)))
    post = Post(lines, ping=(driver_id,) if turn_changed and driver_id else (), turn=prompt,
                deadline="new" if turn_changed else "keep", image=board_spec(state) if turn_changed else None)
    change.end_turn_clock = change.end_turn_clock or turn_changed
    change.posts.append(post)
    return post


def reply_of(post: Post, committed: Committed) -> Reply:
    """The command's answer: what was posted (already owed to the channel by the commit)."""
    return Reply(list(post.lines), ping=post.ping, turn=post.turn, outbox=committed.outbox_ids,
                 paused=committed.paused)
