"""RULES A21 split times shown to all (Rules+ module `splits`), AMB-10 (pile minus the second
markers held), A12.5 (a knocked-out car gets none)."""

from __future__ import annotations

from rules_helpers import act, corner_ids, event, kinds, make_game, play, put_car, space_at

from bot.services.narrate import event_line

SPLITS = {"splits": True}

#: A split on space 3 of a straight.
SPLIT_STRAIGHT = """straight 2 [grass|rocks]
split
straight 10 [grass|rocks]"""

#: A split on the space right after a bump: a car taking the bump one gear above its note flies
#: over it (A10).
SPLIT_AFTER_BUMP = """straight 2 [grass|grass]
bump 2 [grass|grass]
split
straight 6 [grass|grass]"""

#: A split on the entry of a hairpin.
SPLIT_CORNER = """straight 4 [grass|grass]
split
left 1 skid 2x2 [grass|grass]
straight 6 [grass|grass]"""

#: Two split points, the second on the entry of a corner (each of its lines' first space).
TWO_SPLITS = """straight 2 [grass|grass]
split
straight 3 [grass|grass]
split
left 4 skid 5x2 [grass|grass]
straight 6 [grass|grass]"""


def test_A21_the_split_event_names_the_driver_the_split_and_the_time_shown_to_all():
    """A21: recorded at the end of the turn in which the car passed, that turn's card included;
    the first car at a split is the fastest so far."""
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state, events = act(state, "1 2 3 stop")
    split = event(events, "split")
    assert split.driver == "d1"
    assert split.params == {"name": "Ada", "number": 1, "time": "0:30", "seconds": 30, "best": "0:30",
                            "gap": "fastest"}
    assert kinds(events).index("stop") < kinds(events).index("split")
    assert state.cars[0].splits == [[space_at(state.stage, 3), 30]]
    assert event_line(split, state) == "**Ada** — split 1: 0:30 (fastest so far)."


def test_A21_the_split_event_compares_with_the_best_split_so_far():
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state = play(state, "1 2 3 stop", "4 stop", "1 stop")  # Ada: split at 0:30; Bea: space 1
    state = play(state, "5 stop")  # Ada
    state, events = act(state, "2 3 stop")  # Bea: split at 0:50 + 0:30
    split = event(events, "split")
    assert (split.driver, split.params["time"], split.params["best"], split.params["gap"]) == \
        ("d2", "1:20", "0:30", "+0:50")
    assert event_line(split, state) == "**Bea** — split 1: 1:20 (+0:50)."


def test_A21_a_later_car_faster_at_the_split_is_the_new_best():
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state = play(state, "1 2 stop", "3 stop")  # Ada: 0:40, then split at 1:10
    state, events = act(state, "1 2 3 stop")  # Bea: split at 0:30
    assert event(events, "split").params == {"name": "Bea", "number": 1, "time": "0:30", "seconds": 30,
                                                   "best": "0:30", "gap": "fastest"}


def test_A21_AMB_10_the_split_time_is_the_pile_minus_the_second_markers_held():
    """AMB-10: DE formula, chrono pile minus second markers held (A18)."""
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state.cars[0].seconds = 5
    state, events = act(state, "1 2 3 stop")
    assert event(events, "split").params["seconds"] == 25 and state.cars[0].splits[0][1] == 25


def test_A21_splits_are_numbered_along_the_road_and_a_corner_entry_is_one_point():
    state = make_game(TWO_SPLITS, drivers=1, modules=SPLITS)
    put_car(state, 0, space_at(state.stage, 5), 4)
    state, events = act(state, "5 stop")  # skid of the corner: its entry is split 2
    ids = corner_ids(state.stage)
    splits = [e for e in events if e.kind == "split"]
    assert [e.params["number"] for e in splits] == [1, 2]  # split 1 was passed while put there
    assert state.cars[0].position == ids["skid"][0]


def test_A21_a_bump_jump_over_the_split_point_still_passes_it():
    """A10 flies over the space after the bump (one gear above the note): the car passed the split."""
    state = make_game(SPLIT_AFTER_BUMP, drivers=1, modules=SPLITS)
    state, events = act(state, "1 2 3 stop")
    assert state.cars[0].position == space_at(state.stage, 5)
    assert event(events, "split").params["number"] == 1


def test_A21_A12_5_a_knocked_out_car_gets_no_split_with_the_module_either():
    """A12.5: over-speed by 3 into a corner whose entry is the split point: knocked out, no split."""
    state = make_game(SPLIT_CORNER, drivers=2, modules=SPLITS)
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    state, events = act(state, "5")  # H = 2 (skid): three over
    assert "overspeed_ko" in kinds(events) and "split" not in kinds(events)
    assert state.cars[0].splits == []


def test_A21_without_the_module_split_times_are_recorded_silently():
    """Module off: the snapshot keeps its split times as before, but nothing is announced."""
    state = make_game(SPLIT_STRAIGHT, drivers=2)
    state, events = act(state, "1 2 3 stop")
    assert "split" not in kinds(events)
    assert state.cars[0].splits == [[space_at(state.stage, 3), 30]]
