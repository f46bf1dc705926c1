"""RULES A10: bumps (g < N, = N, N+1 with and without ⚠, N+2, OPEN-7, finish, OPEN-8, AMB-21)."""

from __future__ import annotations

import pytest
from rules_helpers import act, corner_ids, event, kinds, make_game, put_car, refused, space_at, stage_from

from bot.engine.core.errors import NotAllowed, StageError
from bot.engine.rallyman.moves.move import resolve
from bot.engine.rallyman.stages.loader import load_stage, stage_names
from bot.engine.rallyman.stages.model import FINISH, SpaceKind

BUMP = "straight 3\nbump 3\nstraight 6"


def before_bump(gear: int, stage: str = BUMP, drivers: int = 1, **kw):
    """The car to play on the space just before the (first) bump, in `gear`."""
    state = make_game(stage, drivers=drivers, **kw)
    bump = next(s for s in state.stage.spaces if s.kind is SpaceKind.BUMP)
    put_car(state, 0, space_at(state.stage, bump.index - 1), gear)
    return state, bump.index


def test_A10_1_below_the_note_the_bump_is_a_normal_space():
    """A10.1: g < N → the car ends on the bump space, 1 space, no loss of control."""
    state, b = before_bump(2)
    state, events = act(state, "2")
    assert state.cars[0].position == space_at(state.stage, b)
    assert "loss_of_control" not in kinds(events)


def test_A10_1_at_the_note_the_car_lands_on_the_first_space_after():
    """A10.1: g = N → 1st space after the bump (2 spaces for this die), no loss of control."""
    state, b = before_bump(3, faces=[True])
    state, events = act(state, "3")
    assert state.cars[0].position == space_at(state.stage, b + 1)
    assert "loss_of_control" not in kinds(events)


def test_A10_1_one_over_without_hazard_lands_on_the_second_space_safely():
    """A10.1: g = N+1 → 2nd space after the bump; no ⚠ on that die → no loss of control."""
    state, b = before_bump(4, faces=[False])
    state, events = act(state, "4")
    assert state.cars[0].position == space_at(state.stage, b + 2)
    assert "loss_of_control" not in kinds(events)
    assert state.turn is not None and state.turn.started, "the turn goes on"


def test_A10_1_one_over_with_hazard_is_loss_of_control_on_the_landing_space():
    """A10.1 / AMB-17: g = N+1 and the die shows ⚠ → loss of control on the landing space."""
    state, b = before_bump(4, faces=[True], events=["spin"])
    state, events = act(state, "4")
    assert event(events, "loss_of_control").params["cause"] == "bump"
    assert state.last_path[-1][0] == space_at(state.stage, b + 2)
    assert state.cars[0].pile[-1].kind == "loc"


def test_A10_1_two_over_is_always_loss_of_control_on_the_third_space():
    """A10.1: g = N+2 → 3rd space after the bump, loss of control always (no ⚠ needed)."""
    state, b = before_bump(4, faces=[False], events=["spin"])
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "bump"
    assert state.last_path[-1][0] == space_at(state.stage, b + 3)


def test_OPEN_7_three_over_plays_as_two_over():
    """A10.1 / OPEN-7 default: g ≥ N+3 as N+2 (bump 2 in 5th: 3rd space after, loss of control)."""
    state, b = before_bump(5, stage="straight 3\nbump 2\nstraight 6", faces=[False], events=["spin"])
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "bump"
    assert state.last_path[-1][0] == space_at(state.stage, b + 3)
    assert state.cars[0].status == "racing"


def test_A10_2_the_bump_die_hazard_counts_towards_the_turn_total():
    """A10.2: "The ⚠ on the bump die also counts towards the turn's ⚠ total": two ⚠ so far and
    a ⚠ on a bump taken at its note → three ⚠, loss of control."""
    state, b = before_bump(3, faces=[False], events=["spin"])
    put_car(state, 0, space_at(state.stage, b - 3), 1)
    state.dice.faces = [True, True, True]
    state, _ = act(state, "1 2")
    assert state.turn.hazards == 2
    state, events = act(state, "3")
    assert "loss_of_control" in kinds(events)
    assert event(events, "loss_of_control").params["cause"] == "hazards"


def test_A10_3_landing_beyond_the_finish_line_finishes():
    """A10.3: "A landing beyond the finish line finishes the special (A15)"."""
    state, b = before_bump(3, stage="straight 3\nbump 3\nstraight 1", faces=[False])
    state, events = act(state, "4")
    assert state.cars[0].status == "finished"
    assert "finish" in kinds(events) and "finish_crash" not in kinds(events)
    assert state.cars[0].pile[-1].gear == 4 and state.cars[0].lost_black == 0


def test_A10_3_two_over_landing_beyond_the_line_is_a_crash_while_crossing():
    """A10.3 with A15.3: a bump at N+2 landing beyond the line → finished, card face up, one
    black die lost."""
    state, b = before_bump(4, stage="straight 3\nbump 3\nstraight 2", faces=[False])
    state, events = act(state, "5")
    assert state.cars[0].status == "finished"
    assert "finish_crash" in kinds(events)
    assert state.cars[0].pile[-1].kind == "gear" and state.cars[0].pile[-1].gear == 5
    assert state.cars[0].lost_black == state.rules.finish_loc_black_dice == 1


