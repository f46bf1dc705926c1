"""RULES A14 spare tire, A15 finishing and stage time, A17 classification of a special."""

from __future__ import annotations

from rules_helpers import LONG, act, event, gear_cards, kinds, make_game, play, put_car, refused, space_at

from bot.engine.rallyman.classify import classification
from bot.engine.rallyman.dice_rules import dice_allowed
from bot.engine.rallyman.game import legal_actions
from bot.engine.rallyman.state import Card

# -- A14 spare tire --------------------------------------------------------------------------------

def with_flat(gear: int, flats: int = 1):
    state = make_game(LONG)
    put_car(state, 0, space_at(state.stage, 5), gear)
    state.cars[0].flats = flats
    return state


def test_A14_1_spare_tire_in_gear_1_costs_a_minute_repairs_a_flat_and_restarts_in_1st():
    """A14.1: at the start of a turn in gear 0 or 1: spare tire card on the pile (60 s), one flat
    marker removed, then drive this turn starting with the 1st-gear die."""
    state = with_flat(1, flats=2)
    state, events = act(state, "spare")
    car = state.cars[0]
    assert gear_cards(state)[-1] == ("spare", 0, 60)
    assert car.flats == 1 and car.spare is False
    assert "spare" in kinds(events)
    assert dice_allowed(state, car, state.turn) == ["1"]
    state, _ = act(state, "1")
    assert state.cars[0].position == space_at(state.stage, 6)


def test_A14_1_spare_tire_in_neutral():
    """A14.1: gear 0 (after a loss of control) is allowed too."""
    state = make_game(LONG)
    put_car(state, 0, space_at(state.stage, 5), 0, top=Card("loc", 0, 60, "spin"))
    state.cars[0].flats = 1
    state, _ = act(state, "spare")
    assert state.cars[0].flats == 0


def test_A14_1_spare_tire_refused_in_3rd():
    """A14.1: "only if the current gear is 0 or 1": in 3rd it is refused, state unchanged."""
    state = with_flat(3)
    refused(state, "spare", None, "3rd", "neutral or 1st")
    assert all(str(a) != "spare" for a in legal_actions(state))


def test_A14_1_spare_tire_only_at_the_start_of_a_turn():
    """A14.1: "only at the start of a turn"."""
    state = with_flat(1)
    state, _ = act(state, "1")
    refused(state, "spare", None, "start of a turn")


def test_A14_1_spare_tire_needs_a_flat():
    """A14.1: it removes one flat marker; with none there is nothing to change."""
    state = with_flat(1, flats=0)
    refused(state, "spare", None, "no flat")


def test_A14_3_one_spare_per_driver():
    """A14.3: "One spare per driver. Once used ... it is gone"."""
    state = with_flat(1, flats=2)
    state = play(state, "spare", "1 stop")
    assert state.cars[0].flats == 1
    refused(state, "spare", None, "already used")


def test_A14_spare_is_offered_only_when_allowed():
    """A14.1: the list of legal actions offers the spare tire exactly when it may be fitted."""
    assert "spare" in [str(a) for a in legal_actions(with_flat(1))]
    assert "spare" in [str(a) for a in legal_actions(with_flat(0))]
    assert "spare" not in [str(a) for a in legal_actions(with_flat(2))]
    assert "spare" not in [str(a) for a in legal_actions(with_flat(1, flats=0))]


# -- A15 finishing -------------------------------------------------------------------------------

SHORT = "straight 3"


def test_A15_1_crossing_the_line_finishes_with_the_gear_card_as_usual():
    """A15.1: a car finishes when a move takes it past the last space; its turn ends there and it
    takes its gear card as usual; it plays no more turns in this special."""
    state = make_game(SHORT, drivers=2)
    state, events = act(state, "1 2 3 4 5")  # the 4th die crosses the line; the 5th is not rolled
    ada = state.cars[0]
    assert ada.status == "finished"
    assert [p[1] for p in state.last_path] == ["1", "2", "3", "4"]
    assert gear_cards(state) == [("gear", 4, 20)]
    assert "finish" in kinds(events)
    refused(state, "1", "d1", "already finished", "0:20")


