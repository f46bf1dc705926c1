"""RULES A8: corners (interior, skid, bail-out, shortcut, dirt markers, over-speed AMB-3)."""

from __future__ import annotations

import pytest
from rules_helpers import CORNER, act, corner_ids, event, kinds, make_game, play, put_car, refused, rules_with

from bot.engine.core.errors import NotAllowed
from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.game import apply


def before_corner(gear: int, stage: str = CORNER, **kw):
    """The car to play on the space just before the corner, at the start of a turn in `gear`."""
    state = make_game(stage, **kw)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], gear)
    return state, ids


# -- A8.1 interior -------------------------------------------------------------------------------

@pytest.mark.parametrize("gear, die", [(2, "1"), (2, "2"), (2, "3"), (3, "3"), (3, "W")])
def test_A8_1_interior_note_is_a_maximum(gear, die):
    """A8.1: entering the interior requires gear ≤ note (note 3 → gears 1-3)."""
    state, ids = before_corner(gear)
    state, events = act(state, die)
    assert state.cars[0].position == ids["interior"][0]
    assert "loss_of_control" not in kinds(events)


def test_A8_1_each_interior_space_takes_at_most_the_note():
    """A8.1 with A8.6 (inside the corner): the second interior space is checked against the note
    too: 4th from the first interior space of a 3 corner is one gear over."""
    state, ids = before_corner(3, events=["spin"])
    state, _ = act(state, "3")
    state, events = act(state, "4")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"
    assert state.cars[0].position == ids["interior"][1]


def test_A8_1_leaving_the_interior_the_next_die_may_go_one_gear_higher():
    """A8.1: "Leaving it, the next die may go one gear higher as usual"."""
    state, ids = before_corner(3)
    state, events = act(state, "3 W 4")
    assert state.cars[0].position == ids["after"]
    assert "loss_of_control" not in kinds(events)


# -- A8.2 skid -----------------------------------------------------------------------------------

def test_A8_2_skid_needs_exactly_the_note():
    """A8.2: every die that moves the car into a skid space must have gear exactly its note; a
    3-space skid in one turn needs the gear die and both white dice (4, white, white)."""
    state, ids = before_corner(4)
    state, _ = act(state, "4")
    assert state.cars[0].position == ids["skid"][0]
    state, _ = act(state, "W W")
    assert state.cars[0].position == ids["skid"][2]
    assert [p[0] for p in state.turn.path] == list(ids["skid"])


def test_A8_2_skid_continues_over_several_turns():
    """A8.2: "A skid may continue over several turns (next turn: same-gear die or a white die)"."""
    state, ids = before_corner(4)
    state = play(state, "4 skid stop")
    assert state.cars[0].position == ids["skid"][0] and state.cars[0].gear == 4
    state = play(state, "4 stop")
    assert state.cars[0].position == ids["skid"][1]
    state = play(state, "W stop")
    assert state.cars[0].position == ids["skid"][2]
    assert state.cars[0].gear == 4


def test_A8_2_a_gear_below_the_skid_note_cannot_enter_the_skid():
    """A8.2: "A die whose gear is below the skid note can never move the car into a skid space
    (illegal move)": refused, state unchanged."""
    state, ids = before_corner(3)
    refused(state, "3 skid", None, "skid", "3")
    refused(state, "2 skid")


def test_A8_2_a_skid_that_tightens_takes_the_lower_note_on_its_last_space():
    """A8.2: the gear must equal *that space's* note: on a skid 4-4-3 the die 3 named `skid`
    moves from the second skid space onto the third (note 3), not only out by the bail-out."""
    state, ids = before_corner(4, stage="straight 3\nleft 3x3 skid 4-4-3\nstraight 4")
    state, _ = act(state, "4 W")
    assert state.cars[0].position == ids["skid"][1]
    skid_on, _ = act(state, "3 skid")
    assert skid_on.cars[0].position == ids["skid"][2]
    bail, _ = act(state, "3")
    assert bail.cars[0].position in ids["interior"]


# -- A8.3 bail-out -------------------------------------------------------------------------------

@pytest.mark.parametrize("skid_index", [0, 1])
def test_A8_3_bail_out_from_a_skid_space_to_the_interior(skid_index):
    """A8.3: from any skid space except the last, the gear die one below the skid note moves the
    car onto the interior trajectory (target from track data)."""
    state, ids = before_corner(4)
    state = play(state, "4" if skid_index == 0 else "4 W")
    assert state.cars[0].position == ids["skid"][skid_index]
    state, events = act(state, "3")
    target = state.stage.spaces[ids["skid"][skid_index]].bailout
    assert target in ids["interior"]
    assert state.cars[0].position == target
    assert "loss_of_control" not in kinds(events)


def test_A8_3_no_bail_out_from_the_last_skid_space():
    """A8.3 / AMB-2: "any skid space except the last one": from the last skid space the die 3
    leaves the corner onto the road after it, never back onto the interior."""
    state, ids = before_corner(4)
    state = play(state, "4 W W")
    assert state.cars[0].position == ids["skid"][-1]
    assert state.stage.spaces[ids["skid"][-1]].bailout is None
    state, _ = act(state, "3")
    assert state.cars[0].position == ids["after"]


