"""Rebuilding a rally from its action log: the log is the truth, the snapshot its cache.

Used by `python -m bot db check` and by tests: every stored snapshot must equal this replay.
"""

from __future__ import annotations

from bot.engine.actions import Retire, Timeout
from bot.engine.game import Seat, apply
from bot.engine.parse import parse
from bot.engine.state import GameState
from bot.services.lobby import start_state
from bot.services.work import snapshot_json


def replay_state(rally_row: dict, actions: list[dict]) -> GameState | None:
    """The game state after the logged actions (None while the rally never started)."""
    names = {str(d["user_id"]): d["display_name"] for d in rally_row.get("drivers", [])}
    state: GameState | None = None
    for entry in actions:
        text = entry["action"]
        word = text.split(" ", 1)[0]
        if word == "start":
            ids = text.split(" ", 1)[1].split(",")
            seats = [Seat(i, names.get(i, i)) for i in ids]
            state = start_state(rally_row["stage"], rally_row["ruleset"], rally_row["seed"],
                                rally_row.get("modules"), seats)
        elif word == "status":
            continue  # lifecycle only (abandoned ...): the game state does not change
        elif state is None:
            raise ValueError(f"action {entry.get('seq')} ({text!r}) comes before the rally started")
        elif word == "retire":
            state, _ = apply(state, Retire(text.split(" ", 1)[1]))
        elif word == "timeout":
            state, _ = apply(state, Timeout())
        else:
            actor = entry.get("actor")
            state, _ = apply(state, parse(text, driver=str(actor) if actor is not None else None))
    return state


def replay_snapshot(rally_row: dict, actions: list[dict]) -> str | None:
    state = replay_state(rally_row, actions)
    return snapshot_json(state) if state is not None else None