def test_A15_2_stage_time_is_the_sum_of_the_chrono_pile():
    """A15.2: stage time = sum of chrono-pile times (no second markers without A18)."""
    state = make_game("straight 7")
    state = play(state, "1 2 stop", "3 4 stop", "5 W stop")
    state, events = act(state, "W W")  # space 7, then across the line in 5th
    car = state.cars[0]
    assert car.status == "finished"
    assert [c.seconds for c in car.pile] == [40, 20, 10, 10]
    assert car.time == 80
    assert event(events, "finish").params["time"] == "1:20"


def test_A15_3_loss_of_control_while_crossing_finishes_face_up_and_costs_a_black_die():
    """A15.3: the triggering die crosses the line: the special counts as finished, the card of the
    last engaged gear face up (normal time, no event), one black die lost."""
    state = make_game(SHORT, faces=[True, True, False, True])
    state, events = act(state, "1 2 3 4")
    car = state.cars[0]
    assert car.status == "finished"
    assert "finish_crash" in kinds(events) and "loss_of_control" not in kinds(events)
    assert gear_cards(state) == [("gear", 4, 20)]
    assert car.lost_black == 1


def test_A4_4_arrival_order_does_not_matter_only_time():
    """A4.4 / A17: the first car across the line is not the winner if its time is longer."""
    state = make_game("straight 4", drivers=2)
    state = play(state, "1 2 3 4 5")                 # Ada: across in round 1, 10 s
    state = play(state, "1 stop", "2 3 4 W")        # Bea: 50 s, then across in 4th: 70 s
    rows = classification(state)
    assert [r["name"] for r in rows] == ["Ada", "Bea"]
    assert state.cars[0].finish_rank == 1 and state.cars[1].finish_rank == 2
    state = make_game("straight 4", drivers=2)
    state = play(state, "1 stop", "2 3 4 W")        # Ada: 50 + 20 = 70 s, first across
    state = play(state, "1 2 3 4 5")                 # Bea: 10 s, second across
    rows = classification(state)
    assert [r["name"] for r in rows] == ["Bea", "Ada"]
    assert state.cars[0].finish_rank == 1


# -- A17 classification --------------------------------------------------------------------------

def test_A17_classification_by_time_ties_share_a_rank_and_knocked_out_last():
    """A17 / OPEN-5: by stage time; equal times share a rank; knocked-out drivers after all
    classified drivers (DNF)."""
    stage = "straight 5\nright 1x1 [grass|grass]\nstraight 2"
    state = make_game(stage, drivers=4)
    # Cy goes into the hairpin (note 1, H = 1) in 4th: three over, knocked out.
    # Ada and Bea drive the same way; Dee is 10 s slower.
    script = {
        "Ada": ["1 2 3 stop", "2 1 W stop", "2 3 4"],        # 30 + 50 + 20 s
        "Bea": ["1 2 3 stop", "2 1 W stop", "2 3 4"],        # the same
        "Cy": ["1 2 3 4 stop", "W W"],                       # 4th into the note 1: out
        "Dee": ["1 2 3 stop", "2 1 W W stop", "2 3"],        # 30 + 50 + 30 s
    }
    progress = {name: 0 for name in script}
    while state.turn is not None:
        name = state.cars[state.turn.car].name
        text = script[name][progress[name]]
        progress[name] += 1
        state, _ = act(state, text)
    rows = classification(state)
    assert [r["name"] for r in rows] == ["Ada", "Bea", "Dee", "Cy"]
    assert [r["rank"] for r in rows] == [1, 1, 3, None]
    assert [r["time"] for r in rows[:3]] == [100, 100, 110]
    assert rows[-1]["status"] == "out" and rows[-1]["reason"] == "overspeed_ko"
    assert rows[1]["gap"] == 0
