"""DIRT engine benchmark (`python -m bot bench engine --game dirt`): whole stages driven by
4 AI drivers, one AI action against a state clone, and the exact odds.

Prints one JSON line with classic's keys: stages_per_s on the shipped DIRT stage of median length
(by tiles; the longest too, as stages_per_s_longest), action_us (one AI action: choose + apply,
median per repeat), clone_us (the same-run baseline: `DirtState.clone()` of the states those
actions met, timed at the same moments), actions_per_clone (goal ≤ 4), odds_us (the exact chance
that the roll the AI picks loses control, as `/odds` and the AI work it out; goal ≤ 100). Medians
over repeats (2 noisy cores). Goal: ≥ 500 stages/s.

What makes an action quick ("Speed"; every outcome byte-identical, checked by
tests/dirt/test_dirt_speed_paths.py, tests/dirt/test_dirt_reach.py and tests/dirt/test_dirt_probe.py
and the `simulate` hashes). Third pass: `apply` plays on the state it is given (as python-chess
pushes a move onto its board and OpenSpiel's `apply_action` changes its state; every refusal comes
before the first change) — no copy per action; the `Game` adapter (`protocol.Dirt.apply`, the
services' path, which ends in this same `engine.apply`) clones once per command, so the state it is
given never changes. The end-of-turn check of a step keeps what it worked out — the dice key (now
always from the step's own, special spaces too), the steps allowed, the car's `Reach` — on the
state as its `probe` (`probe.py`; dropped by any other change), and the AI's choice and the next
step's check take it from there instead of working it out again. Smaller: steps by dice key in
one dict, a step's membership by identity, dice rolled inline, the target no word names asks each
space once, `no_tokens` by `dict.fromkeys`. Earlier passes: a step forked the state (copying only
the moving car; gone now); where a step may go is read from tables compiled once per stage
(`DirtStage.tables`: each word's target, the lane kept with no word, overlaps, jumps' landings,
poses, the finish) with the other cars' places gathered once per question (`reach.Reach`, moved
along with the car); the dice steps allowed are cached on the few numbers they depend on (one
`Step` object per value); `check_roll` has a quick path and keeps the plain one for the refusals.
The AI ranks the legal rolls as they are met, without listing them, remembers its best roll on
the plain values it depends on (`ai._best_known`) and caches its risk test. The stage and AI
caches live as long as the process, as in a running bot: the warm-up stages fill them.
"""

from __future__ import annotations

import statistics
import time

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Roll
from bot.engine.dirt.move_odds import loss_chance
from bot.engine.dirt.simulate import ai_seats
from bot.engine.dirt.stages.catalogue import load_stage, stage_names


def _by_length() -> list[str]:
    return sorted(stage_names(), key=lambda n: (len(load_stage(n).tiles), n))


def _stage(stage: str, seed: int) -> tuple[int, float, float]:
    """Drive one stage with 4 AI drivers: (actions, seconds in actions, seconds in clones of the
    states the actions met)."""
    state, _ = engine.new_rally(ai_seats(4), [stage], dice=SeededDice(seed))
    clock = time.perf_counter
    actions, acting, cloning = 0, 0.0, 0.0
    while not engine.finished(state):
        seat = state.to_act()
        t0 = clock()
        state.clone()
        t1 = clock()
        state, _ = engine.apply(state, seat, ai.choose(state, seat))
        t2 = clock()
        cloning += t1 - t0
        acting += t2 - t1
        actions += 1
        if actions > 20_000:
            raise RuntimeError(f"{stage} seed {seed}: the AI did not finish")
    return actions, acting, cloning


def _stages_per_s(stage: str, seeds: range) -> float:
    start = time.perf_counter()
    for seed in seeds:
        state, _ = engine.new_rally(ai_seats(4), [stage], dice=SeededDice(seed))
        while not engine.finished(state):
            seat = state.to_act()
            state, _ = engine.apply(state, seat, ai.choose(state, seat))
    return len(seeds) / (time.perf_counter() - start)


def _odds_us(stage: str, samples: int = 300) -> float:
    """Median time of what `/odds` and the AI ask (`move_odds.loss_chance`: the move played on
    clones with every draw) for the roll the AI picks, at the states of a 4-AI stage."""
    state, _ = engine.new_rally(ai_seats(4), [stage], dice=SeededDice(11))
    times = []
    while not engine.finished(state) and len(times) < samples:
        seat = state.to_act()
        action = ai.choose(state, seat)
        if isinstance(action, Roll):
            t0 = time.perf_counter()
            loss_chance(state, seat, action)
            times.append((time.perf_counter() - t0) * 1e6)
        state, _ = engine.apply(state, seat, action)
    return statistics.median(times)


def run(repeats: int = 5, stages_per_repeat: int = 10) -> dict:
    stages = _by_length()
    stage, longest = stages[len(stages) // 2], stages[-1]
    _stages_per_s(stage, range(1000, 1005))  # warm the stage and AI caches, as a running bot has them
    rates, action_us, clone_us, ratios, per_stage = [], [], [], [], []
    for r in range(repeats):
        seeds = range(r * stages_per_repeat, (r + 1) * stages_per_repeat)
        rates.append(_stages_per_s(stage, seeds))
        n = acting = cloning = 0.0
        for seed in seeds:
            a, t_act, t_clone = _stage(stage, seed)
            n += a
            acting += t_act
            cloning += t_clone
        action_us.append(acting / n * 1e6)
        clone_us.append(cloning / n * 1e6)
        ratios.append(acting / cloning)
        per_stage.append(n / len(seeds))
    return {"bench": "engine", "game": "dirt", "stage": stage, "tiles": len(load_stage(stage).tiles),
            "stages_per_s": round(statistics.median(rates), 1),
            "stages_per_s_longest": round(_stages_per_s(longest, range(50, 55)), 1), "longest": longest,
            "actions_per_stage": round(statistics.median(per_stage), 1),
            "action_us": round(statistics.median(action_us), 1), "clone_us": round(statistics.median(clone_us), 1),
            "actions_per_clone": round(statistics.median(ratios), 2),
            "odds_us": round(_odds_us(stage), 1),
            "goals": {"stages_per_s": 500, "actions_per_clone": 4, "odds_us": 100}}
