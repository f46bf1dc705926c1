"""`python -m bot simulate`: a whole rally driven by the AI, as one JSON object (for organisers).

    python -m bot simulate --stages pinewood-sprint,frozen-lakes,black-moor --drivers 4 --seed 7

Plays the course with AI drivers (RULES A2: specials in order; A3 start orders; A16 assistance
after each special unless `--assistance` says otherwise) and prints, per special, each driver's
time, second markers, damage, flats and outcome; the reclassification after each special; and
the rally classification (A17); and, under "ai", how often the AI drivers lost control (turns
begun, losses of control in total and by gear, and per 100 turns). The same arguments always
print the same rally. Stages are shipped names or generated ones (`gen-SEED` or `gen-SEED-LENGTH`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli import Subparsers

ENGINE_MODULES = ("sisu", "shakedown", "attack", "seconds", "weather", "splits")


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("simulate", help="play a whole rally with AI drivers and print it as JSON",
                              description="Play a course of 1 to 4 specials with AI drivers; one JSON object.")
    p.add_argument("--stages", required=True, help="comma-separated stage names (1 to 4), e.g. a,b,c")
    p.add_argument("--drivers", type=int, default=4, help="1 to 4 AI drivers (default 4)")
    p.add_argument("--seed", type=int, default=0, help="dice seed (the same seed gives the same rally)")
    p.add_argument("--assistance", default="all", help="all (default), none, or special numbers such as 1,2")
    p.add_argument("--modules", default="", help=f"rule modules, comma-separated: {', '.join(ENGINE_MODULES)}")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from bot.engine.core.errors import RallyError
    from bot.services.inputs import assistance, course

    try:
        stages = course(args.stages)
        flags = assistance(args.assistance, len(stages))
        modules = _modules(args.modules)
        if not 1 <= args.drivers <= 4:
            raise ValueError(f"--drivers is 1 to 4, not {args.drivers}")
        if not 0 <= args.seed < 2**63:
            raise ValueError(f"--seed is a whole number from 0 to 2**63-1, not {args.seed}")
    except (RallyError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(simulate(stages, args.drivers, args.seed, flags, modules), ensure_ascii=False))
    return 0


def _modules(text: str) -> dict[str, bool]:
    """The modules named, each one the engine offers (`Modules` of bot/engine/rallyman/ruleset.py)."""
    from bot.engine.rallyman.ruleset import Modules

    names = [n.strip() for n in text.split(",") if n.strip()]
    known = [m for m in ENGINE_MODULES if m in Modules.model_fields]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown module(s): {', '.join(unknown)}; known: {', '.join(known)}")
    return {n: True for n in names}


def simulate(stages: list[str], drivers: int, seed: int, assistance: list[bool],
             modules: dict[str, bool] | None = None) -> dict[str, Any]:
    """The rally as plain data (see the module docstring)."""
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.course import Course
    from bot.engine.rallyman.game import apply, new_game
    from bot.engine.rallyman.rally_classification import rally_classification
    from bot.engine.rallyman.simulate import LocTally, ai_seats
    from bot.engine.rallyman.stages.catalogue import load_stage

    course = Course(list(stages), list(assistance))
    state = new_game(stages[0], ai_seats(drivers), seed=seed, modules=modules, course=course)
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
    return {"stages": list(stages), "drivers": drivers, "seed": seed, "modules": sorted(modules or {}),
            "specials": specials, "reclassifications": reclassifications,
            "classification": reclassifications[-1]["rows"] if reclassifications else [], "actions": actions,
            "ai": tally.as_dict()}


def _table(rows: list[Any]) -> list[dict[str, Any]]:
    return [{"rank": r.rank, "id": r.driver, "name": r.name, "times": list(r.times), "total": r.total,
             "gap": r.gap, "outcome": r.reason or "classified"} for r in rows]
