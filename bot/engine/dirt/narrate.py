"""DIRT's events as messages for spectators: each kind through its own key (`EVENT_KEYS`), and the
codes inside params (dice, tokens, causes, reasons) through closed word tables, never a key built
from a value. A test checks every table against every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.dirt.events import EVENT_KEYS
from bot.engine.dirt.stages.catalogue import load_stage

TOKEN_WORDS = {"ok": "dirt.token_ok", "coast": "dirt.token_coast", "minus_one": "dirt.token_minus_one",
               "brake": "dirt.token_brake"}
CAUSE_WORDS = {"hazards": "dirt.cause_hazards", "overspeed": "dirt.cause_overspeed", "jump": "dirt.cause_jump"}
REASON_WORDS = {"knocked_out": "dirt.reason_knocked_out", "overspeed": "dirt.reason_overspeed",
                "jump": "dirt.reason_jump", "damage": "dirt.reason_damage", "retired": "dirt.reason_retired"}
DIE_WORDS = {"coast": "dirt.word_coast_die", "leader": "dirt.word_leader_die"}


def _die(params: dict[str, Any]) -> str:
    die, brakes = params["die"], params["brakes"]
    if die in DIE_WORDS:
        return msg(DIE_WORDS[die])
    if brakes:
        return msg("dirt.word_braked_gear_die", gear=die,
                   brakes=msg("dirt.word_brake_dice.one" if brakes == 1 else "dirt.word_brake_dice.other", n=brakes))
    return msg("dirt.word_gear_die", gear=die)


def _params(event: Event) -> dict[str, Any]:
    p = dict(event.params)
    if "token" in p:
        p["token"] = msg(TOKEN_WORDS[p["token"]])
    if "cause" in p:
        p["cause"] = msg(CAUSE_WORDS[p["cause"]])
    if "stage_name" in p:
        p["stage_name"] = load_stage(p["stage_name"]).title
    if "reason" in p:
        p["reason"] = msg(REASON_WORDS[p["reason"]])
    if event.kind == "dirt_roll":
        p["die"] = _die(event.params)
    for key in ("order", "times", "results"):
        p.pop(key, None)
    if event.driver is not None:
        p["seat"] = event.driver
    return p


def narrate(events: Sequence[Event], names: dict[str, str] | None = None) -> list[str]:
    """One message per event; `names` (seat → name) names the drivers (the seat id otherwise)."""
    out = []
    for event in events:
        params = _params(event)
        params["name"] = (names or {}).get(event.driver or "", event.driver or "")
        out.append(msg(EVENT_KEYS[event.kind], **params))
    return out
