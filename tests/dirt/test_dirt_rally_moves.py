"""DIRT turns and moves (RULES B4–B9, B13.1, B13.8.1–B13.8.3): order of play, staggered start, the
dice a step may use, directions, occupancy, corners and slides; each refusal leaves the state as it was."""

from __future__ import annotations

from bot.engine.dirt import course, rally
from bot.engine.dirt.protocol import GAME as DIRT
from bot.engine.dirt.rally import Roll, Spare, Step, Stop
from bot.i18n import render
from tests.dirt.rally_kit import go, kinds, put, refused, space, start


def test_B5_staggered_start_round_k_admits_drivers_1_to_k_after_the_cars_on_track():
    s = start("t-straight", seats=("a", "b", "c"))
    assert (s.round, s.order) == (1, ["a"])
    assert all(c.space is None and c.gear == 0 and c.status == "waiting" for c in s.cars.values())
    s, _ = go(s, "1", "2", "stop")  # a enters and drives
    assert (s.round, s.order) == (2, ["a", "b"])
    s, _ = go(s, "3", "stop", "1", "stop")
    assert (s.round, s.order) == (3, ["a", "b", "c"])  # the new driver plays after the cars on track


def test_B4_order_by_distance_then_gear_then_inside_of_the_next_corner_then_previous_round():
    s = start("t-corner", seats=("a", "b", "c"))
    st = s.stage
    s.round = 3

    def at(seat: str, where: int, gear: int) -> None:
        s.cars[seat].space, s.cars[seat].gear, s.cars[seat].status = where, gear, "racing"

    at("a", space(st, 1, 0, 0), 2)
    at("b", space(st, 1, 1, 1), 2)
    at("c", space(st, 1, 1, 0), 3)
    assert course.round_order(s) == ["b", "c", "a"]  # b furthest (B4.1); c before a: higher gear (B4.2)
    s.cars["c"].gear = 2
    assert course.round_order(s) == ["b", "a", "c"]  # a on the inside lane of the next (left) corner (B4.3)
    at("a", space(st, 3, 1, 0), 2)  # past the last corner: nothing tells a and c apart
    at("c", space(st, 3, 0, 0), 2)
    at("b", space(st, 4, 0, 0), 1)
    s.previous_order = ["c", "b", "a"]
    assert course.round_order(s) == ["b", "c", "a"]  # the previous round's relative order (B13.6)
    s.previous_order = ["a", "b", "c"]
    assert course.round_order(s) == ["b", "a", "c"]


def test_B13_8_1_the_order_is_fixed_for_the_round_even_after_an_overtake():
    s = start("t-straight", seats=("a", "b"))
    s, _ = go(s, "1", "stop")  # round 1: a
    s, _ = go(s, "2", "stop", "1", "2", "3", "stop")  # round 2: a, then b overtakes
    assert s.round == 3
    b, a = s.cars["b"], s.cars["a"]
    assert s.stage.spaces[b.space].front > s.stage.spaces[a.space].front
    assert s.order == ["b", "a"]  # recomputed only at the start of the next round


def test_B6_2_gear_dice_chain_and_a_jump_of_two_is_refused_with_the_state_unchanged():
    s = start("t-straight")
    refused(s, "a", Roll(Step("2")), "dirt.standstill_first_gear")
    s, _ = go(s, "1", "2")
    assert s.cars["a"].gear == 2
    error = refused(s, "a", Roll(Step("4")), "dirt.gear_not_adjacent")
    assert "gear die 3" in str(error)  # names what is allowed
    refused(s, "a", Roll(Step("2")), "dirt.die_used")


def test_B6_3_coast_dice_keep_the_gear_and_are_refused_at_speed_0():
    s = start("t-straight")
    refused(s, "a", Roll(Step("coast")), "dirt.coast_when_leading")
    s2 = start("t-straight", seats=("a", "b"))
    s2, _ = go(s2, "1", "stop", "2", "stop")  # round 2: b enters second, not leading
    assert rally.to_act(s2) == "b"
    refused(s2, "b", Roll(Step("coast")), "dirt.side_die_at_standstill")
    s2, _ = go(s2, "1", "coast")
    assert s2.cars["b"].gear == 1 and len(s2.turn_path) == 2


def test_B6_4_leader_dice_for_the_rounds_first_player_only_until_someone_finishes():
    s = start("t-straight", seats=("a", "b"))
    s, _ = go(s, "1", "leader")  # the round's first player uses leader dice
    refused(s, "a", Roll(Step("coast")), "dirt.coast_when_leading")
    s, _ = go(s, "stop", "2", "stop")
    assert rally.to_act(s) == "b"
    s, _ = go(s, "1")
    refused(s, "b", Roll(Step("leader")), "dirt.leader_not_leading")
    s.someone_finished = True
    s.turn = 0
    s.order = ["a", "b"]
    s.turn_dice, s.turn_path = [], []
    refused(s, "a", Roll(Step("leader")), "dirt.leader_lapsed")


