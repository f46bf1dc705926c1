"""RULES A1: components and the basic principle (one die = one space; dice and cards from the ruleset)."""

from __future__ import annotations

import pytest
from rules_helpers import LONG, act, event, gear_cards, make_game, play, rules_with, space_at, stage_from

from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.game import Seat, apply, new_game
from bot.engine.rallyman.ruleset import load_ruleset
from bot.engine.rallyman.state import START


def test_A1_every_die_moves_the_car_exactly_one_space():
    """A1: "every die used advances the car exactly one space, whichever die it is and whatever
    face it shows (⚠ included)"."""
    faces = [True, False, False, True, False, False, False]  # two ⚠: no loss of control
    state = make_game(LONG, faces=faces)
    stage = state.stage
    dice = ["1", "2", "W", "3", "4", "W", "5"]
    for n, die in enumerate(dice, start=1):
        state, events = act(state, die)
        assert state.cars[0].position == space_at(stage, n)
        assert event(events, "die").params["hazard"] == ("⚠" if faces[n - 1] else "")
        assert event(events, "die").params["hazards"] == sum(faces[:n])
    assert state.cars[0].status == "racing" and state.cars[0].pile[-1].kind == "gear"


def test_A1_a_die_showing_hazard_still_moves_one_space():
    """A1: ⚠ faces move the car like any other face."""
    state = make_game(LONG, faces=[True, True])
    state = play(state, "1", "2")
    assert state.cars[0].position == space_at(state.stage, 2)
    assert state.turn.hazards == 2


@pytest.mark.parametrize("hazard_faces, expect", [(6, "⚠"), (0, "")])
def test_A1_hazard_faces_of_each_die_come_from_the_ruleset(hazard_faces, expect):
    """A1 / OPEN-1: the ⚠ faces per die are configured in `dice.hazard_faces`, and the dice read
    that table: a die with 6 ⚠ faces of 6 always shows ⚠, one with 0 never does."""
    rules = rules_with(dice={"hazard_faces": {d: hazard_faces for d in ("1", "2", "3", "4", "5", "W")}})
    for seed in range(5):
        state = new_game(stage_from(LONG), [Seat("d1", "Ada")], seed=seed, ruleset=rules)
        state, events = apply(state, Roll(("1",)))
        assert event(events, "die").params["hazard"] == expect


def test_A1_default_hazard_faces_are_the_OPEN_1_defaults():
    """OPEN-1 default: gear dice 1-3 one ⚠ face of 6, gear dice 4-5 two, white one."""
    rules = load_ruleset("classic")
    assert [rules.hazard_probability(d) for d in ("1", "2", "3", "4", "5", "W")] == \
        pytest.approx([1 / 6, 1 / 6, 1 / 6, 2 / 6, 2 / 6, 1 / 6])


@pytest.mark.parametrize("gear, seconds", [(1, 50), (2, 40), (3, 30), (4, 20), (5, 10)])
def test_A1_gear_card_times(gear, seconds):
    """A1: gear cards are worth 50, 40, 30, 20, 10 s for gears 1-5 (ruleset gear_card_seconds)."""
    state = make_game(LONG)
    dice = " ".join(str(g) for g in range(1, gear + 1))
    state = play(state, f"{dice} stop")
    assert gear_cards(state) == [("gear", gear, seconds)]
    assert state.rules.card_seconds(gear) == seconds


def test_A1_gear_card_times_are_read_from_the_ruleset():
    """A1: the times are ruleset data, not constants: a house rule changes the card taken."""
    rules = rules_with(gear_card_seconds={"1": 55, "2": 44, "3": 33, "4": 22, "5": 11})
    state = new_game(stage_from(LONG), [Seat("d1", "Ada")], ruleset=rules)
    state, _ = apply(state, Roll(("1", "2"), end=True))
    assert gear_cards(state) == [("gear", 2, 44)]


def test_A1_cars_begin_behind_the_start_line():
    """A4.1 with A1: before its first die a car is behind the start line, in gear 0."""
    state = make_game(LONG, drivers=2)
    assert all(c.position == START and c.gear == 0 and c.pile == [] for c in state.cars)