def test_OPEN_8_landing_on_a_full_space_is_illegal():
    """A10.3 / OPEN-8: landing space full → the move is illegal (refused, state unchanged)."""
    stage = "straight 3\nbump 3\nstraight 1\nstraight 1 cap 1\nstraight 4"
    state, b = before_bump(4, stage=stage, drivers=2)
    put_car(state, 1, space_at(state.stage, b + 2), 1)
    refused(state, "4", None, "full")
    ok, _ = act(state, "3")  # lands on the first space after: free
    assert ok.cars[0].position == space_at(state.stage, b + 1)


def test_A10_3_spaces_flown_over_are_not_entered():
    """A10.3: "Spaces flown over are not entered (no ... occupancy checks)": a full space under
    the jump does not stop it."""
    stage = "straight 3\nbump 3\nstraight 1 cap 1\nstraight 4"
    state, b = before_bump(4, stage=stage, drivers=2)
    put_car(state, 1, space_at(state.stage, b + 1), 1)
    refused(state, "3", None, "full")  # landing there is not possible ...
    state, _ = act(state, "4")          # ... flying over it is
    assert state.cars[0].position == space_at(state.stage, b + 2)


def test_A10_3_the_landing_space_is_checked_with_the_gear_of_the_jump():
    """A10.3: "The landing space is checked normally with gear g (corner note ...)": a jump at
    N+2 lands on the 3rd space after the bump, here the entry of a hairpin (note 1, no skid):
    4th gear is three over, knocked out (A8.6), not just the bump's loss of control."""
    stage = "straight 3\nbump 2\nstraight 2\nleft 1\nstraight 3"
    state, b = before_bump(4, stage=stage)
    state, events = act(state, "4")
    assert "overspeed_ko" in kinds(events)
    assert state.cars[0].status == "out"


def test_A10_3_a_jump_landing_on_a_corner_entry_takes_the_line_asked_for():
    """A10.3: the landing space is checked normally: a jump at N+2 onto a corner's entry lands on
    the skid with the exact gear (and still loses control: N+2 always does, A10.1)."""
    stage = "straight 3\nbump 2\nstraight 2\nleft 3 skid 4x2\nstraight 3"
    state, b = before_bump(4, stage=stage, events=["spin"])
    ids = corner_ids(state.stage)
    state, events = act(state, "4 skid")
    assert state.last_path[-1][0] == ids["skid"][0]
    assert event(events, "loss_of_control").params["cause"] == "bump"


@pytest.mark.parametrize("text, distance", [("straight 3\nbump 3\nleft 3 skid 4x2\nstraight 3", 1),
                                            ("straight 3\nbump 3\nstraight 1\nright 2 skid 3x2 K3\nstraight 3", 2)])
def test_AMB_21_a_stage_cannot_put_a_corner_where_a_jump_would_fly_over_it(text, distance):
    """AMB-21 / A10.3: a bump with a corner space among the two spaces after it is refused when
    the stage is loaded, so a jump can never skip a corner's entry and its note."""
    with pytest.raises(StageError) as caught:
        stage_from(text)
    assert f"a corner lies {distance} " in str(caught.value) and "AMB-21" in str(caught.value)


def _bumps(name: str) -> list[tuple[str, int]]:
    stage = load_stage(name)
    return [(name, s.id) for s in stage.spaces if s.kind is SpaceKind.BUMP]


@pytest.mark.parametrize("name, bump_id", [b for name in stage_names() for b in _bumps(name)])
def test_AMB_21_no_jump_on_a_shipped_stage_flies_over_a_corner(name, bump_id):
    """AMB-21: on every shipped stage (Millbrook Lakes' bridge before the lake left, Quarry
    Switchbacks' crest before its last hairpin ...), a jump at N, N+1 or N+2 lands at the latest
    on the entry of the next corner: it never lands beyond a corner it has not driven through."""
    stage = load_stage(name)
    bump = stage.spaces[bump_id]
    assert bump.note is not None
    before = next(s.id for s in stage.spaces if bump_id in s.next)
    ahead = bump
    while ahead.corner is None and ahead.next and ahead.next[0] >= 0:
        ahead = stage.spaces[ahead.next[0]]
    corner = stage.corners[ahead.corner] if ahead.corner is not None else None
    for gear in range(bump.note, min(bump.note + 2, 5) + 1):
        state = put_car(make_game(stage), 0, before, gear)
        for line in (None, "interior", "skid", "shortcut"):
            try:
                landing = resolve(state, 0, gear, line, True).target
            except NotAllowed:
                continue
            if corner is None or landing == FINISH:
                continue
            entries = {corner.interior[0], *corner.skid[:1], *corner.shortcut[:1]}
            first = stage.spaces[corner.interior[0]].progress
            assert landing in entries or (stage.spaces[landing].corner is None
                                          and stage.spaces[landing].progress < first), \
                f"{name}: bump {bump.note} (space {bump.index}) in gear {gear} lands on {stage.label(landing)}"
