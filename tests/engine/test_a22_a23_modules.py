"""RULES A22 SISU card (module) and A23 shakedown (training: ⚠ and flats ignored)."""

from __future__ import annotations

from rules_helpers import CORNER, LONG, act, corner_ids, event, kinds, make_game, play, put_car, rules_with, space_at

from bot.engine.rallyman.stages.model import SpaceKind

SISU = {"sisu": True}
SHAKE = {"shakedown": True}
BUMP = "straight 3\nbump 3\nstraight 8"


def bump_game(gear: int, faces, **kw):
    state = make_game(BUMP, faces=faces, **kw)
    bump = next(s for s in state.stage.spaces if s.kind is SpaceKind.BUMP)
    put_car(state, 0, space_at(state.stage, bump.index - 1), gear)
    return state, bump.index


# -- A22 SISU --------------------------------------------------------------------------------------

def test_A22_sisu_is_off_unless_enabled():
    """0.3 / A22: SISU is a module, off unless the host enables it (on in classic-sisu, the German edition's)."""
    state = make_game(LONG, faces=[True] * 3, events=["spin"])
    state, events = act(state, "1 2 3")
    assert "loss_of_control" in kinds(events) and "sisu" not in kinds(events)
    assert make_game(LONG, ruleset="classic-sisu").rules.modules.sisu is True


def test_A22_sisu_cancels_a_hazard_loss_of_control_and_the_turn_goes_on():
    """A22: when a loss of control caused by ⚠ is about to happen, SISU cancels it and the movement
    goes on ignoring ⚠ (AMB-11 default: for the rest of that turn)."""
    state = make_game(LONG, faces=[True] * 7, modules=SISU)
    state, events = act(state, "1 2 3")
    assert "sisu" in kinds(events) and "loss_of_control" not in kinds(events)
    assert state.cars[0].sisu is False
    state, events = act(state, "4 5 W W")  # four more ⚠: ignored for the rest of the turn
    assert "loss_of_control" not in kinds(events)
    assert state.cars[0].position == space_at(state.stage, 7)
    assert "stop" in kinds(events)  # every die used: the turn ends with the gear card (A6.4)
    assert state.cars[0].pile[-1].kind == "gear" and state.cars[0].pile[-1].gear == 5


def test_A22_sisu_is_used_once_per_rally():
    """A22: one SISU card for the whole rally: the next ⚠ loss of control is not saved."""
    state = make_game(LONG, faces=[True] * 3 + [True] * 3, events=["spin"], modules=SISU)
    state = play(state, "1 2 3 stop")
    state, events = act(state, "4 W W")
    assert "loss_of_control" in kinds(events) and "sisu" not in kinds(events)


def test_A22_sisu_cannot_save_a_corner_taken_too_fast():
    """A22: "It cannot save a corner taken too fast": the card is kept."""
    state = make_game(CORNER, events=["spin"], modules=SISU)
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"
    assert state.cars[0].sisu is True


def test_A22_sisu_cannot_save_a_bump_at_two_over():
    """A22: "nor, by the same logic, a bump at N+2"."""
    state, b = bump_game(4, [False], events=["spin"], modules=SISU)
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "bump"
    assert state.cars[0].sisu is True


def test_OPEN_14_sisu_saves_a_bump_at_one_over_with_hazard():
    """A22 / OPEN-14 default: SISU is allowed against a bump at N+1 with ⚠."""
    state, b = bump_game(4, [True, False], modules=SISU)
    state, events = act(state, "4")
    assert "sisu" in kinds(events) and "loss_of_control" not in kinds(events)
    assert state.cars[0].position == space_at(state.stage, b + 2)


def test_AMB_11_sisu_scope_die_cancels_only_the_triggering_die():
    """A22 / AMB-11 option `sisu_scope: die`: only the triggering die's loss of control is
    cancelled; the next ⚠ in that turn is a loss of control."""
    rules = rules_with(sisu_scope="die").with_modules(sisu=True)
    state = make_game(LONG, faces=[True] * 4, events=["spin"], ruleset=rules)
    state, events = act(state, "1 2 3")
    assert "sisu" in kinds(events)
    state, events = act(state, "4")
    assert "loss_of_control" in kinds(events)


def test_AMB_11_sisu_scope_turn_ignores_later_hazards():
    """A22 / AMB-11 default `sisu_scope: turn`: the same fourth ⚠ is ignored."""
    state = make_game(LONG, faces=[True] * 4, events=["spin"], modules=SISU)
    state, _ = act(state, "1 2 3")
    state, events = act(state, "4")
    assert "loss_of_control" not in kinds(events)


# -- A23 shakedown ---------------------------------------------------------------------------------

def test_A23_shakedown_ignores_hazards():
    """A23: "⚠ and flat tires are ignored": seven ⚠ in one turn, no loss of control."""
    state = make_game(LONG, faces=[True] * 7, modules=SHAKE)
    state, events = act(state, "1 2 W 3 4 W 5")
    assert "loss_of_control" not in kinds(events)
    assert state.cars[0].position == space_at(state.stage, 7)


def test_A23_shakedown_ignores_flat_tires():
    """A23: "shortcut flat-tire cards have no effect"."""
    state = make_game(CORNER, deck=["flat"], modules=SHAKE)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    state, events = act(state, "4 cut")
    assert state.cars[0].flats == 0 and "shortcut_flat" not in kinds(events)
    state, _ = act(state, "W W")
    assert state.turn.whites == 2


def test_A23_shakedown_keeps_corner_overspeed():
    """A23: "Everything else applies (corner over-speed ...)"."""
    state = make_game(CORNER, events=["spin"], modules=SHAKE)
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    state, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"


def test_A23_shakedown_keeps_bump_at_two_over_but_not_the_hazard_at_one_over():
    """A11.7 / A23: only over-speed and the N+2 bump remain as triggers."""
    state, b = bump_game(4, [True], events=["spin"], modules=SHAKE)
    safe, events = act(state, "4")
    assert "loss_of_control" not in kinds(events)
    crash, events = act(state, "5")
    assert event(events, "loss_of_control").params["cause"] == "bump"


def test_A23_shakedown_keeps_dirt():
    """A23: dirt still applies: a dirty-corner card lowers the notes."""
    state = make_game(CORNER, deck=["dirty"], modules=SHAKE)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    state, events = act(state, "4 cut")
    assert state.dirt == {ids["id"]: 1}
