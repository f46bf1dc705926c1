"""DIRT shortcuts, "−1" tokens, jumps, damage tokens and knock-outs (RULES B10, B11, B13.3–B13.5,
B13.8.4–B13.8.6, B13.8.9)."""

from __future__ import annotations

from bot.engine.dirt import rally
from bot.engine.dirt.moves import dice_left_of, limit_for
from bot.engine.dirt.rally import Roll, Step, Stop
from tests.dirt.rally_kit import kinds, put, refused, space, start

SHORTCUT = 35  # the corner tile's shortcut space in rally_kit.CORNER (limit 2)


def test_B10_entering_a_shortcut_draws_a_token_an_ok_goes_on_the_dashboard():
    s = start(draws=["ok"])
    put(s, "a", space(s.stage, 1, 0, 2), 2)
    assert s.stage.spaces[SHORTCUT].kind.value == "shortcut"
    s, events = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert s.cars["a"].space == SHORTCUT and s.cars["a"].tokens["ok"] == 1
    assert s.bag["ok"] == s.rules.damage_bag["ok"] - 1  # drawn tokens stay out of the bag (B13.4)
    assert "dirt_shortcut" in kinds(events)


def test_B10_B13_8_4_a_minus_one_lowers_the_tiles_corner_limits_for_the_others_not_the_drawer():
    s = start(seats=("a", "b"), draws=["minus_one"])
    st = s.stage
    put(s, "b", space(st, 1, 1, 2), 2)
    put(s, "a", space(st, 1, 0, 2), 2)
    s.order, s.turn = ["a", "b"], 0
    s, events = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert s.minus == {2: ["a"]} and sum(s.cars["a"].tokens.values()) == 0
    assert "dirt_minus_one" in kinds(events)
    inside = st.spaces[space(st, 2, 0, 0)]
    assert (limit_for(s, "a", inside), limit_for(s, "b", inside)) == (2, 1)
    assert limit_for(s, "b", st.spaces[SHORTCUT]) == 2  # the shortcut's own limit is unchanged
    s, _ = rally.apply(s, "a", Stop())
    s, events = rally.apply(s, "b", Roll(Step("2")))  # b on the right: the outside line, 4 − 1 = 3
    assert "dirt_lost_control" not in kinds(events)


def test_B10_a_limit_of_0_closes_the_space():
    s = start(seats=("a", "b"))
    st = s.stage
    put(s, "b", space(st, 1, 0, 2), 1)
    s.minus = {2: ["a", "a"]}
    s.order, s.turn = ["b"], 0
    refused(s, "b", Roll(Step("1"), "left"), "dirt.space_closed")
    s, _ = rally.apply(s, "b", Roll(Step("1"), "right"))  # the outside line is still open (limit 2)


def test_B13_8_5_a_shortcut_above_its_limit_draws_the_shortcut_token_first():
    s = start(draws=["coast", "brake"])
    put(s, "a", space(s.stage, 1, 0, 2), 3)
    s, events = rally.apply(s, "a", Roll(Step("3"), "cut"))
    order = kinds(events)
    assert order.index("dirt_shortcut") < order.index("dirt_lost_control") < order.index("dirt_damage")
    assert (s.cars["a"].tokens["coast"], s.cars["a"].tokens["brake"]) == (1, 1)


def test_B10_a_coast_die_token_from_a_shortcut_acts_from_the_next_turn():
    s = start(draws=["coast"])
    put(s, "a", space(s.stage, 1, 0, 2), 2)
    before = dice_left_of(s, "a").leader  # alone, the car leads: its side dice are leader dice
    s, _ = rally.apply(s, "a", Roll(Step("2"), "cut"))
    assert dice_left_of(s, "a").leader == before
    s, _ = rally.apply(s, "a", Stop())
    assert dice_left_of(s, "a").leader == before - 1  # B13.8.4: the column in use


def test_B11_B13_5_the_jumps_gear_flies_one_space_further():
    s = start()
    st = s.stage
    put(s, "a", space(st, 3, 0, 1), 2)
    s, events = rally.apply(s, "a", Roll(Step("3")))
    assert s.cars["a"].space == space(st, 4, 0, 0)  # straight on, past the jump space
    assert s.turn_path == [space(st, 3, 0, 2), space(st, 4, 0, 0)]
    assert "dirt_jump" in kinds(events) and "dirt_lost_control" not in kinds(events)


def test_B13_5_below_the_jumps_gear_no_jump():
    s = start()
    st = s.stage
    put(s, "a", space(st, 3, 0, 1), 2)
    s, events = rally.apply(s, "a", Roll(Step("2")))
    assert s.cars["a"].space == space(st, 3, 0, 2) and "dirt_jump" not in kinds(events)