# -- A8.4 shortcut -------------------------------------------------------------------------------

def test_A8_4_shortcut_entry_with_gear_up_to_K_draws_a_card():
    """A8.4: entering the shortcut requires gear ≤ K; the driver immediately draws a shortcut card
    (A9), applies it and may continue moving."""
    state, ids = before_corner(4, deck=["good", "dirty", "flat"])
    state, events = act(state, "4 cut")
    assert state.cars[0].position == ids["shortcut"][0]
    assert "shortcut_good" in kinds(events)
    assert state.deck == ["dirty", "flat", "good"], "the card goes under the deck (AMB-4)"
    state, _ = act(state, "W")
    assert state.cars[0].position == ids["after"], "the shortcut is left onto the road after the corner"


def test_A8_4_shortcut_is_never_taken_unless_named():
    """A8.4: the shortcut draws a card, so a die that fits the interior or skid goes there."""
    state, ids = before_corner(3, deck=["flat"])
    state, events = act(state, "3")
    assert state.cars[0].position == ids["interior"][0]
    assert not any(k.startswith("shortcut_") for k in kinds(events))


# -- A8.5 dirt markers ---------------------------------------------------------------------------

DIRTY = "straight 3\nleft 2 skid 3x2 K3 [rocks|forest]\nstraight 4"


def test_A8_5_one_dirt_marker_lowers_interior_and_skid_by_one():
    """A8.5 worked example: interior 2 / skid 3 with one marker → 1 / 2."""
    state, ids = before_corner(2, stage=DIRTY)
    state.dirt[ids["id"]] = 1
    refused(state, "2 interior", None, "interior")
    skid, _ = act(state, "2")
    assert skid.cars[0].position == ids["skid"][0]
    interior, _ = act(state, "1")
    assert interior.cars[0].position == ids["interior"][0]
    refused(state, "3 skid")


def test_A8_5_two_markers_close_the_interior_and_leave_the_shortcut_note():
    """A8.5 worked example: two markers → interior 0 (closed), skid 1, shortcut K3 still 3."""
    state, ids = before_corner(2, stage=DIRTY, deck=["good"])
    state.dirt[ids["id"]] = 2
    refused(state, "1 interior", None, "closed")
    refused(state, "2", None, "cut")  # only the shortcut takes a 2 now: it must be named
    skid, _ = act(state, "1")
    assert skid.cars[0].position == ids["skid"][0]
    state, ids = before_corner(3, stage=DIRTY, deck=["good"])
    state.dirt[ids["id"]] = 2
    cut, _ = act(state, "3 cut")
    assert cut.cars[0].position == ids["shortcut"][0]


def test_A8_5_a_dirty_corner_card_puts_a_marker_for_later_arrivals():
    """A8.5 / A9.3: a dirty-corner card puts one marker on that corner; later arrivals see the
    notes one lower."""
    state, ids = before_corner(3, stage=DIRTY, deck=["dirty", "good"])
    state, events = act(state, "3 cut")
    assert event(events, "shortcut_dirty").params["markers"] == 1
    assert state.dirt == {ids["id"]: 1}
    nxt = state.clone()
    put_car(nxt, 0, ids["before"], 2)
    refused(nxt, "2 interior")  # interior now 1


# -- A8.6 over-speed (AMB-3) ---------------------------------------------------------------------

def test_A8_6_overspeed_by_one_at_entry_is_loss_of_control_on_the_interior():
    """A8.6 example (interior 3, skid 4-4-4, K4): g = 5 at entry → loss of control; by default
    on the interior space."""
    state, ids = before_corner(5, events=["spin"])
    state, events = act(state, "5")
    loc = event(events, "loss_of_control")
    assert loc.params["cause"] == "overspeed"
    assert state.cars[0].position == ids["interior"][0]
    assert state.cars[0].pile[-1].kind == "loc"


def test_A8_6_overspeed_on_the_trajectory_the_driver_names():
    """A8.6: the loss of control is on the entry space of the trajectory the driver names."""
    state, ids = before_corner(5, events=["spin"])
    state, events = act(state, "5 skid")
    assert "loss_of_control" in kinds(events)
    assert state.last_path[-1][0] == ids["skid"][0]


def test_A8_6_gear_not_allowed_on_the_chosen_line_but_within_H_is_refused():
    """A8.6 example: g = 4 into the interior → illegal (skid or shortcut instead): refused,
    state unchanged, and the message names the lines of the corner."""
    state, ids = before_corner(4)
    err = refused(state, "4 interior", None, "interior", "skid")
    assert isinstance(err, NotAllowed)
    ok, _ = act(state, "4")
    assert ok.cars[0].position == ids["skid"][0]


def test_A8_6_overspeed_by_two_is_loss_of_control():
    """A8.6: g = H+2 → loss of control (interior 2 / skid 3: H = 3, gear 5)."""
    state, ids = before_corner(5, stage="straight 3\nleft 2 skid 3x2\nstraight 3", events=["spin"])
    state, events = act(state, "5")
    assert "loss_of_control" in kinds(events)
    assert state.cars[0].status == "racing"


