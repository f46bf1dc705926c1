"""RULES A13: occupancy and overtaking (corner spaces hold one car, straight capacity, free
lines, off-road cars, spun cars, no move possible)."""

from __future__ import annotations

from rules_helpers import CORNER, act, corner_ids, gear_cards, kinds, make_game, put_car, refused, space_at

from bot.engine.rallyman.actions import Timeout
from bot.engine.rallyman.game import apply
from bot.engine.rallyman.state import Card


def two_cars_at_corner(gear_a: int, gear_b: int, **kw):
    """Bea already on the corner's first interior space; Ada (to play) just before the corner."""
    state = make_game(CORNER, drivers=2, **kw)
    ids = corner_ids(state.stage)
    put_car(state, 1, ids["interior"][0], gear_b)
    put_car(state, 0, ids["before"], gear_a)
    return state, ids


def test_A13_1_a_corner_space_holds_one_car():
    """A13.1: a space with a note holds one car: the interior is full with Bea on it."""
    state, ids = two_cars_at_corner(3, 3)
    refused(state, "2 interior", None, "full")
    refused(state, "3", None, "cut")  # with the interior taken, a 3 fits only the shortcut


def test_A13_3_overtaking_through_the_skid_past_a_car_on_the_interior():
    """A13.3 / AMB-6: any free trajectory may be used: skidding past a car on the interior."""
    state, ids = two_cars_at_corner(4, 3)
    state, _ = act(state, "4 W W")
    assert state.cars[0].position == ids["skid"][2]


def test_A13_3_overtaking_through_the_shortcut_past_a_car_in_the_corner():
    """A13.3: through the shortcut past a car in the corner (interior or skid)."""
    state, ids = two_cars_at_corner(3, 3, deck=["good"])
    state, _ = act(state, "3 cut")
    state, _ = act(state, "W")
    assert state.cars[0].position == ids["after"]


def test_A13_3_overtaking_through_the_corner_past_a_car_on_the_shortcut():
    """A13.3: through the corner if the other car is on the shortcut."""
    state = make_game(CORNER, drivers=2)
    ids = corner_ids(state.stage)
    put_car(state, 1, ids["shortcut"][0], 3)
    put_car(state, 0, ids["before"], 3)
    state, _ = act(state, "3 W 4")
    assert state.cars[0].position == ids["after"]


def test_A13_1_straight_capacity_from_track_data():
    """A13.1 / OPEN-11: non-corner spaces hold as many cars as the data says (`cap 2`, default 2)."""
    state = make_game("straight 6 cap 2", drivers=3)
    target = space_at(state.stage, 3)
    put_car(state, 1, target, 1)
    put_car(state, 2, target, 1)
    put_car(state, 0, space_at(state.stage, 2), 1)
    refused(state, "1", None, "full", "2 car")
    assert state.stage.spaces[target].capacity == 2


def test_A13_2_no_passing_through_a_full_space():
    """A13.2: "A car may enter or pass through a space only if it has free capacity"."""
    state = make_game("straight 3\nstraight 1 cap 1\nstraight 4", drivers=2)
    put_car(state, 1, space_at(state.stage, 4), 1)
    put_car(state, 0, space_at(state.stage, 2), 3)
    refused(state, "3 4", None, "full")
    refused(state, "W W")
    state, _ = act(state, "3")  # up to the car, not past it
    assert state.cars[0].position == space_at(state.stage, 3)


def test_A13_2_cars_off_the_road_do_not_occupy_road_spaces():
    """A13.2 / A13.3: "Cars off the road do not occupy road spaces": overtaking past a car that
    is off the road on a one-car space."""
    state = make_game("straight 3\nstraight 1 cap 1\nstraight 4", drivers=2)
    put_car(state, 1, space_at(state.stage, 4), 0, top=Card("loc", 0, 60, "off_left"))
    state.cars[1].pose = "off_left"
    put_car(state, 0, space_at(state.stage, 2), 3)
    state, _ = act(state, "3 4 W")
    assert state.cars[0].position == space_at(state.stage, 5)


