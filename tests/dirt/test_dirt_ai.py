"""The DIRT AI: over 200 simulated stages it never crashes, never plays an illegal
move, finishes, and beats a random legal player on median time; `simulate --game dirt` reports it."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.simulate import ai_seats, simulate
from bot.engine.dirt.stages.catalogue import stage_names
from bot.paths import ROOT

STAGES = 200


def drive(stage: str, seed: int, policy: str, drivers: int = 1) -> tuple[list[int | None], int]:
    """Drive one stage; every action chosen must be among the legal ones (B13.1)."""
    state, _ = engine.new_rally(ai_seats(drivers), [stage], dice=SeededDice(seed))
    rng = random.Random(seed)
    actions = 0
    while not engine.finished(state):
        seat = state.to_act()
        legal = engine.legal_actions(state, seat)
        action = ai.choose(state, seat) if policy == "ai" else rng.choice(legal)
        assert action in legal, (stage, seed, action)
        state, _ = engine.apply(state, seat, action)
        actions += 1
        assert actions < 5000, f"{stage} seed {seed}: no end"
    return [state.cars[s].stage_times[0] for s, _ in state.seats], actions


def test_over_200_stages_the_ai_plays_legally_finishes_and_beats_a_random_player():
    names = stage_names()
    mine, theirs, dnf = [], [], 0
    for i in range(STAGES):
        stage = names[i % len(names)]
        (time,), _ = drive(stage, i, "ai")
        (random_time,), _ = drive(stage, i, "random")
        if time is None:
            dnf += 1
        else:
            mine.append(time)
        if random_time is not None:
            theirs.append(random_time)
    assert dnf <= STAGES // 20  # it finishes (a knock-out by damage stays possible: B13.4)
    assert statistics.median(mine) < statistics.median(theirs)


def test_four_ai_drivers_share_the_road_on_every_shipped_stage():
    for i, stage in enumerate(stage_names()):
        times, _ = drive(stage, 100 + i, "ai", drivers=4)
        assert sum(t is not None for t in times) >= 3, (stage, times)


def test_the_ai_brakes_for_corners_it_never_enters_a_space_three_gears_over_its_limit():
    for i, stage in enumerate(stage_names()):
        state, _ = engine.new_rally(ai_seats(2), [stage], dice=SeededDice(i))
        while not engine.finished(state):
            seat = state.to_act()
            state, events = engine.apply(state, seat, ai.choose(state, seat))
            assert not any(e.kind == "dirt_knocked_out" and e.params.get("reason") in ("overspeed", "jump")
                           for e in events), (stage, i)


def test_simulate_reports_times_losses_of_control_by_gear_and_dnfs_the_same_for_the_same_seed():
    report = simulate(["dusty-pines", "sauna-hill"], 4, 7, [True])
    assert report == simulate(["dusty-pines", "sauna-hill"], 4, 7, [True])
    assert report["game"] == "dirt" and report["rules"] == "provisional"
    assert [s["stage"] for s in report["specials"]] == ["dusty-pines", "sauna-hill"]
    assert set(report["ai"]["loc_by_gear"]) == {str(g) for g in range(7)}
    assert len(report["classification"]) == 4 and report["dnfs"] == sum(
        r["total"] is None for r in report["classification"])
    totals = [r["total"] for r in report["classification"] if r["total"] is not None]
    assert totals == sorted(totals)


def test_the_simulate_command_prints_one_json_line():
    command = ["simulate", "--game", "dirt", "--stages", "dusty-pines,sauna-hill", "--drivers", "4", "--seed", "7"]
    out = subprocess.run([sys.executable, "-m", "bot", *command], capture_output=True, text=True, cwd=ROOT, check=True)
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["drivers"] == 4
