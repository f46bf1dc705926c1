"""Exact odds of losing control for a planned sequence of dice (the private risk preview).

The road a plan drives is fixed once the dice are chosen; only the ⚠ faces are random. So the
plan is first driven with dice that never show ⚠ (finding refusals and certain losses of control:
over-speed, bump N+2), then the chances are summed exactly over every ⚠ pattern, die by die,
from the hazard faces of the ruleset (RULES A1, A11.1). No sampling. A SISU card not yet played
is not counted: the preview shows the risk taken without it.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine.rallyman.actions import Attack, Roll
from bot.engine.rallyman.attack import attack_odds
from bot.engine.rallyman.game import actor_index, drive_clean
from bot.engine.rallyman.moves.move import KO, LOC, Move
from bot.engine.rallyman.odds_model import Odds, Step
from bot.engine.rallyman.stages.model import Surface
from bot.engine.rallyman.state import GameState


def plan_steps(state: GameState, plan: Roll) -> tuple[Step, ...]:
    """Drive the plan without ⚠ and note, per die, what could happen on it."""
    actor_index(state, plan)  # refuses a plan for a driver whose turn it is not
    rules = state.rules
    shake = rules.modules.shakedown
    steps = []
    for die, move in drive_clean(state, replace(plan, end=False)):
        target = move.target
        snow = False
        if target >= 0:
            space = state.stage.spaces[target]
            snow = space.surface(space.zone in state.stage.snow_zones) is Surface.SNOW
        p = 0.0 if shake else rules.hazard_probability(die)
        certain = move.outcome if move.outcome in (LOC, KO) else ""
        steps.append(Step(die, p, certain, move.bump_risk and not shake, snow))
    return tuple(steps)


def odds(state: GameState, plan: Roll | Attack) -> Odds:
    """Chance that `plan` ends in a loss of control (or knock-out) for the driver to play. For a
    time-attack group (A18): with the best order chosen after the roll (`attack.attack_odds`)."""
    if isinstance(plan, Attack):

        return attack_odds(state, plan)
    steps = plan_steps(state, plan)
    turn = state.current_turn()
    car = state.cars[turn.car]
    rules = state.rules
    limit, snow_limit = rules.hazard_limit, rules.snow_hazard_limit
    watch_snow = car.tires == "asphalt"
    if turn.sisu_active:  # ⚠ no longer counts this turn (A22): only certain losses remain
        certain = next((s.certain for s in steps if s.certain), "")
        return Odds(1.0 if certain else 0.0, 1.0 if certain == KO else 0.0, steps)
    alive = {(turn.hazards, turn.snow_hazards): 1.0}
    lost = ko = 0.0
    for step in steps:
        if step.certain:
            mass = sum(alive.values())
            lost += mass
            if step.certain == KO:
                ko += mass
            alive = {}
            break
        nxt: dict[tuple[int, int], float] = {}
        for (h, hs), mass in alive.items():
            if step.hazard_p < 1.0:
                nxt[(h, hs)] = nxt.get((h, hs), 0.0) + mass * (1.0 - step.hazard_p)
            if step.hazard_p > 0.0:
                h2, hs2 = h + 1, hs + (1 if step.snow else 0)
                m = mass * step.hazard_p
                if step.bump_risk or h2 >= limit or (watch_snow and rules.snow_count(h2, hs2) >= snow_limit):
                    lost += m
                else:
                    nxt[(h2, hs2)] = nxt.get((h2, hs2), 0.0) + m
        alive = nxt
    return Odds(lost, ko, steps)



def die_risk(state: GameState, die: str, move: Move) -> float:
    """Exact chance that one die, whose move is `move`, ends in a loss of control: the one-die
    case of `odds` without driving a copy of the state (the AI asks this thousands of times)."""
    if move.outcome in (LOC, KO):
        return 1.0
    rules = state.rules
    turn = state.current_turn()
    if rules.modules.shakedown or turn.sisu_active:
        return 0.0
    p = rules.hazard_probability(die)
    if move.bump_risk or turn.hazards + 1 >= rules.hazard_limit:
        return p
    if state.cars[turn.car].tires == "asphalt":
        snow = False
        if move.target >= 0:
            space = state.stage.spaces[move.target]
            snow = space.surface(space.zone in state.stage.snow_zones) is Surface.SNOW
        if rules.snow_count(turn.hazards + 1, turn.snow_hazards + snow) >= rules.snow_hazard_limit:
            return p
    return 0.0