def test_B6_5_a_gear_die_with_a_brake_die_drops_two_gears_on_one_space():
    s = start("t-straight", faces=[False, True])
    put(s, "a", space(s.stage, 1, 0, 0), 4)
    s, events = go(s, "2+brake")
    assert s.cars["a"].gear == 2 and len(s.turn_path) == 1
    assert [d for d, _, _ in s.turn_dice] == ["2", "brake"] and s.hazards == 1  # each die counts its own face
    assert events[0].params["brakes"] == 1


def test_B6_5_brake_without_a_gear_die_and_a_drop_without_brake_are_refused():
    s = start("t-straight")
    put(s, "a", space(s.stage, 1, 0, 0), 4)
    refused(s, "a", Roll(Step("brake")), "dirt.brake_alone")
    refused(s, "a", Roll(Step("2")), "dirt.gear_drop_needs_brake")
    refused(s, "a", Roll(Step("3", 1)), "dirt.brake_not_needed")


def test_B7_one_car_per_space_an_occupied_target_is_refused():
    s = start("t-straight", seats=("a", "b"))
    st = s.stage
    put(s, "b", space(st, 1, 0, 1), 1)
    put(s, "a", space(st, 1, 0, 0), 1)
    s.order, s.turn = ["a", "b"], 0
    error = refused(s, "a", Roll(Step("1"), "left"), "dirt.space_occupied")
    assert "B" in str(error) and "right" in str(error)  # who is there, and where the car may go
    s2, _ = rally.apply(s, "a", Roll(Step("1")))  # no word: its lane is taken, the only free target
    assert s2.cars["a"].space == space(st, 1, 1, 1)


def test_B7_no_word_keeps_the_lane_and_a_missing_direction_is_refused():
    s = start("t-straight")
    put(s, "a", space(s.stage, 1, 1, 0), 1)
    s1, _ = rally.apply(s.clone(), "a", Roll(Step("1")))  # apply plays on the state: s stays
    assert s1.cars["a"].space == space(s.stage, 1, 1, 1)  # stays on the right lane
    refused(s, "a", Roll(Step("1"), "slide"), "dirt.no_such_direction")
    refused(s, "a", Roll(Step("1"), "sideways"), "dirt.bad_direction")


def test_B7_a_one_lane_point_takes_no_direction_word():
    s = start("t-narrow")
    s, _ = go(s, "1")
    assert s.stage.spaces[s.cars["a"].space].lanes == (0, 1)
    refused(s, "a", Roll(Step("2"), "left"), "dirt.no_such_direction")


def test_B7_at_least_one_space_per_turn_if_possible():
    s = start("t-straight")
    refused(s, "a", Stop(), "dirt.must_move")
    s, events = go(s, "1", "stop")
    assert "dirt_turn_end" in kinds(events)


def test_B8_a_corner_is_entered_inside_or_outside_and_the_outside_is_a_drift():
    s = start("t-corner")
    st = s.stage
    put(s, "a", space(st, 1, 0, 2), 2)
    inside, _ = rally.apply(s.clone(), "a", Roll(Step("2"), "left"))  # s stays for the other line
    outside, _ = rally.apply(s, "a", Roll(Step("3"), "right"))
    assert st.spaces[inside.cars["a"].space].inside is True and inside.cars["a"].pose == "normal"
    assert st.spaces[outside.cars["a"].space].inside is False and outside.cars["a"].pose == "drift"


def test_B8_B13_3_one_or_two_gears_over_a_limit_is_a_loss_of_control_three_knocks_out():
    s = start("t-corner", draws=["ok"])
    st = s.stage
    put(s, "a", space(st, 1, 0, 2), 3)
    lost, events = rally.apply(s, "a", Roll(Step("3"), "left"))  # inside limit 2
    (loss,) = [e for e in events if e.kind == "dirt_lost_control"]
    assert loss.params["cause"] == "overspeed"
    assert lost.cars["a"].space == space(st, 2, 0, 0)  # the triggering die still moves the car (B13.3)
    assert (lost.cars["a"].gear, lost.cars["a"].cards) == (0, [70])
    put(s, "a", space(st, 1, 0, 2), 5)
    out, events = rally.apply(s, "a", Roll(Step("5"), "left"))
    assert (out.cars["a"].status, out.cars["a"].reason) == ("out", "overspeed")
    assert "dirt_knocked_out" in kinds(events)


