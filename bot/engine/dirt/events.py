"""DIRT's events: every kind the engine emits, and the one way to make one.

Each kind is narrated by its own message key (`narrate.EVENT_KEYS`, a closed table checked in
every language by a test). Events are made through `ev`, whose kind is checked against the table,
so an unknown kind fails where it is made, never where it is shown.
"""

from __future__ import annotations

from typing import Any

from bot.engine.core.events import Event

#: every event kind of DIRT's engine, with its message key
EVENT_KEYS: dict[str, str] = {
    "dirt_stage_start": "dirt.event_stage_start",
    "dirt_round": "dirt.event_round",
    "dirt_turn": "dirt.event_turn",
    "dirt_roll": "dirt.event_roll",
    "dirt_sisu": "dirt.event_sisu",
    "dirt_lost_control": "dirt.event_lost_control",
    "dirt_damage": "dirt.event_damage",
    "dirt_shortcut": "dirt.event_shortcut",
    "dirt_minus_one": "dirt.event_minus_one",
    "dirt_bag_empty": "dirt.event_bag_empty",
    "dirt_jump": "dirt.event_jump",
    "dirt_attack": "dirt.event_attack",
    "dirt_spare": "dirt.event_spare",
    "dirt_stuck": "dirt.event_stuck",
    "dirt_turn_end": "dirt.event_turn_end",
    "dirt_finish": "dirt.event_finish",
    "dirt_knocked_out": "dirt.event_knocked_out",
    "dirt_retired": "dirt.event_retired",
    "dirt_stage_end": "dirt.event_stage_end",
    "dirt_assistance": "dirt.event_assistance",
    "dirt_rally_end": "dirt.event_rally_end",
}


def ev(kind: str, seat: str | None = None, **params: Any) -> Event:
    """An event of a known kind; params are JSON-safe (numbers, strings, lists)."""
    if kind not in EVENT_KEYS:
        raise ValueError(f"unknown DIRT event kind {kind!r}")
    return Event(kind, seat, params)
