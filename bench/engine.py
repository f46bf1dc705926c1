"""Engine benchmark: whole specials driven by 4 AI drivers, and the exact-odds computation.

Prints one JSON line: {"bench":"engine","stages_per_s":…,"actions_per_stage":…,"odds_us":…}
plus the figures behind it. The headline stage is the shipped stage of median length (the
weekly generator's default length is 30 spaces); the longest shipped stage is measured too, as
`stages_per_s_longest`, since time grows with length. Speeds are medians over repeats (the
machine is shared and noisy);
the baseline measured in the same run is `GameState.clone()` (a full copy: every car) of every
state those stages pass through, each timed at the moment the action meets it (`_clone_us`), so
`actions_per_clone` says how many clones' worth of time one AI action costs (the median of the
repeats' ratios; each repeat replays its own stages for the clones right after timing them).
`clone_hot_us`, for information, is one state cloned again and again, hot in every cache (the
baseline printed before this round; 10–25 % lower). An action itself no longer pays a full clone:
`apply` forks the state, copying only the car that moves (`GameState.fork`).
The stage's compiled move tables and the AI's memory of its choices live as long as the process,
as in a running bot: `stages_per_s` is the steady state after WARM_STAGES other stages (other
seeds) filled them, and `stages_per_s_cold` the first 20 stages of the process, both empty.
Goals: ≥ 500 stages/s on the median stage, one AI action ≤ 4 clones, ≤ 100 µs per odds call
(the goals: ≥ 200 stages/s and < 1000 µs).
"""

from __future__ import annotations

import json
import statistics
import time

from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, new_game
from bot.engine.rallyman.odds import odds
from bot.engine.rallyman.simulate import ai_seats, play_stage


def _by_length() -> list[str]:
    from bot.engine.rallyman.stages.loader import load_stage, stage_names

    return sorted(stage_names(), key=lambda n: (load_stage(n).length, n))


def _stages_per_s(stage: str, seeds: range) -> tuple[float, float]:
    start = time.perf_counter()
    actions = 0
    for seed in seeds:
        state, n = play_stage(stage, drivers=4, seed=seed)
        assert state.finished, f"seed {seed} did not finish"
        actions += n
    elapsed = time.perf_counter() - start
    return len(seeds) / elapsed, actions / len(seeds)


def _odds_us(stage: str, samples: int = 200) -> float:
    """Median time of one odds call on a 3-die plan from mid-stage positions."""
    state = new_game(stage, ai_seats(4), seed=11)
    positions = []
    while state.turn is not None and len(positions) < samples:
        if not state.turn.started:
            positions.append(state)
        state, _ = apply(state, choose_action(state))
    times = []
    for s in positions:
        car = s.cars[s.turn.car]
        plan = _plan(s)
        if plan is None:
            continue
        t0 = time.perf_counter()
        try:
            odds(s, plan)
        except Exception:  # a plan the road refuses is still timed: it is a real call
            pass
        times.append((time.perf_counter() - t0) * 1e6)
        del car
    return statistics.median(times)


def _plan(state) -> Roll | None:
    g = state.turn.gear
    if g == 0:
        return Roll(("1", "W", "2"))
    dice = [str(g)] + (["W"] if state.cars[state.turn.car].flats < 2 else []) + ([str(g + 1)] if g < 5 else [])
    return Roll(tuple(dice))


def _clone_us(stage: str, seeds: range) -> float:
    """The baseline, like with like: one `GameState.clone()` of each state the AI actions of these
    stages run on, at the moment they run on it (the same states, just made by the action before,
    as warm in the caches as the action finds them); each clone is timed alone and the cost of
    the timer itself is taken off."""
    clock = time.perf_counter
    spent = timer = 0.0
    n = 0
    for seed in seeds:
        state = new_game(stage, ai_seats(4), seed=seed)
        while state.turn is not None:
            t0 = clock()
            state.clone()
            t1 = clock()
            t2 = clock()
            spent += t1 - t0
            timer += t2 - t1
            n += 1
            state, _ = apply(state, choose_action(state))
    return (spent - timer) / n * 1e6


def _clone_hot_us(stage: str, n: int = 2000) -> float:
    """For information: one mid-stage state cloned `n` times in a row (hot in every cache), the
    baseline printed before's last round."""
    state = new_game(stage, ai_seats(4), seed=3)
    for _ in range(40):
        if state.turn is None:
            break
        state, _ = apply(state, choose_action(state))
    t0 = time.perf_counter()
    for _ in range(n):
        state.clone()
    return (time.perf_counter() - t0) / n * 1e6


WARM_STAGES = 100  # stages played before the timed repeats (seeds apart from theirs)


def run(repeats: int = 7, stages_per_repeat: int = 20) -> dict:
    stages = _by_length()
    stage, longest = stages[len(stages) // 2], stages[-1]
    # a fresh process: the stage's move tables and the AI's memory empty (the first stages fill them)
    cold_rate, _ = _stages_per_s(stage, range(stages_per_repeat))
    # then the steady state of a running bot, which has met these situations before: the tables
    # are filled and the AI's memory answers most choices (a few % of them are still new)
    _stages_per_s(stage, range(10_000, 10_000 + WARM_STAGES))
    rates, per_stage, clones, ratios = [], [], [], []
    for r in range(repeats):
        # each repeat times its stages and then its clones, so the ratio compares like moments
        # of a machine whose speed drifts (shared cores)
        seeds = range(r * stages_per_repeat, (r + 1) * stages_per_repeat)
        rate, actions = _stages_per_s(stage, seeds)
        clone_us = _clone_us(stage, seeds)
        rates.append(rate)
        per_stage.append(actions)
        clones.append(clone_us)
        ratios.append(1e6 / (rate * actions) / clone_us)
    stages_per_s = statistics.median(rates)
    actions_per_stage = statistics.mean(per_stage)
    _stages_per_s(longest, range(10_000, 10_000 + WARM_STAGES // 2))
    longest_rate = statistics.median(_stages_per_s(longest, range(r * 10, r * 10 + 10))[0] for r in range(3))
    action_us = 1e6 / (stages_per_s * actions_per_stage)
    return {
        "bench": "engine",
        "stages_per_s": round(stages_per_s, 1),
        "stages_per_s_cold": round(cold_rate, 1),
        "actions_per_stage": round(actions_per_stage, 1),
        "odds_us": round(_odds_us(stage), 1),
        "stage": stage,
        "stages_per_s_longest": round(longest_rate, 1),
        "longest_stage": longest,
        "action_us": round(action_us, 1),
        "clone_us": round(statistics.median(clones), 2),
        "actions_per_clone": round(statistics.median(ratios), 2),
        "clone_hot_us": round(statistics.median(_clone_hot_us(stage) for _ in range(3)), 2),
    }


if __name__ == "__main__":
    print(json.dumps(run()))
