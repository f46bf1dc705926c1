"""DIRT's events as messages for spectators: each kind through its own key (`EVENT_KEYS`), and the
codes inside params (dice, tokens, causes, reasons) through closed word tables, never a key built
from a value. A test checks every table against every language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core.events import Event
from bot.engine.core.text import Listed, msg
from bot.engine.dirt.events import EVENT_KEYS
from bot.engine.dirt.stages.catalogue import load_stage

TOKEN_WORDS = {"ok": "dirt.token_ok", "coast": "dirt.token_coast", "minus_one": "dirt.token_minus_one",
               "brake": "dirt.token_brake"}
CAUSE_WORDS = {"hazards": "dirt.cause_hazards", "overspeed": "dirt.cause_overspeed", "jump": "dirt.cause_jump"}
REASON_WORDS = {"knocked_out": "dirt.reason_knocked_out", "overspeed": "dirt.reason_overspeed",
                "jump": "dirt.reason_jump", "damage": "dirt.reason_damage", "retired": "dirt.reason_retired"}
DIE_WORDS = {"coast": "dirt.word_coast_die", "leader": "dirt.word_leader_die"}
#: how a car stands on the space it reached, when not plainly (B8 outside line, B9 slide)
POSE_WORDS = {"drift": "dirt.pose_drift", "slide": "dirt.pose_slide"}


def _where(params: dict[str, Any]) -> str:
    """The space a step reached, as a reader finds it on the board: its tile along the stage,
    and the outside line or the slide it is on."""
    where = msg("dirt.where", tile=params["tile"], tiles=params["tiles"])
    pose = POSE_WORDS.get(params["pose"])
    return msg("dirt.where_pose", where=where, pose=msg(pose)) if pose else where


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
        p["where"] = _where(event.params)
    for key in ("order", "times", "results"):
        p.pop(key, None)
    if event.driver is not None:
        p["seat"] = event.driver
    return p


def _rolls(rolls: Sequence[Event], name: str) -> str:
    """Several dice of one driver in a row (the AI's turn, a time attack): one line, each die
    with its ⚠, then where the car got to and the ⚠ of the turn."""
    dice = [msg("dirt.die_hazard", die=_die(e.params)) if e.params["hazards"] else _die(e.params) for e in rolls]
    last = rolls[-1].params
    return msg("dirt.event_rolls", name=name, dice=Listed(dice, "dot"), gear=last["gear"], where=_where(last),
               shown=last["shown"])


def narrate(events: Sequence[Event], names: dict[str, str] | None = None) -> list[str]:
    """One message per event, but one for a run of dice of the same driver (`_rolls`); `names`
    (seat → name) names the drivers (the seat id otherwise)."""
    out = []
    i = 0
    while i < len(events):
        event = events[i]
        name = (names or {}).get(event.driver or "", event.driver or "")
        run = 1
        while (event.kind == "dirt_roll" and i + run < len(events) and events[i + run].kind == "dirt_roll"
               and events[i + run].driver == event.driver):
            run += 1
        if run > 1:
            out.append(_rolls(events[i:i + run], name))
            i += run
            continue
        params = _params(event)
        params["name"] = name
        out.append(msg(EVENT_KEYS[event.kind], **params))
        i += 1
    return out
