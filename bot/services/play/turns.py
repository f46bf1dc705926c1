"""Turn commands: any action as typed (`act`), a game's command by name from its verb table
(`verb`: `/roll`, `/stop` … and the private odds preview), what a seat may type next, and a
seat's own hand (`hand`: what only it may see and pick, in a game with hidden information).

A turn command is bound to the rally version the command found when it arrived (a button carries
the version it was drawn for): if anything was committed between its arrival and its turn under
the rally's lock, it is refused ("already played") and changes nothing, so a double submit never
plays twice. An answer in a window several seats answer at once (RULES C10.8) is tied to the
window instead: the window's answers are kept beside the rally until it closes, so the version
does not move while it is open and no seat's answer is refused because another's came first
(`bot/services/play/windows.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from bot import games
from bot.engine.core.game import Prompt, VerbOption, is_finished, verb_of
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.images import board_spec, results_spec
from bot.services.inputs import MAX_COMMAND_TEXT, text_option
from bot.services.league.ghost_board import ghost_of, with_ghost
from bot.services.play.ai_drivers import is_ai
from bot.services.play.provisional import provisional_lines
from bot.services.play.windows import asked_together, clear_step, close, kept_answers, still_open, with_answers
from bot.services.reply import HAND, Actor, Place, Reply, TurnPrompt
from bot.services.work import Change, Committed, Logged, Post, RallyWork, State, game_of
from bot.store import Rally
from bot.store.window_answers import put_tx


def require_running(rally: Rally) -> None:
    """Refuse a turn command on a rally that is not running, saying why (the truth, not a guess)."""
    if rally.status == "running":
        return
    key = {"lobby": "rally.not_running", "abandoned": "rally.abandoned_meanwhile",
           "finished": "rally.finished_meanwhile"}[rally.status]
    raise ServiceError(key)


class Turns:
    """`act` (any turn command as typed), `verb` (a game's command by name: `/roll`, `/odds` …),
    `options` (autocomplete)."""

    def __init__(self, work: RallyWork) -> None:
        self.work = work

    async def act(self, place: Place, actor: Actor, text: str, expected_version: int | None = None,
                  option: str = "dice") -> Reply:
        """Any turn command as the driver would type it (`3 white 4`, `stop`, `skid`, `spare`):
        buttons, `/act` (whose `option` is `action`, named in a refusal) and the AI.
        `expected_version` (buttons) is the version the button was drawn for; a typed command is
        bound to the version current when it arrived."""
        return await self._play(place, actor, text_option(option, text, MAX_COMMAND_TEXT), expected_version)

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
            if asked_together(game, state):  # tied to the window, not to the version (RULES C10.8)
                return await self._answer(rally, actor, state, text)
            action = game.commands.parse(text, state, seat)
            new, events = game.rules.apply(state, seat, action)
            status = "finished" if is_finished(game.rules, new) else None
            change = Change(logged=[Logged(game.rules.encode(action), actor.user_id, new, status)],
                            played_by=actor.user_id)
            post = turn_post(rally.id, rally.version + 1, new, events, [], change, rally.game, rally.ruleset,
                             ghost_of(rally))
            committed = await self.work.commit(rally, change)
            return reply_of(post, committed)

    async def _answer(self, rally: Rally, actor: Actor, state: State, text: str) -> Reply:
        """Under the lock, in an open window: the seat's answer, checked against the state with
        every kept answer given (a refusal writes nothing); kept apart while the window stays open
        (nothing public changes), or, when it completes the window, logged with the others as
        the change that closes it (`bot/services/play/windows.py`)."""
        game = game_of(rally)
        seat = str(actor.user_id)
        kept = await kept_answers(self.work.store, rally.id)
        current = with_answers(game, state, kept)
        action = game.commands.parse(text, current, seat)
        new, _ = game.rules.apply(current, seat, action)
        entry = game.rules.encode(action)
        if still_open(game, current, new):
            keep = partial(put_tx, rally_id=rally.id, user_id=actor.user_id, action=entry)
            await self.work.commit(rally, Change(steps=[keep]))
            return Reply([msg("turn.answer_saved")], ephemeral=True)
        closing = close(game, state, [*kept, (actor.user_id, entry)])
        change = Change(logged=closing.logged, steps=[clear_step(rally.id)])
        post = turn_post(rally.id, rally.version + len(closing.logged), closing.state, closing.events, [], change,
                         rally.game, rally.ruleset, ghost_of(rally))
        return reply_of(post, await self.work.commit(rally, change))

    async def verb(self, place: Place, actor: Actor, name: str, options: Mapping[str, object],
                   expected_version: int | None = None) -> Reply:
        """A game command by name (`roll`, `odds` …) with its options as Discord or the console give
        them, the one entry point of every shortcut: the command looked up in the game of the
        channel's rally (an unknown command or option is refused naming what there is), each text
        checked (`text_option`: what a client sends is hostile), its text built by the game's
        table (`Verb.text`) and played, or answered privately for a private command (odds). Every
        refusal comes before anything is written."""
        rally = await self.work.rally_here(place)
        game = game_of(rally)
        verb = verb_of(game, name)
        values = {key: checked_option(verb.option(key), value) for key, value in options.items()}
        for option in verb.options:  # a required option left out is refused like an empty one
            if option.required and option.name not in values:
                checked_option(option, "")
        text = verb.text(values)
        if not verb.private or game.odds is None:  # a private command is a game's odds (bot.games checks)
            return await self._play(place, actor, text, expected_version)
        require_running(rally)
        seat = str(actor.user_id)  # the asker's own view: odds never tell what their seat may not see
        return Reply(game.odds.odds(game.rules.view(self.work.state_of(rally), seat), seat, text), ephemeral=True)

    async def hand(self, place: Place, actor: Actor, driver: object = None) -> Reply:
        """`/hand`: what the asker's seat alone may see and pick now (the game's `hand`, from that
        seat's own view), answered only to them, with its picks for a select menu; nothing is
        written. Another driver's hand (`driver`: a user id) is refused before anything is read;
        so is a hand asked by someone with no seat, or in a game that hides nothing."""
        if driver is not None and str(driver).strip() not in ("", str(actor.user_id)):
            raise ServiceError("hand.not_yours")
        rally = await self.work.rally_here(place)
        require_running(rally)
        game = game_of(rally)
        seat = str(actor.user_id)
        view = game.rules.view(await self.answered_state(rally), seat)
        if game.narrator.seat_name(view, seat) is None:
            raise ServiceError("hand.no_seat")
        hand = game.hidden.hand(view) if game.hidden is not None else None
        if hand is None:
            raise ServiceError("hand.nothing_hidden")
        turn = TurnPrompt(rally.id, rally.version, actor.user_id, hand.picks, game.id) if hand.picks else None
        return Reply(list(hand.lines), ephemeral=True, turn=turn)

    async def options(self, place: Place, actor: Actor) -> list[str]:
        """What this user may type next (autocomplete): the labels of the game's legal actions for
        their seat; empty when they have none."""
        if place.guild_id <= 0:
            return []
        rally = await self.work.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None or rally.status != "running":
            return []
        game = game_of(rally)
        state = await self.answered_state(rally)
        return [game.commands.label(a) for a in game.rules.legal_actions(state, str(actor.user_id))]

    async def answered_state(self, rally: Rally) -> State:
        """The rally's state with the answers kept in its open window given (what a seat's own
        hand and picks are read from: its answer shown, nothing more to pick)."""
        state = self.work.state_of(rally)
        game = game_of(rally)
        if not asked_together(game, state):
            return state
        return with_answers(game, state, await kept_answers(self.work.store, rally.id))


def checked_option(option: VerbOption, value: object) -> object:
    """An option's value as a command may carry it: a yes/no must be one, a text goes through
    `text_option` (trimmed, bounded, printable, mentions neutralised)."""
    if option.kind == "bool":
        if not isinstance(value, bool):
            raise ServiceError("input.not_yes_no", option=option.name)
        return value
    return text_option(option.name, value, MAX_COMMAND_TEXT)


def turn_post(rally_id: int, version: int, state: State, events: list[Any], lead: list[str],
              change: Change, game: str | None = None, ruleset: str | None = None,
              ghost: Mapping[str, Any] | None = None) -> Post | None:
    """The channel post after an action (the story, then the next prompt or the results), added
    to `change`, all from the game's spectator view; when the turn passed or the rally ended, the
    change also ends the turn's clock. The board image goes with a new turn (not every die) so the
    channel stays readable; a part of the game that closed (`Told.chapters`: a special of a longer
    rally) goes first, in its own post with the results card. An answer in a window several
    seats answer that tells nothing and closes nothing posts nothing (None): the channel must not
    learn who has answered (RULES C10.8). A run racing a `ghost` (its rally's `modules["ghost"]`,
    `bot.services.league.ghost_board`) has it drawn on each new turn's board and its gap told after each
    turn and at the end."""
    played = games.get(game)
    view = played.rules.view(state, None)
    told = played.narrator.tell(view, events)
    for chapter in told.chapters:  # a part's results: said provisional too when they are
        change.posts.append(Post(list(lead) + list(chapter) + provisional_lines(played.id, ruleset),
                                 image=results_spec(state, played.id)))
        lead = []
    lines = list(lead) + list(told.lines)
    prompt = played.narrator.prompt(view, events)
    if is_finished(played.rules, state) or not prompt.to_act:
        lines += played.narrator.classification(view) + provisional_lines(played.id, ruleset)
        lines += with_ghost(played, state, None, ghost)[1]
        post = Post(lines, image=results_spec(state, played.id), close_turn=True)
        change.end_turn_clock = True
        change.posts.append(post)
        return post
    if not lines and len(prompt.to_act) > 1 and not prompt.new_turn:
        return None
    board = board_spec(state, played.id) if prompt.new_turn else None
    if prompt.new_turn:
        board, gap = with_ghost(played, state, board, ghost)
        lines += gap
    change.end_turn_clock = change.end_turn_clock or prompt.new_turn
    seat = min(prompt.to_act)
    driver_id = int(seat) if seat.lstrip("-").isdigit() else 0
    if len(prompt.to_act) > 1 or (prompt.private and not is_ai(driver_id)):
        post = _private_prompt(rally_id, version, prompt, lines, played.id, board)
        change.posts.append(post)
        return post
    if is_ai(driver_id):  # an AI seat (bot/services/play/ai_drivers.py): it drives as soon as this is delivered
        lines.append(msg("turn.ai_drives", name=played.narrator.seat_name(view, seat)))
        post = Post(lines, turn=TurnPrompt(rally_id, version, driver_id, (), played.id), image=board)
    else:
        lines += prompt.lines
        post = Post(lines, ping=(driver_id,) if prompt.new_turn and driver_id else (),
                    turn=TurnPrompt(rally_id, version, driver_id, prompt.buttons, played.id,
                                    tuple(b for b in prompt.buttons if b in prompt.certain_loss)),
                    deadline="new" if prompt.new_turn else "keep", image=board)
    change.posts.append(post)
    return post


def _private_prompt(rally_id: int, version: int, prompt: Prompt, lines: list[str], game: str,
                    board: dict[str, Any] | None) -> Post:
    """The channel post of a decision taken in private (`Prompt.private`) or by several seats at
    once: the game's public words, the people among them pinged on a new turn, and no action
    button, only the one that opens each seat's own hand (`HAND`). Every seat asked is treated
    alike, so the post says nothing of who holds what (RULES C10.8). A prompt for one seat names
    it in `driver_id` (it is that seat's turn); a window of several names none (0)."""
    people = tuple(sorted(int(s) for s in prompt.to_act if s.isdigit()))
    driver_id = int(next(iter(prompt.to_act))) if len(prompt.to_act) == 1 and people else 0
    return Post(list(lines) + list(prompt.lines), ping=people if prompt.new_turn else (),
                turn=TurnPrompt(rally_id, version, driver_id, (HAND,) if people else (), game),
                deadline="new" if prompt.new_turn else "keep", image=board)


def reply_of(post: Post | None, committed: Committed) -> Reply:
    """The command's answer: what was posted (already owed to the channel by the commit); an
    answer that posts nothing (a window's) is told privately that it was saved."""
    if post is None:
        return Reply([msg("turn.answer_saved")], ephemeral=True)
    return Reply(list(post.lines), ping=post.ping, turn=post.turn, outbox=committed.outbox_ids,
                 paused=committed.paused)