def test_B13_5_one_gear_above_flies_and_loses_control_two_above_knocks_out():
    s = start(draws=["ok"])
    st = s.stage
    put(s, "a", space(st, 3, 0, 1), 3)
    s1, events = rally.apply(s, "a", Roll(Step("4")))
    assert s1.cars["a"].space == space(st, 4, 0, 0) and s1.cars["a"].gear == 0
    assert [e.params["cause"] for e in events if e.kind == "dirt_lost_control"] == ["jump"]
    put(s, "a", space(st, 3, 0, 1), 4)
    s2, _ = rally.apply(s, "a", Roll(Step("5")))
    assert (s2.cars["a"].status, s2.cars["a"].reason) == ("out", "jump")


def test_B13_8_6_a_coast_die_on_a_jump_counts_as_the_current_gear():
    s = start(seats=("a", "b"))
    st = s.stage
    put(s, "a", space(st, 3, 0, 1), 3)
    put(s, "b", space(st, 1, 0, 0), 1)
    s.order, s.turn = ["b", "a"], 1  # a not leading: coast dice
    s, events = rally.apply(s, "a", Roll(Step("coast")))
    assert "dirt_jump" in kinds(events) and s.cars["a"].space == space(st, 4, 0, 0)


def test_B13_8_6_a_jump_whose_landing_spaces_are_all_taken_cannot_be_flown():
    s = start(seats=("a", "b", "c"))
    st = s.stage
    put(s, "b", space(st, 4, 0, 0), 1)
    put(s, "c", space(st, 4, 1, 0), 1)
    put(s, "a", space(st, 3, 0, 1), 2)
    s.order, s.turn = ["a", "b", "c"], 0
    refused(s, "a", Roll(Step("3")), "dirt.jump_blocked")
    rally.apply(s, "a", Roll(Step("2")))  # a die that would not fly is fine


def test_B13_4_a_fourth_token_other_than_ok_knocks_out_an_ok_does_not_count():
    s = start(faces=[True, True, True], draws=["brake"])
    s.cars["a"].tokens.update(coast=1, brake=1, minus_one=1, ok=2)
    s1, events = rally.apply(s, "a", Roll(Step("1")))
    s1, events = rally.apply(s1, "a", Roll(Step("2")))
    s1, events = rally.apply(s1, "a", Roll(Step("3")))
    assert (s1.cars["a"].status, s1.cars["a"].reason) == ("out", "damage")
    assert "dirt_knocked_out" in kinds(events)
    s = start(faces=[True, True, True], draws=["ok"])
    s.cars["a"].tokens.update(coast=1, brake=1, minus_one=1)
    for die in ("1", "2", "3"):
        s, _ = rally.apply(s, "a", Roll(Step(die)))
    assert s.cars["a"].status == "racing" and s.cars["a"].tokens["ok"] == 1


def test_B13_4_a_minus_one_damage_side_takes_the_highest_gear_die():
    s = start(faces=[True, True, True], draws=["minus_one"])
    for die in ("1", "2", "3"):
        s, _ = rally.apply(s, "a", Roll(Step(die)))
    assert dice_left_of(s, "a").gears == (1, 2, 3, 4, 5)


def test_B13_3_crossing_the_finish_with_a_loss_of_control_counts_with_the_normal_card():
    s = start("t-straight", faces=[True], draws=["coast"])
    st = s.stage
    put(s, "a", space(st, 2, 0, 2), 3)
    s.hazards = 2  # two ⚠ already shown this turn
    s.turn_dice = [("2", True, space(st, 2, 0, 1)), ("coast", True, space(st, 2, 0, 1))]
    s, events = rally.apply(s, "a", Roll(Step("3")))
    car = s.cars["a"]
    assert car.status == "finished" and car.stage_times == [40] and car.tokens["coast"] == 1
    assert kinds(events)[kinds(events).index("dirt_lost_control"):][:3] == ["dirt_lost_control", "dirt_damage",
                                                                              "dirt_finish"]


def test_B13_8_9_a_fourth_token_at_the_finish_stands_and_knocks_out_before_the_next_stage():
    def finish_with_fourth_token(assistance: list[bool]) -> rally.DirtState:
        s = start("t-straight", faces=[True], draws=["brake"], stages=["t-straight"], assistance=assistance)
        st = s.stage
        s.cars["a"].tokens.update(coast=1, brake=1, minus_one=1)
        put(s, "a", space(st, 2, 0, 2), 3)
        s.hazards = 2
        s.turn_dice = [("2", True, space(st, 2, 0, 1)), ("coast", True, space(st, 2, 0, 1))]
        s, _ = rally.apply(s, "a", Roll(Step("3")))
        return s

    s = finish_with_fourth_token([False])
    assert s.cars["a"].stage_times[0] == 40  # the finish stands
    assert (s.cars["a"].status, s.cars["a"].reason) == ("out", "damage") and s.over
    s = finish_with_fourth_token([True])
    assert s.cars["a"].status == "waiting" and s.stage_index == 1
    assert sum(s.cars["a"].tokens.values()) == 0
