"""DIRT time attacks, SISU, retirements, deadlines and rallies of several stages (RULES B2, B13.1,
B13.2, B13.6, B13.8.7–B13.8.10)."""

from __future__ import annotations

from fractions import Fraction

from bot.engine.dirt import course, rally
from bot.engine.dirt.classification import rally_rows
from bot.engine.dirt.narrate import narrate
from bot.engine.dirt.rally import Attack, Retire, Roll, Step, Stop, Timeout
from bot.i18n import render
from tests.dirt.rally_kit import go, kinds, put, refused, space, start


def test_B13_1_a_time_attack_rolls_the_group_and_earns_a_second_per_die():
    s = start("t-straight")
    s, events = go(s, "attack 1 2 3")
    car = s.cars["a"]
    assert car.seconds_tokens == 3 and car.cards == [40] and len(s.turn_path) == 0
    assert kinds(events)[:2] == ["dirt_attack", "dirt_roll"]
    assert course.stage_time(car) == 37  # B13.2: cards − second tokens held


def test_B13_1_B13_2_the_story_of_a_time_attack_says_the_tokens_earned_and_the_total_less_them():
    s = start("t-straight")
    s, events = go(s, "attack 1 2 3")
    told = [render(line, "en") for line in narrate(events, {"a": "Ann"})]
    assert "Ann goes for a time attack with 3 dice and earns 3 second tokens (B13.1)." in told
    assert any(line.startswith("Ann ends the turn in gear 3: +40 s (37 s on this stage") for line in told), told


def test_B13_8_7_brake_dice_count_toward_the_group_and_its_seconds():
    s = start("t-straight")
    put(s, "a", space(s.stage, 1, 0, 0), 4)
    refused(s, "a", Attack(((Step("4"), ""),)), "dirt.attack_too_few")
    s, _ = rally.apply(s, "a", Attack(((Step("2", 1), ""),)))
    assert s.cars["a"].seconds_tokens == 2


def test_B13_1_A18_4_a_time_attack_stops_at_the_die_that_reaches_the_hazard_limit_and_pays_every_die():
    s = start("t-straight", faces=[True, True, True], draws=["ok"])
    s, events = rally.apply(s, "a", rally.parse("attack 1 2 3 4", s, "a"))
    car = s.cars["a"]
    assert car.space == space(s.stage, 1, 0, 2)  # the third die's space
    # four dice rolled at once: four second tokens, even on the crash at the third (A18.4)
    assert car.seconds_tokens == 4 and car.gear == 0 and car.cards == [70]
    assert "dirt_lost_control" in kinds(events)


def test_B13_1_a_time_attack_is_checked_whole_and_refused_mid_turn_or_past_the_finish():
    s = start("t-straight")
    refused(s, "a", rally.parse("attack 1 3", s, "a"), "dirt.gear_not_adjacent")
    s1, _ = go(s, "1")
    refused(s1, "a", rally.parse("attack 2 3", s1, "a"), "dirt.attack_mid_turn")
    put(s, "a", space(s.stage, 2, 0, 1), 3)
    refused(s, "a", rally.parse("attack 3 4 5", s, "a"), "dirt.attack_past_finish")


def test_A22_sisu_cancels_a_loss_of_control_by_hazards_and_ignores_them_for_the_turn():
    s = start("t-straight", faces=[True, True, True, True], modules={"sisu": True})
    s, events = go(s, "1", "2", "3")
    assert "dirt_sisu" in kinds(events) and "dirt_lost_control" not in kinds(events)
    assert s.cars["a"].sisu is False and s.sisu_active
    assert rally.turn_odds(s, "a", [Step("4")]).total == 0
    s, events = go(s, "4")
    assert "dirt_lost_control" not in kinds(events) and s.cars["a"].gear == 4


def test_B13_1_turn_odds_count_the_hazards_shown_this_turn():
    s = start("t-straight", faces=[True, True])
    s, _ = go(s, "1", "2")
    assert rally.turn_odds(s, "a", [Step("3")]).total == Fraction(1, 6)  # one more ⚠ of gear 3's one face
    assert rally.turn_odds(s, "a", [Step("leader")]).total == Fraction(2, 6)


def test_retire_by_the_rally_or_by_the_seat_itself_and_not_by_another_seat():
    s = start("t-straight", seats=("a", "b"))
    refused(s, "b", Retire("a"), "dirt.retire_other")
    s1, events = rally.apply(s.clone(), None, Retire("b"))  # apply plays on the state: s stays
    assert (s1.cars["b"].status, s1.cars["b"].reason) == ("retired", "retired")
    refused(s1, None, Retire("b"), "dirt.already_out")
    s2, events = rally.apply(s, "a", Retire("a"))
    assert "dirt_retired" in kinds(events) and rally.finished(s2) is False


