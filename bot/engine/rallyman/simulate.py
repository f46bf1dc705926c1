"""Whole specials driven by the AI: demos, previews, benchmarks and par times."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.engine.core.events import Event
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.board import board_view
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.game import Seat, apply, new_game
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.state import GameState
from bot.engine.rallyman.view import BoardView

AI_NAMES = ("Ada Vatanen", "Sébastien Roux", "Jürgen Kähler", "Ingrid Ødegaard")


def ai_seats(count: int) -> list[Seat]:
    return [Seat(f"ai{i + 1}", AI_NAMES[i % len(AI_NAMES)]) for i in range(count)]


def play_stage(stage: Stage | str, drivers: int = 4, seed: int = 0, max_actions: int = 5000):
    """Drive a whole special with AI drivers; returns (final state, number of actions)."""
    state = new_game(stage, ai_seats(drivers), seed=seed)
    actions = 0
    while state.turn is not None and actions < max_actions:
        state, _ = apply(state, choose_action(state))
        actions += 1
    return state, actions


def play_rally(stages: list[str], drivers: int = 4, seed: int = 0, assistance: list[bool] | None = None,
               max_actions: int = 20000, modules: dict[str, bool] | None = None) -> tuple[GameState, int]:
    """Drive a whole rally of several specials with AI drivers (RULES A2), with some rule
    `modules` on; returns (final state, number of actions). The course and its results are in
    `state.course`."""
    course = course_of(stages, assistance)
    state = new_game(stages[0], ai_seats(drivers), seed=seed, modules=modules, course=course)
    actions = 0
    while state.turn is not None and actions < max_actions:
        state, _ = apply(state, choose_action(state))
        actions += 1
    return state, actions


@dataclass
class LocTally:
    """How often AI drivers lose control: turns begun, and losses of control (A11, and A15.3 on
    the finish line) by the gear of the triggering die, fed the events of every action applied.
    What `simulate` prints so the AI's boldness can be read and tested."""

    turns: int = 0
    by_gear: dict[int, int] = field(default_factory=dict)

    def see(self, events: list[Event]) -> None:
        crashed = False
        for event in events:
            kind = event.kind
            if kind == "turn":
                self.turns += 1
            elif kind == "loss_of_control":
                self._count(int(event.params["gear"]))
            elif kind == "finish_crash":
                crashed = True
            elif kind == "finish" and crashed:  # the crash is told first, the gear with the finish
                self._count(int(event.params["gear"]))
                crashed = False

    def _count(self, gear: int) -> None:
        self.by_gear[gear] = self.by_gear.get(gear, 0) + 1

    def as_dict(self) -> dict:
        """Counts and rates per 100 turns begun, in total and by gear 1 to 5 (plain JSON data)."""
        def rate(n: int) -> float:
            return round(100 * n / self.turns, 2) if self.turns else 0.0

        total = sum(self.by_gear.values())
        return {"turns": self.turns, "losses_of_control": total, "loc_per_100_turns": rate(total),
                "loc_by_gear": {str(g): self.by_gear.get(g, 0) for g in range(1, 6)},
                "loc_per_100_turns_by_gear": {str(g): rate(self.by_gear.get(g, 0)) for g in range(1, 6)}}


def board_after_turns(stage: Stage | str, seed: int, turns: int, drivers: int = 4) -> BoardView:
    """The board after `turns` AI turns (the `render --turns` preview)."""
    state = new_game(stage, ai_seats(drivers), seed=seed)
    done = 0
    while state.turn is not None and done < turns:
        state, events = apply(state, choose_action(state))
        done += sum(1 for e in events if e.kind in ("turn", "stage_over"))
    return board_view(state)


#: the modules `simulate` may turn on (RULES A18–A21, and SISU and the shakedown)
ENGINE_MODULES = ("sisu", "shakedown", "attack", "seconds", "weather", "splits")


def modules_named(text: str) -> dict[str, bool]:
    """The modules named, each one the engine offers (`Modules` of bot/engine/rallyman/ruleset.py)."""
    from bot.engine.rallyman.ruleset import Modules

    names = [n.strip() for n in text.split(",") if n.strip()]
    known = [m for m in ENGINE_MODULES if m in Modules.model_fields]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown module(s): {', '.join(unknown)}; known: {', '.join(known)}")
    return {n: True for n in names}


def simulate(stages: list[str], drivers: int, seed: int, assistance: list[bool],
             modules: dict[str, bool] | None = None, ruleset: str = "classic") -> dict[str, Any]:
    """A whole course driven by the AI, as plain data (`python -m bot simulate`): per special, each
    driver's time, second markers, damage, flats and outcome (A2, A3, A16); the reclassification
    after each special and the rally classification (A17); under "ai", how often the AI lost
    control. The same arguments always give the same rally; `ruleset` is one of
    `data/rallyman/rulesets/` (an unknown one refused before anything is played)."""
    from bot.engine.rallyman.course import Course
    from bot.engine.rallyman.rally_classification import rally_classification
    from bot.engine.rallyman.stages.catalogue import load_stage

    course = Course(list(stages), list(assistance))
    state = new_game(stages[0], ai_seats(drivers), seed=seed, ruleset=ruleset, modules=modules, course=course)
    actions = 0
    tally = LocTally()
    while state.turn is not None and actions < 50_000:
        state, events = apply(state, choose_action(state))
        tally.see(events)
        actions += 1
    assert state.course is not None
    done = state.course
    specials = []
    reclassifications = []
    for i, rows in enumerate(done.results):
        specials.append({
            "number": i + 1, "stage": done.specials[i], "title": load_stage(done.specials[i]).title,
            "assistance_after": done.assistance[i] if i < len(done.specials) - 1 else None,
            "drivers": [{"id": r.id, "name": r.name, "time": r.time, "markers": r.markers,
                         "lost_black": r.lost_black, "flats": r.flats, "outcome": r.reason or "finished"}
                        for r in rows]})
        partial = Course(done.specials, done.assistance, i, done.results[: i + 1])
        reclassifications.append({"after": i + 1, "rows": _table(rally_classification(partial))})
    return {"stages": list(stages), "drivers": drivers, "seed": seed, "ruleset": ruleset,
            "modules": sorted(modules or {}),
            "specials": specials, "reclassifications": reclassifications,
            "classification": reclassifications[-1]["rows"] if reclassifications else [], "actions": actions,
            "ai": tally.as_dict()}


def _table(rows: list[Any]) -> list[dict[str, Any]]:
    return [{"rank": r.rank, "id": r.driver, "name": r.name, "times": list(r.times), "total": r.total,
             "gap": r.gap, "outcome": r.reason or "classified"} for r in rows]
