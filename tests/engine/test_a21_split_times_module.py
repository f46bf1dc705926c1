"""RULES A21 split times shown to all (Rules+ module `splits`), AMB-10 (pile minus the second
markers held), A12.5 (a knocked-out car gets none)."""

from __future__ import annotations

from rules_helpers import act, corner_ids, event, kinds, make_game, play, put_car, space_at

from bot.engine.rallyman.narrate import event_line

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


# -- what a user's complaint would have led to ---------------------------------------------------------

#: A split on the entry of a corner whose skid can be left by the bail-out (A8.3): interior 3 (three
#: spaces), skid 4 (three spaces).
SPLIT_BAILOUT = """straight 3 [grass|grass]
split
left 3x3 skid 4x3 [grass|grass]
straight 6 [grass|grass]"""

#: Two split points on straights (spaces 3 and 5).
TWO_STRAIGHT_SPLITS = """straight 2 [grass|grass]
split
straight 2 [grass|grass]
split
straight 8 [grass|grass]"""

#: Split points on spaces 3 and 4, then a hairpin (H = 2: a 5 into it is three over, A8.6).
SPLITS_THEN_HAIRPIN = """straight 2 [grass|grass]
split
straight 1 [grass|grass]
split
straight 1 [grass|grass]
left 1 skid 2x3 [grass|grass]
straight 6 [grass|grass]"""

#: A split on the very first space of the road.
SPLIT_FIRST = """split
straight 12 [grass|grass]"""


def test_A21_A8_3_a_car_that_bailed_out_of_the_skid_past_the_split_gets_its_time():
    """A21 / A8.3: into the skid past the corner-entry split, then out by the bail-out onto the
    interior: the turn ends on an interior space past the point, and the split is recorded; so it
    is for a car whose turn ends on the second skid space, the bail-out still open to it."""
    start = make_game(SPLIT_BAILOUT, drivers=1, modules=SPLITS)
    ids = corner_ids(start.stage)
    put_car(start, 0, ids["before"], 4)
    state, events = act(start, "4 W 3 stop")
    assert state.cars[0].position in ids["interior"]
    assert "split" in kinds(events) and event(events, "split").params["number"] == 1
    state, events = act(start, "4 W stop")
    assert state.cars[0].position == ids["skid"][1]
    assert event(events, "split").params["number"] == 1


def test_A21_A12_5_a_car_knocked_out_standing_past_a_split_gets_no_time():
    """A12.5: the car passes both split points, then takes the hairpin three over in the same turn
    (A8.6): knocked out, unclassified, so no split at all (nor later)."""
    state = make_game(SPLITS_THEN_HAIRPIN, drivers=2, modules=SPLITS)
    state, events = act(state, "1 2 3 4 5")
    assert "overspeed_ko" in kinds(events) and "split" not in kinds(events)
    assert state.cars[0].splits == []


def test_A21_two_split_points_on_straights_are_two_points_each_announced_once():
    """A21: two split lines on straights are points 1 and 2 (not one point), each announced once:
    split 1 in the first turn, nothing new in the next, split 2 when the car gets there."""
    state = make_game(TWO_STRAIGHT_SPLITS, drivers=1, modules=SPLITS)
    state, events = act(state, "1 2 3 stop")
    assert [(e.params["number"], e.params["time"]) for e in events if e.kind == "split"] == [(1, "0:30")]
    state, events = act(state, "4 stop")  # space 4: no point passed
    assert "split" not in kinds(events)
    state, events = act(state, "3 stop")  # space 5: point 2, 0:30 + 0:20 + 0:30
    assert [(e.params["number"], e.params["time"]) for e in events if e.kind == "split"] == [(2, "1:20")]
    assert state.cars[0].splits == [[space_at(state.stage, 3), 30], [space_at(state.stage, 5), 80]]


def test_A21_both_points_passed_in_one_turn_are_both_announced():
    state = make_game(TWO_STRAIGHT_SPLITS, drivers=1, modules=SPLITS)
    state, events = act(state, "1 2 3 4 5 stop")  # 5th: the card is 0:10
    assert [(e.params["number"], e.params["time"]) for e in events if e.kind == "split"] == [(1, "0:10"), (2, "0:10")]


def test_A21_a_split_point_on_the_first_space_is_passed_by_the_car_standing_on_it():
    state = make_game(SPLIT_FIRST, drivers=1, modules=SPLITS)
    state, events = act(state, "1 stop")
    assert state.cars[0].position == space_at(state.stage, 1)
    assert event(events, "split").params == {"name": "Ada", "number": 1, "time": "0:50", "seconds": 50,
                                             "best": "0:50", "gap": "fastest"}


def test_A21_split_times_and_gaps_over_a_minute_read_minutes_and_seconds():
    """A21: a split time of 2:30 and a gap of two minutes are shown m:ss (`2:30`, `+2:00`)."""
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state = play(state, "1 2 3 stop", "4 stop",  # Ada: split at 0:30; Bea starts a round later
                 "1 stop", "5 stop", "1 stop", "5 stop")  # Bea in 1st twice: 1:40 on space 2
    state, events = act(state, "1 stop")  # Bea: space 3, 2:30
    split = event(events, "split")
    assert (split.params["time"], split.params["seconds"], split.params["best"], split.params["gap"]) == \
        ("2:30", 150, "0:30", "+2:00")
    assert event_line(split, state) == "**Bea** — split 1: 2:30 (+2:00)."


def test_A21_a_tie_with_the_best_split_is_not_the_fastest():
    """A21: the same time as the best so far is `+0:00`, not "fastest so far" (only a faster time is)."""
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state = play(state, "1 2 3 stop", "4 stop")  # Ada: 0:30 at the split
    state, events = act(state, "1 2 3 stop")  # Bea: 0:30
    assert (event(events, "split").params["gap"], event(events, "split").params["best"]) == ("+0:00", "0:30")


def test_A21_a_split_kept_from_before_the_stage_file_was_edited_is_ignored_not_a_crash():
    """A snapshot reloads its stage by name: if the stage's split line moved during a rally, a car
    may hold a split on a space that is no longer a point. It counts as no point: the next car to
    pass the point is announced (the fastest there), the rally does not stop on an error."""
    state = make_game(SPLIT_STRAIGHT, drivers=2, modules=SPLITS)
    state = play(state, "1 stop", "2 stop")  # Ada on space 2, then Bea's first turn comes
    state.cars[0].splits = [[space_at(state.stage, 1), 20]]  # space 1: split point of an older layout
    state, events = act(state, "1 2 3 stop")  # Bea passes the split at 0:30
    assert event(events, "split").params["gap"] == "fastest"
    assert state.cars[1].splits == [[space_at(state.stage, 3), 30]]