def test_B9_a_slide_is_chosen_on_entry_and_its_halves_block_the_normal_spaces_B13_8_3():
    s = start("t-slide", seats=("a", "b"))
    st = s.stage
    put(s, "a", space(st, 2, 1, 1), 3)  # the right corner's inside line ends at row 1
    s.order, s.turn = ["a"], 0
    s1, _ = rally.apply(s.clone(), "a", Roll(Step("3"), "slide"))  # apply plays on the state: s stays
    assert s1.cars["a"].pose == "slide"
    half = s1.cars["a"].space
    assert half in st.spaces[space(st, 3, 0, 0)].overlaps
    second, _ = rally.apply(s1.clone(), "a", Roll(Step("2"), "slide"))  # on to the second half
    assert second.cars["a"].pose == "slide" and second.cars["a"].space != half
    typed, _ = go(s1, "2")  # the only way on from the first half: no word needed (B9)
    assert typed.cars["a"].space == second.cars["a"].space
    put(s, "b", space(st, 3, 0, 0), 1)  # b on a normal space of the slide's row
    s.order, s.turn = ["a", "b"], 0
    refused(s, "a", Roll(Step("3"), "slide"), "dirt.space_occupied")


def test_B13_1_three_hazards_in_a_turn_lose_control_next_turn_starts_with_gear_1():
    s = start("t-straight", faces=[True, True, True], draws=["coast"])
    s, events = go(s, "1", "2", "3")
    assert "dirt_lost_control" in kinds(events)
    car = s.cars["a"]
    assert (car.gear, car.cards, car.tokens["coast"]) == (0, [70], 1)
    assert [a.step.die for a in rally.legal_actions(s, "a") if isinstance(a, Roll)] == ["1"] * 2


def test_B13_2_the_turn_ends_with_the_card_of_its_gear():
    s = start("t-straight")
    s, events = go(s, "1", "2", "3", "stop")
    assert s.cars["a"].cards == [40]
    (end,) = [e for e in events if e.kind == "dirt_turn_end"]
    assert end.params["seconds"] == 40 and end.params["gear"] == 3


def test_B13_8_2_a_car_that_cannot_move_takes_the_card_of_its_gear_and_no_damage():
    s = start("t-straight", seats=("a", "b", "c"))
    st = s.stage
    put(s, "b", space(st, 1, 0, 1), 1)
    put(s, "c", space(st, 1, 1, 1), 1)
    put(s, "a", space(st, 1, 0, 0), 0)  # both spaces ahead are taken
    s.order, s.turn = ["a", "b", "c"], 0
    assert rally.legal_actions(s, "a") == [Stop()]
    s1, events = rally.apply(s, "a", Stop())
    assert s1.cars["a"].cards == [70] and sum(s1.cars["a"].tokens.values()) == 0
    assert "dirt_stuck" in kinds(events)


def test_a_seat_may_only_act_on_its_own_turn():
    s = start("t-straight", seats=("a", "b"))
    refused(s, "b", Roll(Step("1")), "dirt.not_your_turn")
    refused(s, None, Roll(Step("1")), "dirt.not_your_turn")
    assert rally.legal_actions(s, "b") == []


def test_spare_tire_removes_one_coast_token_for_its_card_and_restarts_in_gear_1():
    s = start("t-straight")
    refused(s, "a", Spare(), "dirt.no_spare")
    s.cars["a"].tokens["coast"] = 2
    s, events = rally.apply(s, "a", Spare())
    car = s.cars["a"]
    assert (car.tokens["coast"], car.spare, car.cards, car.gear) == (1, False, [60], 0)
    assert "dirt_spare" in kinds(events)
    refused(s, "a", Spare(), "dirt.no_spare")  # once until an assistance


def test_B11_B13_5_the_driver_chooses_where_a_jump_lands_when_both_landings_are_free():
    s = start("t-corner")
    st = s.stage
    put(s, "a", space(st, 3, 0, 1), 3)  # the jump (gear 3) is the next space of the left lane
    straight, events = rally.apply(s.clone(), "a", rally.parse("3", s, "a"))
    assert "dirt_jump" in kinds(events) and straight.cars["a"].space == space(st, 4, 0, 0)  # straight on
    diagonal, events = rally.apply(s.clone(), "a", rally.parse("3 land right", s, "a"))
    assert "dirt_jump" in kinds(events) and diagonal.cars["a"].space == space(st, 4, 1, 0)  # the driver's choice
    assert rally.parse("3 land right", s, "a") == Roll(Step("3"), "", "right")
    assert rally.decode(rally.encode(Roll(Step("3"), "", "right"))) == Roll(Step("3"), "", "right")
    assert rally.label(Roll(Step("3"), "", "right")) == "3 land right"
    told = [render(line, "en") for line in DIRT.narrator.prompt(DIRT.rules.view(s, "a"), []).lines]
    assert any(line.startswith("These steps fly off a jump and you choose where they land: `4 left`, `4 right`, "
                               "`3 left`") and "`land right`" in line for line in told), told
    # a named landing that is taken, and a landing named for a step that does not fly: refused
    b = start("t-corner", seats=("a", "b"))
    put(b, "b", space(st, 4, 1, 0), 1)
    put(b, "a", space(st, 3, 0, 1), 3)
    b.order, b.turn = ["a", "b"], 0
    refused(b, "a", Roll(Step("3"), "", "right"), "dirt.landing_taken")
    refused(b, "a", Roll(Step("2"), "", "right"), "dirt.no_landing_here")