def test_A8_6_overspeed_by_three_is_knocked_out():
    """A8.6: g ≥ H+3 → knocked out of the rally (A12.5) (interior 1 / skid 2: H = 2, gear 5)."""
    state, ids = before_corner(5, stage="straight 3\nleft 1 skid 2x3\nstraight 3")
    state, events = act(state, "5")
    assert "overspeed_ko" in kinds(events)
    assert state.cars[0].status == "out"
    assert state.finished


def test_A8_6_H_includes_the_shortcut():
    """A8.6: H is the highest note among interior, first skid space and shortcut: with interior
    2 / skid 2 / K4, a 4 not naming the shortcut is refused (≤ H), a 5 is H+1."""
    stage = "straight 3\nleft 2 skid 2x2 K4\nstraight 3"
    state, ids = before_corner(4, stage=stage, events=["spin"])
    refused(state, "4", None, "cut")
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"


def test_A8_6_inside_the_corner_5_from_skid_1_to_skid_2_is_loss_of_control():
    """A8.6 example: g = 5 from skid space 1 to skid space 2 → loss of control (checked against
    the destination note only)."""
    state, ids = before_corner(4, events=["spin"])
    state, _ = act(state, "4")
    state, events = act(state, "5")
    assert "loss_of_control" in kinds(events)
    assert state.last_path[-1][0] == ids["skid"][1]  # the loss-of-control space


def test_A8_6_inside_the_corner_3_from_skid_1_only_bails_out():
    """A8.6 example: g = 3 from skid space 1 → only the bail-out to the interior is legal."""
    state, ids = before_corner(4)
    state, _ = act(state, "4")
    refused(state, "3 skid", None, "exactly")
    bail, _ = act(state, "3")
    assert bail.cars[0].position in ids["interior"]


def test_A8_6_inside_the_corner_three_over_the_destination_note_is_knocked_out():
    """A8.6 inside the corner: "by 3+ → knocked out": a car skidding in 3rd on a skid 3 that two
    dirt markers have lowered to 1 shifts to 4th: three over."""
    stage = "straight 3\nleft 2 skid 3x3 K3\nstraight 3"
    state, ids = before_corner(3, stage=stage)
    state = play(state, "3 stop")
    assert state.cars[0].position == ids["skid"][0]
    state.dirt[ids["id"]] = 2
    state.cars[0].corner_dirt = [ids["id"], 2]  # markers already there on arrival (A8.5)
    state, events = act(state, "4")
    assert "overspeed_ko" in kinds(events) and state.cars[0].status == "out"


def test_A8_6_inside_the_corner_one_or_two_over_the_destination_note_is_loss_of_control():
    """A8.6 inside the corner: above the destination note by 1-2 → loss of control there."""
    stage = "straight 3\nleft 2 skid 3x3 K3\nstraight 3"
    state, ids = before_corner(3, stage=stage, events=["spin"])
    state = play(state, "3 stop")
    state.dirt[ids["id"]] = 2  # skid now 1: white in 3rd is two over
    state.cars[0].corner_dirt = [ids["id"], 2]  # markers already there on arrival (A8.5)
    state, events = act(state, "W")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"
    assert state.last_path[-1][0] == ids["skid"][1]  # the loss-of-control space


def test_AMB_3_overspeed_reference_space_option():
    """AMB-3 option `overspeed_reference: space`: the DE reading at entry too — g = 4 into the
    interior 3 is one over that space's note: loss of control instead of a refusal."""
    rules = rules_with(overspeed_reference="space")
    state, ids = before_corner(4, ruleset=rules, events=["spin"])
    state, events = act(state, "4 interior")
    assert "loss_of_control" in kinds(events)
    assert state.cars[0].position == ids["interior"][0]


def test_A8_6_legal_actions_list_no_refused_trajectory():
    """A8.6: every trajectory offered to the driver is one the engine accepts."""
    from bot.engine.rallyman.game import legal_actions
    for gear in (2, 3, 4):
        state, ids = before_corner(gear, deck=["good"] * 3, events=["spin"] * 3)
        for action in legal_actions(state):
            apply(state, action)  # must not raise
        assert Roll(("3",), "skid", driver="d1") not in legal_actions(state)


def test_A8_5_dirt_does_not_change_the_notes_for_a_car_already_in_the_corner():
    """A8.5: "Each marker lowers the interior note and every skid note of the corner by 1 for
    every later arrival": Ada, skidding on skid 4 when Bea's dirty card falls, goes on in 4th."""
    state = make_game(CORNER, drivers=2, deck=["dirty"], events=["spin"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    put_car(state, 1, ids["before"], 4)
    state.queue = [1]
    state = play(state, "4 stop")              # Ada: skid 1
    state = play(state, "4 cut", "W stop")     # Bea: shortcut, dirty card, out of the corner
    assert state.dirt == {ids["id"]: 1}
    while state.cars[state.turn.car].name != "Ada":
        state = play(state, "W stop")
    state, events = act(state, "4")            # Ada arrived before the marker
    assert "loss_of_control" not in kinds(events)
    assert state.cars[0].position == ids["skid"][1]
