"""Road Rally USA engine benchmark (`python -m bot bench engine --game roadrally`): whole
5-seat AI games on `rr-standard`, one AI decision as the services make it, and a seat's view.

Prints one JSON line: games_per_s (whole games of 5 AI seats on rr-standard, each on its seeded
course `std-SEED`, set-up included, one core); view_us (`view(state, seat)`, goal ≤ 50);
action_us (what follows the view: `ai.choose(view)` and `play.apply`); clone_us (the same-run
baseline: `RRState.clone()` of the states those actions met, timed at the same moments);
actions_per_clone = action_us / clone_us (goal ≤ 4); decision_us (view + choose + apply, the
whole of one AI seat's turn as a service makes it, for information). Per-action figures are
means per repeat of games; every figure is the median of the repeats (2 noisy cores).
Goal: ≥ 100 games/s.

The courses are laid before the clock starts (`load_course` keeps them, as a running bot does).
"""

from __future__ import annotations

import statistics
import time

from bot.engine.roadrally import ai
from bot.engine.roadrally import simulate as sim
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import apply, to_act
from bot.engine.roadrally.view import view

PLAYERS, PRESET = 5, "rr-standard"


def _games_per_s(seeds: range) -> float:
    t0 = time.perf_counter()
    for seed in seeds:
        sim.run(sim.start(PLAYERS, PRESET, seed))
    return len(seeds) / (time.perf_counter() - t0)


def _game(seed: int) -> tuple[int, float, float, float]:
    """One game, each action timed: (actions, seconds in choose + apply, in clones, in views)."""
    state = sim.start(PLAYERS, PRESET, seed)
    clock = time.perf_counter
    actions, acting, cloning, viewing = 0, 0.0, 0.0, 0.0
    while state.phase != "over":
        for seat in sorted(to_act(state)):  # as `simulate.run` asks them
            t0 = clock()
            state.clone()
            t1 = clock()
            seen = view(state, seat)
            t2 = clock()
            state, _ = apply(state, seat, ai.choose(seen))
            t3 = clock()
            cloning += t1 - t0
            viewing += t2 - t1
            acting += t3 - t2
            actions += 1
    return actions, acting, cloning, viewing


def run(repeats: int = 5, games_per_repeat: int = 10) -> dict:
    seeds = range(1000, 1000 + repeats * games_per_repeat)
    for seed in seeds:
        load_course(sim.course_name(PRESET, seed, False))
    _games_per_s(range(1000, 1003))  # warm-up
    rates, action_us, clone_us, view_us, decision_us, ratios, per_game = [], [], [], [], [], [], []
    for r in range(repeats):
        chunk = seeds[r * games_per_repeat:(r + 1) * games_per_repeat]
        rates.append(_games_per_s(chunk))
        n = acting = cloning = viewing = 0.0
        for seed in chunk:
            a, t_act, t_clone, t_view = _game(seed)
            n += a
            acting += t_act
            cloning += t_clone
            viewing += t_view
        action_us.append(acting / n * 1e6)
        clone_us.append(cloning / n * 1e6)
        view_us.append(viewing / n * 1e6)
        decision_us.append((viewing + acting) / n * 1e6)
        ratios.append(acting / cloning)
        per_game.append(n / len(chunk))
    return {"bench": "engine", "game": "roadrally", "preset": PRESET, "players": PLAYERS,
            "games_per_s": round(statistics.median(rates), 1),
            "actions_per_game": round(statistics.median(per_game), 1),
            "action_us": round(statistics.median(action_us), 1), "clone_us": round(statistics.median(clone_us), 2),
            "actions_per_clone": round(statistics.median(ratios), 2),
            "view_us": round(statistics.median(view_us), 1),
            "decision_us": round(statistics.median(decision_us), 1),
            "goals": {"games_per_s": 100, "actions_per_clone": 4, "view_us": 50}}

