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
from bot.engine.rallyman.action_codec import CodecError, Start, Status, from_text, log_problem
from bot.engine.rallyman.actions import Retire, Timeout

__all__ = ["log_problem", "replay_snapshot", "replay_state", "replay_states"]


def replay_state(rally_row: dict, actions: list[dict]) -> Any:
    """The game state after the logged actions (None while the rally never started)."""
    last: Any = None
    for last in iter_states(rally_row, actions):  # noqa: B007 - the last one is the answer
        pass
    return last


def replay_states(rally_row: dict, actions: list[dict]) -> list[Any]:
    """The state after each logged action from the start on (a run's turn-by-turn replay)."""
    return [state for state in iter_states(rally_row, actions) if state is not None]


def iter_states(rally_row: dict, actions: list[dict]) -> Iterator[Any]:
    """The state after each logged entry (None before the start), in the game of the rally's row
    (`rallies.game`, through `bot.games`: an unknown game is refused naming the games). The
    rally's own entries (start, status) are read here; every move is the game's to decode and
    apply, for the seat that logged it (the rally's or the bot's doing, retire and timeout, for
    no seat: the game finds whose it is)."""
    game = games.get(rally_row.get("game"))
    names = {str(d["user_id"]): d["display_name"] for d in rally_row.get("drivers", [])}
    state: Any = None
    for entry in actions:
        text = entry["action"]
        try:
            logged = from_text(text)
        except CodecError as exc:
            raise CodecError(f"action {entry.get('seq')} ({text!r}): {exc}") from None
        if isinstance(logged, Start):
            state, _ = game.setup(rally_row["seed"], [(i, names.get(i, i)) for i in logged.seats],
                                  {"stage": rally_row["stage"], "ruleset": rally_row["ruleset"],
                                   "modules": rally_row.get("modules")})
        elif isinstance(logged, Status):
            pass  # lifecycle only (abandoned ...): the game state does not change
        elif state is None:
            raise ValueError(f"action {entry.get('seq')} ({text!r}) comes before the rally started")
        else:
            actor = entry.get("actor")
            seat = None if isinstance(logged, (Retire, Timeout)) or actor is None else str(actor)
            state, _ = game.apply(state, seat, game.decode(text))  # type: ignore[arg-type]
        yield state


def replay_snapshot(rally_row: dict, actions: list[dict]) -> str | None:
    state = replay_state(rally_row, actions)
    return games.get(rally_row.get("game")).to_json(state) if state is not None else None
