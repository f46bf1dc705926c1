"""Rebuilding a rally from its action log: the log is the truth, the snapshot its cache.

Used by `python -m bot db check` and by tests: every stored snapshot must equal this replay. The
log holds the canonical entries of `bot.engine.rallyman.action_codec`, never the drivers' grammar, so it
replays the same whatever language the commands were typed in. `log_problem` is the check of one
logged text that `db check` runs beside the replay.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from bot.engine.rallyman.action_codec import CodecError, Start, Status, from_text, log_problem
from bot.engine.rallyman.actions import Retire, Timeout
from bot.engine.rallyman.game import Seat, apply
from bot.engine.rallyman.state import GameState
from bot.services.lobby import start_state
from bot.services.work import snapshot_json

__all__ = ["log_problem", "replay_snapshot", "replay_state", "replay_states"]


def replay_state(rally_row: dict, actions: list[dict]) -> GameState | None:
    """The game state after the logged actions (None while the rally never started)."""
    last: GameState | None = None
    for last in iter_states(rally_row, actions):  # noqa: B007 - the last one is the answer
        pass
    return last


def replay_states(rally_row: dict, actions: list[dict]) -> list[GameState]:
    """The state after each logged action from the start on (a run's turn-by-turn replay)."""
    return [state for state in iter_states(rally_row, actions) if state is not None]


def iter_states(rally_row: dict, actions: list[dict]) -> Iterator[GameState | None]:
    """The state after each logged entry (None before the start)."""
    names = {str(d["user_id"]): d["display_name"] for d in rally_row.get("drivers", [])}
    state: GameState | None = None
    for entry in actions:
        text = entry["action"]
        try:
            logged = from_text(text)
        except CodecError as exc:
            raise CodecError(f"action {entry.get('seq')} ({text!r}): {exc}") from None
        if isinstance(logged, Start):
            seats = [Seat(i, names.get(i, i)) for i in logged.seats]
            state = start_state(rally_row["stage"], rally_row["ruleset"], rally_row["seed"],
                                rally_row.get("modules"), seats)
        elif isinstance(logged, Status):
            pass  # lifecycle only (abandoned ...): the game state does not change
        elif state is None:
            raise ValueError(f"action {entry.get('seq')} ({text!r}) comes before the rally started")
        elif isinstance(logged, (Retire, Timeout)):
            state, _ = apply(state, logged)  # the rally's or the bot's doing, not a driver's move
        else:
            actor = entry.get("actor")
            state, _ = apply(state, replace(logged, driver=str(actor) if actor is not None else None))
        yield state


def replay_snapshot(rally_row: dict, actions: list[dict]) -> str | None:
    state = replay_state(rally_row, actions)
    return snapshot_json(state) if state is not None else None
