"""Rebuilding a rally from its action log: the log is the truth, the snapshot its cache.

Used by `python -m bot db check` and by tests: every stored snapshot must equal this replay. The
log holds the canonical entries of `bot.engine.rallyman.action_codec`, never the drivers' grammar, so it
replays the same whatever language the commands were typed in. `log_problem` is the check of one
logged text that `db check` runs beside the replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot import games
from bot.engine.core.game import log_problem as game_log_problem
from bot.engine.core.log import CodecError, Start, Status
from bot.services.work import State

__all__ = ["log_problem", "replay_snapshot", "replay_state", "replay_states"]


def replay_state(rally_row: dict, actions: list[dict]) -> State | None:
    """The game state after the logged actions (None while the rally never started)."""
    last: State | None = None
    for last in iter_states(rally_row, actions):  # noqa: B007 - the last one is the answer
        pass
    return last


def replay_states(rally_row: dict, actions: list[dict]) -> list[State]:
    """The state after each logged action from the start on (a run's turn-by-turn replay)."""
    return [state for state in iter_states(rally_row, actions) if state is not None]


def iter_states(rally_row: dict, actions: list[dict]) -> Iterator[State | None]:
    """The state after each logged entry (None before the start), played by the rally's game."""
    for state, _ in iter_steps(rally_row, actions):
        yield state


def iter_steps(rally_row: dict, actions: list[dict], with_setup: bool = False
               ) -> Iterator[tuple[State | None, list[Any]]]:
    """(state, events) after each logged entry, played by the rally's game: the events its
    `apply` told (none for lifecycle entries; for the start entry none, or with `with_setup` the
    events of the game's `setup`, such as the first turn a career counts), what the web page's
    turn log tells."""
    game = games.get(rally_row.get("game"))
    names = {str(d["user_id"]): d["display_name"] for d in rally_row.get("drivers", [])}
    state: State | None = None
    for entry in actions:
        text = entry["action"]
        try:
            logged = game.decode(text)
        except CodecError as exc:
            raise CodecError(f"action {entry.get('seq')} ({text!r}): {exc}") from None
        events: list[Any] = []
        if isinstance(logged, Start):
            state, started = game.setup(rally_row["seed"], [(i, names.get(i, i)) for i in logged.seats],
                                        setup_options(rally_row))
            if with_setup:
                events = list(started)
        elif isinstance(logged, Status):
            pass  # lifecycle only (abandoned ...): the game state does not change
        elif state is None:
            raise ValueError(f"action {entry.get('seq')} ({text!r}) comes before the rally started")
        else:  # the game tells a driver's move from the rally's own (a timeout, a retirement)
            actor = entry.get("actor")
            state, events = game.apply(state, str(actor) if actor is not None else None, logged)
        yield state, events


def setup_options(rally_row: dict) -> dict:
    """What a rally row gives its game's `setup`: the stage, the ruleset and the modules."""
    return {"stage": rally_row["stage"], "ruleset": rally_row["ruleset"], "modules": rally_row.get("modules")}


def log_problem(text: str, game_id: str | None = None) -> str | None:
    """Why `text` is not a canonical log entry of the rally's game, or None when it is (`db check`)."""
    return game_log_problem(games.get(game_id), text)


def replay_snapshot(rally_row: dict, actions: list[dict]) -> str | None:
    state = replay_state(rally_row, actions)
    return games.get(rally_row.get("game")).to_json(state) if state is not None else None
