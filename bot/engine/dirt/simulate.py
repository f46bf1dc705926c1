"""`python -m bot simulate --game dirt`: a whole DIRT rally driven by the AI, as plain data: per
stage each driver's time, damage tokens and outcome; the rally's classification; and
how the AI drove (turns, losses of control by the gear of the die that lost it, DNFs). The same
arguments always give the same rally (seeded dice in the state)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.classification import rally_rows
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.state import DirtState

MAX_ACTIONS = 100_000
#: the events in which a driver draws a damage token (B10, B13.3, B13.4)
DRAWS = ("dirt_damage", "dirt_shortcut", "dirt_minus_one")
AI_NAMES = ("Aino Lampi", "Colin Reid", "Marta Sainz", "Henri Toivo", "Petra Solb", "Walt Röhr")


def ai_seats(count: int) -> list[tuple[str, str]]:
    return [(f"ai{i + 1}", AI_NAMES[i % len(AI_NAMES)]) for i in range(count)]


def modules_named(text: str) -> dict[str, bool]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n != "sisu"]
    if unknown:
        raise ValueError(f"unknown module(s): {', '.join(unknown)}; known: sisu")
    return {n: True for n in names}


def play(stages: list[str], drivers: int, seed: int, assistance: list[bool] | None = None,
         modules: dict[str, bool] | None = None) -> tuple[DirtState, dict[str, Any]]:
    """Drive a rally to its end with the AI; the final state and the AI's tally."""
    state, _ = engine.new_rally(ai_seats(drivers), stages, dice=SeededDice(seed), assistance=assistance or [],
                                modules=modules or {})
    actions = turns = 0
    losses: Counter[int] = Counter()
    drawn: dict[tuple[int, str], Counter[str]] = {}
    while not engine.finished(state) and actions < MAX_ACTIONS:
        seat = state.to_act()
        assert seat is not None, "a running rally always has a seat to act"
        action = ai.choose(state, seat)
        gear, stage = state.cars[seat].gear, state.stage_index
        state, events = engine.apply(state, seat, action)
        actions += 1
        for event in events:
            if event.kind == "dirt_turn_end":
                turns += 1
            if event.kind == "dirt_lost_control":
                losses[int(event.params.get("gear", gear))] += 1
            token = "minus_one" if event.kind == "dirt_minus_one" else event.params.get("token")
            if event.kind in DRAWS and event.driver is not None and token:
                drawn.setdefault((stage, event.driver), Counter())[str(token)] += 1
    tally = {"actions": actions, "turns": turns, "losses_of_control": sum(losses.values()),
             "loc_per_100_turns": round(100 * sum(losses.values()) / turns, 2) if turns else 0.0,
             "loc_by_gear": {str(g): losses.get(g, 0) for g in range(0, 7)},
             "damage_drawn": {f"{stage + 1}:{seat}": dict(sorted(c.items()))
                              for (stage, seat), c in sorted(drawn.items())}}
    return state, tally


def simulate(stages: list[str], drivers: int, seed: int, assistance: list[bool], modules: str = "") -> dict[str, Any]:
    state, tally = play(stages, drivers, seed, assistance, modules_named(modules))
    names = dict(state.seats)
    per_stage = []
    for i, name in enumerate(stages):
        per_stage.append({"number": i + 1, "stage": name, "title": load_stage(name).title,
                          "assistance_after": assistance[i] if i < len(assistance) else None,
                          "drivers": [{"id": seat, "name": names[seat],
                                       "time": car.stage_times[i] if i < len(car.stage_times) else None,
                                       "damage_drawn": tally["damage_drawn"].get(f"{i + 1}:{seat}", {})}
                                      for seat, car in state.cars.items()]})
    rows = rally_rows(state)
    dnfs = [r.seat for r in rows if r.total is None]
    return {"game": "dirt", "rules": "provisional", "stages": stages, "drivers": drivers, "seed": seed,
            "modules": sorted(modules_named(modules)), "specials": per_stage,
            "classification": [{"rank": r.rank, "id": r.seat, "name": r.name, "times": list(r.times),
                                "total": r.total, "gap": r.gap, "outcome": r.reason or "classified"} for r in rows],
            "times": [r.total for r in rows if r.total is not None], "dnfs": len(dnfs), "ai": tally}