def test_a_deadline_ends_the_turn_as_it_stands():
    s = start("t-straight", seats=("a", "b"))
    refused(s, "a", Timeout(), "dirt.timeout_rally_only")
    s, _ = go(s, "1", "2")
    s, events = rally.apply(s, None, Timeout())
    assert s.cars["a"].cards == [50] and rally.to_act(s) == "a"  # round 2 starts with a
    assert "dirt_turn_end" in kinds(events)


def test_B2_B13_8_10_A17_later_stages_start_fastest_first_and_results_sum_the_stages():
    s = start("t-straight", seats=("a", "b", "c"), stages=["t-straight"])
    for seat in "abc":
        s.cars[seat].status = "finished"
    s.cars["a"].cards, s.cars["a"].seconds_tokens = [60, 40], 30  # 70
    s.cars["b"].cards = [50, 30]  # 80
    s.cars["c"].cards = [40, 30]  # 70, ties with a: keeps the previous order (a before c)
    s.cars["a"].tokens.update(coast=1, ok=2)
    events: list = []
    course.end_stage(s, events)
    assert [s.cars[x].stage_times for x in "abc"] == [[70], [80], [70]]
    assert s.start_order == ["a", "c", "b"] and s.stage_index == 1
    assert s.cars["a"].seconds_tokens == 0  # B13.8.7: cleared at the stage end
    assert s.cars["a"].tokens["coast"] == 0 and s.cars["a"].spare is False  # A14.2: the spare, between stages
    assert s.bag["ok"] == s.rules.damage_bag["ok"] - 2  # B13.8.8: tokens on a dashboard stay out of the bag
    assert kinds(events)[:2] == ["dirt_stage_end", "dirt_spare"]
    for seat in "abc":
        s.cars[seat].status = "finished"
    s.cars["a"].cards, s.cars["b"].cards, s.cars["c"].cards = [60], [50], [50]
    course.end_stage(s, events)
    assert s.over and kinds(events)[-1] == "dirt_rally_end"
    # c 70 + 50; a 70 + 60 and b 80 + 50 tie: shown by the better last stage time (A17 OPEN-5:
    # b's 50 before a's 60, although a started before b), sharing second place
    assert rally.results(s) == [("c", "finished", 120, None), ("b", "finished", 130, None),
                                ("a", "finished", 130, None)]
    assert [(r.seat, r.rank) for r in rally_rows(s)] == [("c", 1), ("b", 2), ("a", 2)]
    refused(s, "a", Stop(), "dirt.rally_over")


def test_B13_6_assistance_returns_every_token_to_the_bag_and_the_spare_to_the_car():
    s = start("t-straight", seats=("a",), stages=["t-straight"], assistance=[True])
    car = s.cars["a"]
    car.status, car.cards, car.spare = "finished", [60], False
    car.tokens.update(coast=2, minus_one=1)
    events: list = []
    course.end_stage(s, events)
    assert sum(car.tokens.values()) == 0 and car.spare
    assert s.bag == s.rules.damage_bag
    assert "dirt_assistance" in kinds(events)


def test_B2_a_random_legal_rally_of_two_stages_ends_with_every_driver_classified_or_out():
    s = start("t-corner", seats=("a", "b"), stages=["t-slide"], draws=["ok"] * 40)
    for _ in range(400):
        if rally.finished(s):
            break
        seat = rally.to_act(s)
        s, _ = rally.apply(s, seat, rally.legal_actions(s, seat)[-1 if s.turn_path else 0])
    assert rally.finished(s)
    for seat, status, total, reason in rally.results(s):
        assert (status == "finished") == (total is not None), (seat, status, reason)
        if total is not None:
            assert total == sum(t for t in s.cars[seat].stage_times if t is not None)
    assert all(len(c.stage_times) == 2 for c in s.cars.values())


def test_legal_actions_are_rolls_by_step_and_direction_then_stop():
    s = start("t-straight")
    s, _ = go(s, "1")
    actions = rally.legal_actions(s, "a")
    assert Stop() in actions and actions[-1] == Stop()
    assert Roll(Step("2"), "left") in actions and Roll(Step("2"), "right") in actions
    assert all(isinstance(a, (Roll, Stop)) for a in actions)
