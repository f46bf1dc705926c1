"""Rallies of several specials: RULES A2 (a course of specials), A3 (start order), A14.2 (spare
between specials), A16 (assistance or carry-over), A17 (classification), A22 (SISU per rally)."""

from __future__ import annotations

import json

import pytest

from bot.engine.rallyman.course import Course, SpecialRow, course_of
from bot.engine.rallyman.game import apply, new_game
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.simulate import ai_seats, play_rally
from bot.engine.rallyman.specials import carry_over, start_order
from bot.engine.rallyman.state import Car, GameState

COURSE = ["pinewood-sprint", "frozen-lakes", "black-moor"]


def rows(*entries: tuple[str, int | None]) -> list[SpecialRow]:
    return [SpecialRow(d, d.upper(), time, None if time is not None else "knocked_out") for d, time in entries]


def test_A3_ss2_starts_in_the_order_of_ss1_times_ties_keep_the_previous_order():
    course = Course(COURSE, [True] * 3, results=[rows(("a", 100), ("b", 90), ("c", 100), ("d", 80))])
    starters, absent = start_order(course, ["a", "b", "c", "d"])
    assert starters == ["d", "b", "a", "c"]  # a and c tie at 100: a started before c (OPEN-5)
    assert absent == []


def test_A3_ss3_starts_by_the_reclassification_and_a_driver_out_does_not_start():
    course = Course(COURSE, [True] * 3, results=[rows(("a", 100), ("b", 90), ("c", 120)),
                                                 rows(("b", 40), ("a", 50), ("c", None))])
    starters, absent = start_order(course, ["b", "a", "c"])
    assert starters == ["b", "a"]  # 130 < 150
    assert absent == ["c"]


def test_A16_assistance_repairs_damage_and_gives_the_spare_back():
    old = Car("a", "Ada", 0, tires="snow", lost_black=2, flats=1, spare=False, sisu=False, seconds=3)
    new = Car("a", "Ada", 0)
    carry_over(old, new, assisted=True)
    assert (new.lost_black, new.flats, new.spare) == (0, 0, True)
    assert (new.tires, new.sisu, new.seconds) == ("snow", False, 0)  # A20.2, A22 one per rally, A16 markers


def test_A16_without_assistance_damage_flats_tires_and_a_used_spare_carry_over():
    old = Car("a", "Ada", 0, tires="snow", lost_black=2, flats=1, spare=False, seconds=3)
    new = Car("a", "Ada", 0)
    carry_over(old, new, assisted=False)
    assert (new.lost_black, new.flats, new.spare, new.tires) == (2, 1, False, "snow")
    assert new.seconds == 0  # second markers never carry over (A16)


def test_A17_rally_classification_sums_times_shares_equal_totals_and_lists_the_out_last():
    course = Course(COURSE, [True] * 3, results=[rows(("a", 100), ("b", 90), ("c", 80), ("d", 60)),
                                                 rows(("a", 50), ("b", 60), ("c", None), ("d", 95)),
                                                 rows(("a", 30), ("b", 30), ("d", 20))])
    table = rally_classification(course)
    assert [(r.driver, r.total, r.rank, r.gap) for r in table] == [
        ("d", 175, 1, 0), ("a", 180, 2, 5), ("b", 180, 2, 5), ("c", None, None, None)]
    # a and b tie at 180 with the same last stage time (30): shared rank (OPEN-5), and the SS1
    # start order decides who is shown first.
    assert table[-1].reason == "knocked_out"


def test_A17_equal_totals_are_shown_by_the_better_last_stage_time():
    course = Course(COURSE[:2], [True] * 2, results=[rows(("a", 100), ("b", 90)), rows(("a", 50), ("b", 60))])
    table = rally_classification(course)
    assert [(r.driver, r.rank) for r in table] == [("a", 1), ("b", 1)]  # 150 each; a's last (50) is better


def test_A2_a_course_is_driven_special_after_special_and_replays_from_its_log():
    state, actions = play_rally(COURSE, drivers=3, seed=4, assistance=[True, False, True])
    assert state.finished and state.course is not None
    assert [len(r) for r in state.course.results] == [3, 3, 3]
    assert state.stage.name == COURSE[-1] and state.course.index == 2
    # The same actions from the start give the same final state (the log is the truth).
    replay = new_game(COURSE[0], ai_seats(3), seed=4, course=course_of(COURSE, [True, False, True]))
    from bot.engine.rallyman.ai import choose_action
    for _ in range(actions):
        replay, _ = apply(replay, choose_action(replay))
    assert json.dumps(replay.to_dict(), sort_keys=True) == json.dumps(state.to_dict(), sort_keys=True)


def test_A2_the_state_of_a_course_survives_a_json_round_trip():
    state, _ = play_rally(COURSE[:2], drivers=2, seed=1)
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict() and again.course == state.course


def test_A2_a_single_special_has_no_course_and_an_unchanged_snapshot():
    state = new_game("pinewood-sprint", ai_seats(2), seed=1)
    assert state.course is None and "course" not in state.to_dict()
    with pytest.raises(ValueError):
        course_of(COURSE, [True])  # one assistance flag per special


