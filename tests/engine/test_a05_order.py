"""RULES A5: order of play (progress, then gear, then arrival; fixed for the round)."""

from __future__ import annotations

from rules_helpers import LONG, act, make_game, put_car, space_at


def _next_round_order(state) -> list[str]:
    """Names of the drivers in the order they play the round that has just started."""
    order = [state.cars[state.turn.car].name]
    order += [state.cars[i].name for i in state.queue]
    return order


def test_A5_1_the_car_furthest_along_plays_first():
    """A5.1: "the car furthest along the road plays first"; an overtake changes the order from
    the next round."""
    state = make_game(LONG, drivers=2)
    state, _ = act(state, "1 stop")            # round 1: Ada on space 1
    state, _ = act(state, "W stop")            # round 2: Ada on space 2
    state, _ = act(state, "1 2 3 4 stop")      # round 2: Bea enters and passes Ada
    assert state.round == 3
    assert _next_round_order(state) == ["Bea", "Ada"]


def test_A5_1_order_is_fixed_for_the_round():
    """A5.1: the order is recomputed at the start of every round and fixed for that round: a car
    passed during the round still plays when its turn in that round comes."""
    state = make_game(LONG, drivers=2)
    state = _play_to_round_3(state)            # Ada on 2, Bea on 1 (Ada first in round 3)
    assert _next_round_order(state) == ["Ada", "Bea"]
    state, _ = act(state, "W stop")            # Ada: space 3
    assert state.cars[state.turn.car].name == "Bea"
    state, _ = act(state, "2 3 4 5 stop")      # Bea passes Ada (space 5)
    assert _next_round_order(state) == ["Bea", "Ada"]


def _play_to_round_3(state):
    state, _ = act(state, "1 stop")
    state, _ = act(state, "W stop")
    state, _ = act(state, "1 stop")
    return state


def test_A5_2_same_space_higher_gear_plays_first():
    """A5.2: "Several cars in one space: higher current gear first" even if it arrived later."""
    state = make_game(LONG, drivers=2)
    put_car(state, 1, space_at(state.stage, 3), gear=2)   # Bea waits on space 3 in 2nd
    state, _ = act(state, "1 2 3 stop")                   # Ada arrives there later, in 3rd
    assert state.cars[0].position == state.cars[1].position
    assert _next_round_order(state) == ["Ada", "Bea"]


def test_A5_2_same_space_same_gear_first_arrival_plays_first():
    """A5.2: equal gear on one space → the car that reached that space first."""
    state = make_game(LONG, drivers=2)
    put_car(state, 1, space_at(state.stage, 3), gear=3)   # Bea first on space 3, in 3rd
    state, _ = act(state, "1 2 3 stop")                   # Ada arrives second, in 3rd
    assert _next_round_order(state) == ["Bea", "Ada"]


def test_A5_2_a_car_after_a_loss_of_control_counts_as_gear_0():
    """A5.2: "a flipped loss-of-control card counts as 0": on one space, a car that lost control
    in 3rd plays after a car in 1st, though it reached the space first."""
    state = make_game(LONG, drivers=2, faces=[True, True, True] + [False] * 20, events=["spin"])
    put_car(state, 1, space_at(state.stage, 3), gear=1)   # Bea on space 3 in 1st ...
    state.cars[1].arrived = 10**6                          # ... counted as arriving after Ada
    state, events = act(state, "1 2 3")                   # Ada: third ⚠ on space 3, in 3rd
    assert state.cars[0].position == state.cars[1].position
    assert state.cars[0].pile[-1].kind == "loc"
    assert _next_round_order(state) == ["Bea", "Ada"]


def test_A5_3_finished_cars_take_no_more_turns():
    """A5.3: finished and retired cars take no turns; the special ends when all are done."""
    state = make_game("straight 3", drivers=2)
    state, _ = act(state, "1 2 3 W stop")  # Ada crosses the line (3 spaces, the 4th die finishes)
    assert state.cars[0].status == "finished"
    seen = set()
    while state.turn is not None:
        seen.add(state.cars[state.turn.car].name)
        state, _ = act(state, "1" if state.turn.gear == 0 else "W")
        if state.turn is not None and state.turn.started:
            state, _ = act(state, "stop")
    assert seen == {"Bea"}
    assert state.finished
