"""RULES A7: movement (gear of a move, forward only)."""

from __future__ import annotations

from rules_helpers import CORNER, act, corner_ids, kinds, make_game, put_car

from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, new_game
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.model import FINISH, START


def _before_corner(gear: int, **kw):
    state = make_game(CORNER, **kw)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], gear)
    return state, ids


def test_A7_2_a_white_die_moves_in_the_current_gear_for_corner_notes():
    """A7.2: "Gear of a move = the number of the gear die, or the current gear for a white die.
    All checks on the space entered use it": white in 3rd fits interior 3, white in 4th only the
    skid 4."""
    state, ids = _before_corner(3)
    after, _ = act(state, "W")
    assert after.cars[0].position == ids["interior"][0]
    state, ids = _before_corner(4)
    after, _ = act(state, "W")
    assert after.cars[0].position == ids["skid"][0]


def test_A7_2_a_white_die_too_fast_for_the_corner_is_an_overspeed():
    """A7.2 with A8.6: a white die in 5th into interior 3 / skid 4 / K4 is H+1: loss of control."""
    state, ids = _before_corner(5, events=["spin"])
    after, events = act(state, "W")
    assert "loss_of_control" in kinds(events)
    assert after.cars[0].position == ids["interior"][0]


def test_A7_3_cars_never_move_backwards():
    """A7.3: "Cars never move backwards": every die of every turn of an AI special reaches a
    space at least as far along the road as the one it left."""
    state = new_game("pinewood-sprint", ai_seats(3), seed=5)
    stage = state.stage

    def progress(space: int) -> float:
        if space == START:
            return 0.0
        if space == FINISH:
            return float("inf")
        return stage.spaces[space].progress

    checked = 0
    start = None
    while state.turn is not None:
        ci = state.turn.car
        if not state.turn.started:
            start = state.cars[ci].position  # where this turn's first die leaves from
        state, _ = apply(state, choose_action(state))
        if state.turn is not None and state.turn.car == ci and state.turn.started:
            continue  # turn still going: checked when it ends
        positions = [start] + [p[0] for p in state.last_path]
        for a, b in zip(positions, positions[1:]):
            assert progress(b) >= progress(a), (a, b)
            checked += 1
    assert checked > 50