def test_A14_2_without_assistance_the_spare_fitted_before_the_first_die_costs_no_time():
    state = new_game("frozen-lakes", ai_seats(1), seed=2, course=Course(COURSE[:2], [False, True], index=1))
    car = state.cars[0]
    car.flats, car.spare = 1, True  # carried over from SS1 (A16: no assistance)
    new, events = apply(state, parse("spare", state, driver=car.id))
    assert (new.cars[0].flats, new.cars[0].spare, new.cars[0].pile) == (0, False, [])
    assert [e.kind for e in events] == ["spare_between"]
    assert new.turn is not None and new.turn.car == 0  # then the driver drives this turn (A14.1)


def test_A14_1_during_a_special_the_spare_costs_its_minute():
    state = new_game("frozen-lakes", ai_seats(1), seed=2, course=Course(COURSE[:2], [False, True], index=0))
    car = state.cars[0]
    car.flats = 1
    new, events = apply(state, parse("spare", state, driver=car.id))
    assert [c.kind for c in new.cars[0].pile] == ["spare"] and new.cars[0].pile[0].seconds == 60


def test_A16_the_next_special_starts_repaired_after_an_assistance_and_damaged_without():
    for assisted in (True, False):
        state = new_game("pinewood-sprint", ai_seats(1), seed=2, course=course_of(COURSE[:2], [assisted, True]))
        state.cars[0].lost_black = 1  # damage from SS1
        from bot.engine.rallyman.ai import choose_action
        while state.course is not None and state.course.index == 0:
            state, _ = apply(state, choose_action(state))
        car = state.cars[0]
        assert state.stage.name == COURSE[1]
        assert car.lost_black == (0 if assisted else 1)


@pytest.mark.parametrize("assisted", [False, True])
def test_A15_3_a_finish_crash_taking_the_last_black_die_knocks_out_before_the_next_special(assisted):
    """A15.3 covers a black die even on the finish line; with the 5th gone and no assistance
    (A16) the car could never move again, so it is knocked out before the next special starts
    (A12.5, OPEN-10) and the others drive it; an assistance repairs it instead. Found by random
    play: the car stood still at the start turn after turn and no car could take a turn."""
    from bot.engine.rallyman.ai import choose_action

    state = new_game("pinewood-sprint", ai_seats(2), seed=4, course=course_of(COURSE[:2], [assisted, True]))
    events_at_change: list[str] = []
    while state.turn is not None:
        finished = [c for c in state.cars if c.status == "finished"]
        if state.course.index == 0 and finished and finished[0].lost_black < 5:
            finished[0].lost_black = 5  # what A15.3 leaves after a crash on the line with 4 lost
        index = state.course.index
        state, events = apply(state, choose_action(state))
        if state.course.index != index:
            events_at_change = [e.kind for e in events]
            wrecked = state.car_by_id(finished[0].id)
            names = next(e.params["order"] for e in events if e.kind == "special_start")
    assert state.finished and state.course.index == 1
    if assisted:
        assert wrecked.status != "out" and wrecked.lost_black == 0
        assert "damage_ko" not in events_at_change
    else:
        assert events_at_change.index("special_over") < events_at_change.index("damage_ko") < \
            events_at_change.index("special_start")
        assert (wrecked.status, wrecked.out_reason, wrecked.pile) == ("out", "damage_ko", [])
        assert wrecked.name not in names
        classified = [row for row in state.course.results[1] if row.time is not None]
        assert [row.id for row in classified] == [c.id for c in state.cars if c is not wrecked]



def test_A2_AMB_22_a_rally_nobody_can_go_on_with_ends_after_the_special_driven_and_shows_its_table():
    """SS1 without assistance after it: the first driver finishes having lost its 5th black die
    on the line (A15.3), the other retires. Nobody can start SS2 (A12.5, AMB-22), so the rally
    ends after SS1: no SS2 is announced with an empty start order nor closed; SS1's table, whose
    time counts, is the results shown, then the rally classification with the driver out."""
    from bot.engine.rallyman.actions import Retire
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.protocol import GAME as RALLYMAN
    from bot.i18n import render

    state = new_game("pinewood-sprint", ai_seats(2), seed=4, course=course_of(COURSE, [False, True, True]))
    told = []
    while not any(c.status == "finished" for c in state.cars):
        state, events = apply(state, choose_action(state))
        told += events
    finisher = next(c for c in state.cars if c.status == "finished")
    finisher.lost_black = 5  # what A15.3 leaves after a crash on the line with 4 lost
    other = next(c for c in state.cars if c is not finisher)
    state, events = apply(state, Retire(other.id))
    told += events
    kinds_told = [e.kind for e in told]
    assert state.finished and state.course.stopped and state.course.index == 0
    assert "special_start" not in kinds_told and kinds_told.count("special_over") == 1
    assert kinds_told.index("special_over") < kinds_told.index("damage_ko") < kinds_told.index("course_stopped")
    (row,) = [r for r in rally_classification(state.course) if r.driver == finisher.id]
    assert (row.total, row.reason, row.times) == (None, "damage_ko", (finisher.time,))
    text = [render(line, "en") for line in RALLYMAN.narrator.classification(RALLYMAN.rules.view(state, None))]
    assert text[0].startswith("**SS1") and "**Rally classification — 1 special**" in text, text  # one, not "1 specials"
    assert any(finisher.name in line for line in text[1:2]), text
    outcome = RALLYMAN.rules.outcome(state)
    assert outcome is not None and all(r.status == "dnf" for r in outcome.seats)
