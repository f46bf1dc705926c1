"""RULES A3/A4: start order and the staggered start (AMB-1: interleaved default, FR consecutive)."""

from __future__ import annotations

from collections import Counter

import pytest
from rules_helpers import LONG, act, make_game, refused


def _simple_turn(state) -> str:
    """A quiet turn: the 1st-gear die from neutral, else one white die; then stop."""
    return "1 stop" if state.turn.gear == 0 else "W stop"


def _rounds(state, turns: int) -> list[tuple[int, int]]:
    """(round, seat) of the next `turns` turns, each played as a quiet turn."""
    played = []
    for _ in range(turns):
        played.append((state.round, state.cars[state.turn.car].seat))
        state, _ = act(state, _simple_turn(state))
    return played


def _by_round(played: list[tuple[int, int]]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for rnd, seat in played:
        out.setdefault(rnd, []).append(seat)
    return out


@pytest.mark.parametrize("n, expected", [
    (2, {1: [0], 2: [0, 1], 3: [0, 1]}),
    (3, {1: [0], 2: [0, 1], 3: [0, 1, 2], 4: [0, 1, 2]}),
    (4, {1: [0], 2: [0, 1], 3: [0, 1, 2], 4: [0, 1, 2, 3], 5: [0, 1, 2, 3]}),
])
def test_A4_2_interleaved_staggered_start_round_contents(n, expected):
    """A4.2 (default, EN/DE): in round k drivers 1..k of the start order take a turn; from round
    N+1 on, normal order."""
    state = make_game(LONG, drivers=n)
    turns = sum(len(v) for v in expected.values())
    assert _by_round(_rounds(state, turns)) == expected


@pytest.mark.parametrize("n, expected", [
    (2, [0, 0, 1]),
    (3, [0, 0, 0, 1, 1, 2]),
    (4, [0, 0, 0, 0, 1, 1, 1, 2, 2, 3]),
])
def test_A4_2_consecutive_staggered_start_classic_fr(n, expected):
    """A4.2 variant (FR, `stagger: consecutive`): driver 1 plays N turns in a row, driver 2 N-1,
    ..., driver N one; then normal rounds with every driver."""
    state = make_game(LONG, drivers=n, ruleset="classic-consecutive")
    assert state.rules.stagger == "consecutive"
    played = _rounds(state, len(expected) + n)
    assert [seat for _, seat in played[:len(expected)]] == expected
    normal = [seat for _, seat in played[len(expected):]]
    assert sorted(normal) == list(range(n)), "after the entry every driver plays once per round"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_A4_2_both_stagger_variants_give_the_same_turn_counts(n):
    """A4.2: "Both give the same turn counts before normal play" (4/3/2/1 for four drivers)."""
    entry_turns = n * (n + 1) // 2
    inter = Counter(seat for _, seat in _rounds(make_game(LONG, drivers=n), entry_turns))
    consecutive = make_game(LONG, drivers=n, ruleset="classic-consecutive")
    consec = Counter(seat for _, seat in _rounds(consecutive, entry_turns))
    assert inter == consec == Counter({i: n - i for i in range(n)})


def test_A4_3_drivers_on_the_road_play_in_road_order_and_the_entering_driver_last():
    """A4.3: during staggered rounds, drivers already on the road play in road order (A5) and the
    driver entering that round plays last."""
    state = make_game(LONG, drivers=3)
    state, _ = act(state, "1 stop")                     # round 1: Ada one space
    state, _ = act(state, "W stop")                     # round 2: Ada to space 2
    assert state.cars[state.turn.car].name == "Bea"
    state, _ = act(state, "1 2 3 stop")                 # Bea enters and passes Ada
    assert state.round == 3
    order = []
    for _ in range(3):
        order.append(state.cars[state.turn.car].name)
        state, _ = act(state, _simple_turn(state))
    assert order == ["Bea", "Ada", "Cy"]


def test_A4_1_the_first_die_of_a_special_is_the_1st_gear_die():
    """A4.1: "A car begins behind the line, in gear 0. Its first die must be the 1st-gear die"."""
    state = make_game(LONG)
    for die in ("2", "3", "W"):
        refused(state, die, None, "1")
    state, _ = act(state, "1")
    assert state.cars[0].position == state.stage.start_next[0]


def test_A3_start_order_is_the_seat_order():
    """A3: the first driver of the start order takes the first turn."""
    state = make_game(LONG, drivers=4)
    assert state.turn.car == 0 and state.round == 1
    assert [c.status for c in state.cars] == ["racing", "waiting", "waiting", "waiting"]
