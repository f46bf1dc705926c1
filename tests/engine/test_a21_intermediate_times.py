"""RULES A21: intermediate (split) times, and A12.5: a knocked-out car gets none."""

from __future__ import annotations

from rules_helpers import act, corner_ids, kinds, make_game, play, put_car, space_at

#: A split on space 3 of a straight, rocks on the right.
SPLIT_STRAIGHT = """straight 2 [grass|rocks]
split
straight 10 [grass|rocks]"""

#: A split on the entry of a hairpin (every first space of its lines is a split point).
SPLIT_CORNER = """straight 4 [grass|grass]
split
left 1 skid 2x2 [grass|grass]
straight 6 [grass|grass]"""


def test_A21_a_car_passing_a_split_point_gets_its_time_at_the_end_of_the_turn():
    """A21: when a car passes a split point its time is recorded: the chrono pile at the end of
    the turn in which it passed, that turn's card included. Shown to all with the `splits`
    module (see test_a21_split_times_module.py for the module off)."""
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules={"splits": True})
    state, events = act(state, "1 2 3 stop")
    assert "split" in kinds(events)
    assert state.cars[0].splits == [[space_at(state.stage, 3), 30]]


def test_A21_A12_5_a_car_knocked_out_on_the_split_space_gets_no_split_time():
    """A12.5: a knocked-out driver leaves the board and is unclassified, so A21 gives it no split
    time, even when the move that knocked it out reached the split point (over-speed by 3+ into
    a corner whose entry is the split, A8.6)."""
    state = make_game(SPLIT_CORNER, drivers=2)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 5)
    state, events = act(state, "5")  # H = 2 (skid): three over, knocked out
    assert "overspeed_ko" in kinds(events)
    assert "split" not in kinds(events)
    assert state.cars[0].status == "out" and state.cars[0].splits == []


def test_A21_A12_5_a_car_knocked_out_by_damage_after_passing_a_split_gets_no_split_time():
    """A12.5 / OPEN-10: a car that passes the split and, in the same turn, loses its last black
    die off the road is knocked out: no split time for it either."""
    faces = [False, True, True, True] + [False] * 20
    state = make_game(SPLIT_STRAIGHT, drivers=2, faces=faces, events=["off_right"])
    state.cars[0].lost_black = 3
    state = play(state, "1 stop")
    state, events = act(state, "2 W W")  # spaces 2, 3 (split), 4: three ⚠, off into the rocks
    assert "damage_ko" in kinds(events)
    assert "split" not in kinds(events)
    assert state.cars[0].status == "out" and state.cars[0].splits == []