def test_A13_4_a_spun_car_occupies_its_space():
    """A13.4 (default): a spun car occupies its space like any car."""
    state = make_game("straight 3\nstraight 1 cap 1\nstraight 4", drivers=2)
    put_car(state, 1, space_at(state.stage, 4), 0, top=Card("loc", 0, 60, "spin"))
    state.cars[1].pose = "spun"
    put_car(state, 0, space_at(state.stage, 3), 3)
    refused(state, "3", None, "full")


def test_A13_5_no_move_possible_adds_a_copy_of_the_top_card():
    """A13.5 (DE): a driver who cannot legally move even one space adds a card identical to the
    one on top of his chrono pile (same gear, same time), and his turn passes."""
    stage = "straight 3\nright 3x1 [grass|grass]\nstraight 3"   # one-space corner, no skid
    state = make_game(stage, drivers=2, events=["spin"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)       # Ada, in 4th, plays first
    put_car(state, 1, ids["before"], 1)       # Bea, in 1st, on the same space
    state.queue = [1]                          # ... and plays after Ada in this round
    state, events = act(state, "4")            # Ada: one over, spins on the only corner space
    assert kinds(events).index("loss_of_control") < kinds(events).index("no_move")
    assert state.last_path == [], "Bea's turn passed without a die"
    assert gear_cards(state, 1)[-2:] == [("gear", 1, 50), ("nomove", 1, 50)]
    assert state.cars[1].position == ids["before"]


def test_A13_5_a_second_turn_without_a_move_copies_the_copy_and_keeps_the_gear():
    """A13.5: the card added is identical to the one on top, so after a no-move copy of a 4th-gear
    card the next one is 4th gear again, not OPEN-12's neutral. Found by random play: a driver
    timing out twice on a skid that needs exactly 3rd fell to gear 0 there, could never move
    again, and no car could take a turn."""
    state = make_game(CORNER, drivers=2)
    ids = corner_ids(state.stage)
    put_car(state, 1, ids["before"], 2)
    put_car(state, 0, ids["skid"][0], 4)  # Ada, to play, stopped in the skid in 4th
    timeouts = 0
    while timeouts < 2:  # both time out without a die, turn after turn (a rally rule: A13.5's card)
        timeouts += state.turn.car == 0
        state, _ = apply(state, Timeout())
    assert gear_cards(state, 0)[-3:] == [("gear", 4, 20), ("nomove", 4, 20), ("nomove", 4, 20)]
    assert state.cars[0].gear == 4
    assert state.cars[0].position == ids["skid"][0]
    assert state.turn is not None, "the special goes on"


def test_OPEN_12_no_move_after_a_loss_of_control_costs_60s_in_gear_0():
    """A13.5 / OPEN-12: top card a loss-of-control back → a card worth 60 s, gear stays 0."""
    stage = "straight 3\nright 3x1 [grass|grass]\nstraight 3"
    state = make_game(stage, drivers=2, events=["spin"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    put_car(state, 1, ids["before"], 0, top=Card("loc", 0, 60, "spin"))
    state.queue = [1]
    state, events = act(state, "4")
    assert gear_cards(state, 1)[-1] == ("nomove", 0, state.rules.no_move_neutral_seconds)
    assert state.rules.no_move_neutral_seconds == 60
    assert state.cars[1].gear == 0


def test_A13_4_option_spun_car_blocks_the_corner_road_lines():
    """A13.4 option `spun_car_blocks_corner`: a car spun in a corner closes every road trajectory
    of that corner; the shortcut stays open. Default: it only occupies its own space."""
    from rules_helpers import rules_with

    def game(rules):
        state = make_game(CORNER, drivers=2, ruleset=rules, deck=["good"])
        ids = corner_ids(state.stage)
        put_car(state, 1, ids["interior"][0], 0, top=Card("loc", 0, 60, "spin"))
        state.cars[1].pose = "spun"
        put_car(state, 0, ids["before"], 4)
        return state, ids

    state, ids = game(rules_with(spun_car_blocks_corner=True))
    refused(state, "4 skid", None, "closed")
    cut, _ = act(state, "4 cut")
    assert cut.cars[0].position == ids["shortcut"][0]
    state, ids = game("classic")
    skid, _ = act(state, "4")
    assert skid.cars[0].position == ids["skid"][0]
