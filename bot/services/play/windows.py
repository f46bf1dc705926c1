"""Windows that several seats answer at once (Road Rally USA's stage window, RULES C10.8): each
answer is tied to the window, not to the rally's version, and nothing public moves until the
window closes.

While a window is open (`asked_together`), a seat's answer is checked against the state as if
every answer kept so far were given (`with_answers`) and, if the window stays open, kept beside
the rally (`bot/store/window_answers.py`): the rally's version, snapshot, log and web page do not
change, nothing is posted, so no one can count or time the answers, and a seat's answer is never
refused because another seat answered first. The answer that completes the window (or its
deadline, or a retirement that leaves only seats that answered) closes it: the kept answers are
logged on the rally in one change, in the seats' order (never the order they came in), then
the closing action if one is due (the deadline's), and the kept rows are deleted. Only that
change is public: the post of the stage's result, one new version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from bot.engine.core.errors import RallyError
from bot.engine.core.game import Game, is_finished
from bot.engine.core.log import CodecError
from bot.services.work import Logged, State
from bot.store import Store
from bot.store.connection import Tx
from bot.store.window_answers import answers_tx, clear_tx

Kept = list[tuple[int, str]]  # (seat's user id, the answer's log entry), by user id


def asked_together(game: Game[Any, Any, Any, Any], state: State) -> frozenset[str]:
    """The seats a window asks all at once (`Prompt.to_act` of more than one, from the
    spectators' view: the whole window, answered or not); empty when one seat is to act."""
    if not game.rules.to_act(state):
        return frozenset()
    asked = game.narrator.prompt(game.rules.view(state, None), []).to_act
    return asked if len(asked) > 1 else frozenset()


async def kept_answers(store: Store, rally_id: int) -> Kept:
    """The answers kept for the rally's open window (none outside a window)."""
    return await store.db.read(lambda tx: answers_tx(tx, rally_id))


def with_answers(game: Game[Any, Any, Any, Any], state: State, kept: Kept) -> State:
    """The state as if the kept answers had been given, in the seats' order; an answer the state
    no longer takes (its seat retired meanwhile) is left out."""
    for user_id, text in kept:
        try:
            state, _ = game.rules.apply(state, str(user_id), game.rules.decode(text))
        except (RallyError, CodecError):
            continue
    return state


def still_open(game: Game[Any, Any, Any, Any], before: State, after: State) -> bool:
    """Whether the window open in `before` is still the one open in `after`."""
    return bool(asked_together(game, after)) and \
        game.rules.progress(game.rules.view(after, None)) == game.rules.progress(game.rules.view(before, None))


@dataclass
class Closing:
    """The change that closes a window: the state after it, the events, the logged entries."""

    state: State
    events: list[Any]
    logged: list[Logged]


def close(game: Game[Any, Any, Any, Any], state: State, answers: Sequence[tuple[int, str]],
          last: Any = None) -> Closing:
    """The window of `state` (the stored state) closed with `answers` (every kept answer and the
    new ones), logged in the seats' order, each by its seat; then `last` (the rally's own closing
    action, a deadline's) if the window is still open. Only the last entry carries the snapshot
    (the log replays the others)."""
    events: list[Any] = []
    logged: list[Logged] = []
    for user_id, text in sorted(answers):
        try:
            state, step = game.rules.apply(state, str(user_id), game.rules.decode(text))
        except (RallyError, CodecError):
            continue
        logged.append(Logged(text, user_id))
        events += step
    if last is not None and asked_together(game, state):
        state, step = game.rules.apply(state, None, last)
        logged.append(Logged(game.rules.encode(last), None))
        events += step
    if logged:
        final = logged[-1]
        logged[-1] = Logged(final.action, final.actor, state, "finished" if is_finished(game.rules, state) else None)
    return Closing(state, events, logged)


def clear_step(rally_id: int) -> Any:
    """The transaction step that forgets the rally's kept answers (its window closed)."""
    return partial(_clear, rally_id=rally_id)


async def _clear(tx: Tx, rally_id: int) -> None:
    await clear_tx(tx, rally_id)
