"""RULES A18 time attack and A19 spending second markers (modules `attack`, `seconds`), with A10.4
(a placed die at a bump N+1 lands safely) and A22 (SISU in a time attack)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import (
    CORNER,
    LONG,
    act,
    corner_ids,
    event,
    kinds,
    make_game,
    play,
    put_car,
    refused,
    rules_with,
    seats,
    space_at,
    stage_from,
)

from bot.engine.core.errors import RallyError
from bot.engine.rallyman.actions import Attack, Order, Place, Roll, Stop, Timeout
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.attack import attack_odds, best_order
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.model import SpaceKind, Surface
from bot.engine.rallyman.state import GameState

ATTACK = {"attack": True}
BOTH = {"attack": True, "seconds": True}
SECONDS = {"seconds": True}
BUMP = "straight 3\nbump 3\nstraight 8"
SNOW = "snow: A\nstart\nzone A\nstraight 12 cap 4 [grass|grass]\nfinish"
T, F = True, False
PLUS_STAGE = stage_from("""straight 2 [grass|forest]
left 3 skid 4x3 K4 [rocks|forest]
straight 2 cap 1 [grass|water]
bump 3
straight 2
right 2 skid 3x2 K3 [forest|rocks]
straight 3 [grass|grass]""")


def at(gear: int, stage: str = LONG, index: int = 5, **kw) -> GameState:
    """A car (d1) on road space `index` in `gear`, its turn starting."""
    state = make_game(stage, **kw)
    put_car(state, 0, space_at(state.stage, index), gear)
    return state


def before_bump(gear: int, **kw) -> tuple[GameState, int]:
    state = make_game(BUMP, **kw)
    bump = next(s for s in state.stage.spaces if s.kind is SpaceKind.BUMP)
    put_car(state, 0, space_at(state.stage, bump.index - 1), gear)
    return state, bump.index


def index_of(state: GameState, ci: int = 0) -> int:
    return state.stage.spaces[state.cars[ci].position].index


# -- A18.1 ------------------------------------------------------------------------------------------

def test_A18_1_time_attack_is_a_module_off_by_default():
    """A18 is advanced: off unless the rally switches it on; refused with nothing rolled."""
    state = at(3)
    refused(state, "attack 3 4", None, "module off")
    assert not any(isinstance(a, Attack) for a in legal_actions(state))


def test_A18_1_a_group_of_at_least_two_dice_rolled_at_once_then_the_order_is_awaited():
    """A18.1: the group is rolled at once (all faces shown), then the turn waits for the order;
    meanwhile only `order …` is legal for that driver, and `legal_actions` lists every order."""
    state = at(3, faces=[F, T, F], modules=ATTACK)
    refused(state, "attack 4", None, "at least 2")
    state, events = act(state, "attack 3 4 W")
    assert event(events, "attack").params["dice"] == "3 4⚠ W"
    assert state.turn.attack == [["3", False], ["4", True], ["W", False]]
    assert index_of(state) == 5 and state.turn.used == []  # nothing moved yet
    options = legal_actions(state)
    assert options and all(isinstance(a, Order) for a in options)
    assert {str(a) for a in options} >= {"order 3 4 W", "order 4 3 W", "order 3 W 4"}
    assert "order W 3 4" not in {str(a) for a in options}  # after a white only 2 or 4 (A6.3.2)
    for text in ("3", "stop", "spare", "attack 3 4", "place 3", "skid"):
        refused(state, text, None, "order")
    for action in options:  # each listed order is accepted
        apply(state, action)


def test_A18_1_not_mixable_with_dice_rolled_one_by_one():
    """A18.1 / A6.1: the technique is chosen for the whole turn: no attack after a die."""
    state = play(at(3, modules=ATTACK), "3")
    refused(state, "attack 4 5", None, "start of the turn")
    assert not any(isinstance(a, Attack) for a in legal_actions(state))


# -- A18.2 ------------------------------------------------------------------------------------------

def test_A18_2_a_group_that_cannot_chain_from_the_current_gear_is_refused():
    """A18.2: all 5 gear dice + 2 white from 3rd is refused (the sources' example), so is 3 5."""
    state = at(3, modules=ATTACK)
    refused(state, "attack 1 2 3 4 5 W W", None, "from 3rd", "Nothing was rolled")
    refused(state, "attack 3 5", None, "one above or below")
    refused(state, "attack 3 3", None, "each gear die once")


def test_A18_2_a_group_the_road_refuses_in_every_order_is_refused():
    """A18.2 "usable completely … (occupancy)": 1 then 2 would enter a full space, and from
    neutral the 1 must come first: no order uses the whole group."""
    state = make_game("straight 6 cap 1 [grass|grass]", drivers=2, modules=ATTACK)
    put_car(state, 1, space_at(state.stage, 2), 1)
    refused(state, "attack 1 2", None, "cannot all be used")


def test_A18_2_a_certain_loss_of_control_before_the_last_die_makes_the_group_unusable():
    """A18.2 "usable completely": in 5th before a corner (interior 3, skid 4, K4), either die of
    `5 W` first crashes into the corner (over-speed ends the turn), so the group cannot be used
    completely; `4 W` (4 into the skid, white on in 4th) can."""
    state = make_game(CORNER, modules=ATTACK)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 5)
    refused(state, "attack 5 W", None, "cannot all be used")
    state, events = act(state, "attack 4 W")
    assert "attack" in kinds(events)


def test_A18_2_no_more_dice_than_needed_to_cross_the_finish():
    """A18.2 (EN/DE): two spaces from the finish, three dice are more than needed."""
    state = make_game("straight 6 [grass|grass]", modules=ATTACK)
    put_car(state, 0, space_at(state.stage, 5), 3)
    refused(state, "attack 3 4 W", None, "finish is crossed with 2")
    state, _ = act(state, "attack 3 4")
    state, events = act(state, "order 3 4")
    assert "finish" in kinds(events)


# -- A18.3 ------------------------------------------------------------------------------------------

def test_A18_3_the_order_must_be_the_rolled_dice_in_a_legal_order():
    state, _ = act(at(3, faces=[F, F, F], modules=ATTACK), "attack 3 4 W")
    refused(state, "order 3 4", None, "exactly the dice you rolled")
    refused(state, "order 3 4 5", None, "exactly the dice you rolled")
    refused(state, "order W 3 4", None, "2nd die", "cannot be played")
    refused(state, "order 3 4 W!", None, "No more white die with ⚠")
    refused(state, "roll 3 4 W", None, "order")
    refused(state, "order best", "d2")  # not a driver


def test_A18_3_no_loss_of_control_below_the_limit_and_the_gear_card_at_the_end():
    """A18.3: fewer than 3 ⚠: one space per die, then the gear card of the last gear die (A6.4)."""
    state, _ = act(at(3, faces=[T, F, T], modules=ATTACK), "attack 3 4 W")
    state, events = act(state, "order 3 W 4")
    assert "loss_of_control" not in kinds(events)
    assert index_of(state) == 8
    assert state.cars[0].pile[-1].kind == "gear" and state.cars[0].pile[-1].gear == 4


def test_A18_3_the_die_reaching_the_limit_is_used_and_later_dice_are_not():
    """A18.3: 3 ⚠ among 4 dice: the die that brings the third ⚠ moves the car and it loses
    control there; the dice after it are not used."""
    state, _ = act(at(3, faces=[T, T, F, T], events=["spin"], modules=ATTACK), "attack 3 4 5 W")
    crash, events = act(state, "order 3 W 4 5")  # ⚠ on 3, W, 4: the 4 is the third
    assert event(events, "loss_of_control").params["cause"] == "hazards"
    assert event(events, "attack_unused").params["dice"] == "5"
    assert index_of(crash) == 8 and crash.cars[0].pile[-1].kind == "loc"


def test_A18_3_order_best_drives_furthest_when_every_order_loses_control():
    """A18.3 (FR advice): the driver may choose where to crash; `order best` with 3 ⚠ among 4
    dice puts the clean die before the third ⚠ (crash one space further)."""
    state, _ = act(at(3, faces=[T, T, F, T], events=["spin"], modules=ATTACK), "attack 3 4 5 W")
    chosen = best_order(state)
    crash, events = act(state, "order best")
    assert event(events, "attack_order").params["how"] == " (best)"
    assert "loss_of_control" in kinds(events) and index_of(crash) == 9
    assert chosen.dice.index("5") < 3  # the clean 5 is used before the third ⚠


def test_A18_3_order_best_avoids_a_loss_of_control_when_an_order_does():
    """A18.3 / A18.7: before a bump 3 in 3rd, `attack 3 4` with ⚠ on the 4: the 4 at the bump
    (N+1) would crash; the 3 at the bump (N) jumps safely, then the 4 drives on."""
    state, b = before_bump(3, faces=[F, T], events=["spin"], modules=ATTACK)
    state, _ = act(state, "attack 3 4")
    assert best_order(state).dice == ("3", "4")
    safe, events = act(state, "order best")
    assert "loss_of_control" not in kinds(events)
    assert index_of(safe) == b + 2


def test_A18_3_which_white_die_comes_first_can_be_chosen():
    """A18.3: the two white dice may show different faces; `W!` names the one showing ⚠."""
    state, _ = act(at(3, faces=[T, T, F, T], events=["spin"], modules=ATTACK), "attack 3 4 W W")
    orders = {str(a) for a in legal_actions(state)}
    assert {"order 3 W 4 W!", "order 3 W! 4 W"} <= orders
    late, events = act(state, "order 3 W 4 W!")  # ⚠ 3, 4, then the ⚠ white last
    assert index_of(late) == 9 and "loss_of_control" in kinds(events)
    early, events = act(state, "order 3 W! 4 W")  # the third ⚠ is the 4 (3rd die)
    assert index_of(early) == 8 and event(events, "attack_unused").params["dice"] == "white"


def test_A18_3_a_timeout_while_the_order_is_due_drives_the_best_order():
    state, _ = act(at(3, faces=[F, F], modules=ATTACK), "attack 3 4")
    new, events = apply(state, Timeout())
    assert "attack_order" in kinds(events) and index_of(new) == 7


# -- A18.4 / A18.5 -------------------------------------------------------------------------------

def test_A18_4_one_second_marker_per_die_even_on_a_crash():
    """A18.4: 4 dice rolled = 4 markers, also when the attack ends in a loss of control; they
    come off the stage time (A15.2)."""
    state, _ = act(at(3, faces=[T, T, T, F], events=["spin"], modules=ATTACK), "attack 3 4 5 W")
    assert state.cars[0].seconds == 4
    crash, events = act(state, "order 3 4 5 W")
    assert "loss_of_control" in kinds(events)
    car = crash.cars[0]
    assert car.seconds == 4 and car.time == sum(c.seconds for c in car.pile) - 4


def test_A18_5_markers_reduce_the_time_or_are_spent_in_the_same_special():
    """A18.5 / A19.1: markers won by an attack may be spent in a later turn of the special."""
    state, _ = act(at(3, faces=[F, F, F, T, T], modules=BOTH), "attack 3 4 5")
    state, _ = act(state, "order 3 4 5")
    assert state.cars[0].seconds == 3
    state = play(state, "5 4")  # ⚠ ⚠: one more would be a loss of control
    state, events = act(state, "place 3")
    assert event(events, "placed").params["cost"] == 1 and state.cars[0].seconds == 2


def test_A18_5_spending_is_not_allowed_during_a_time_attack():
    state, _ = act(at(3, faces=[T, T], modules=BOTH), "attack 3 4")
    state.cars[0].seconds = 10
    refused(state, "place 5", None, "order")
    assert all(isinstance(a, Order) for a in legal_actions(state))


# -- A18.6 / A18.7 ---------------------------------------------------------------------------------

def test_A18_6_a_flat_tire_removes_a_white_die_not_yet_reached():
    """A18.6 (DE): the 4 takes the shortcut and draws a flat (cap 1 white die): the second white
    of the order is not used and its ⚠ does not count."""
    state = make_game(CORNER, faces=[F, F, T], deck=["flat"], modules=ATTACK)
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 4)
    state, _ = act(state, "attack 4 W W")
    state, events = act(state, "order 4 cut W W!")
    assert "shortcut_flat" in kinds(events)
    assert event(events, "attack_flat").params["die"] == "white⚠"
    assert state.cars[0].last_hazards == 0 and "loss_of_control" not in kinds(events)
    assert state.cars[0].flats == 1 and state.cars[0].position == ids["after"]


def test_A18_7_a_bump_at_n_plus_1_loses_control_if_that_die_shows_hazard():
    state, b = before_bump(3, faces=[F, T], events=["spin"], modules=ATTACK)
    state, _ = act(state, "attack 3 4")
    crash, events = act(state, "order 4 3")
    assert event(events, "loss_of_control").params["cause"] == "bump"
    assert index_of(crash) == b + 2
    assert crash.cars[0].seconds == 2


# -- A22 in a time attack ----------------------------------------------------------------------------

@pytest.mark.parametrize("scope", ["turn", "die"])
def test_A22_sisu_in_a_time_attack_makes_the_whole_roll_clean(scope):
    """A22: SISU is usable in a time attack: the whole roll counts as clean (whatever the
    AMB-11 scope), markers still awarded."""
    rules = rules_with(sisu_scope=scope).with_modules(sisu=True, attack=True)
    state = at(3, faces=[T, T, T, T, T], ruleset=rules)
    state, _ = act(state, "attack 3 4 5 W W")
    state, events = act(state, "order 3 4 5 W W")
    assert "sisu" in kinds(events) and "loss_of_control" not in kinds(events)
    assert index_of(state) == 10 and state.cars[0].seconds == 5 and state.cars[0].sisu is False


# -- odds ------------------------------------------------------------------------------------------

def test_A18_odds_of_a_group_are_exact_with_the_best_order():
    """Odds of a group: the chance of losing control when the best order is then chosen, over
    every face the group can show. On a straight from 3rd, `3 4 5` loses control only with
    three ⚠: 1/6 · 2/6 · 2/6. Before a bump 3 in 4th, `W W` crashes only if both whites show ⚠
    (the white at the bump, N+1, can be the clean one): 1/6 · 1/6; `4 5` whenever the 4 shows ⚠
    (the 5 first would be N+2, certain): 2/6. In 3rd, `3 4` never (the 3 at the bump)."""
    state = at(3, modules=ATTACK)
    assert attack_odds(state, Attack(("3", "4", "5"))).loss_of_control == pytest.approx(1 / 6 * 2 / 6 * 2 / 6)
    bump4, _ = before_bump(4, modules=ATTACK)
    assert attack_odds(bump4, Attack(("W", "W"))).loss_of_control == pytest.approx(1 / 6 * 1 / 6)
    assert attack_odds(bump4, Attack(("4", "5"))).loss_of_control == pytest.approx(2 / 6)
    bump3, _ = before_bump(3, modules=ATTACK)
    assert attack_odds(bump3, Attack(("3", "4"))).loss_of_control == 0.0


# -- A19 -------------------------------------------------------------------------------------------

def test_A19_1_placed_dice_cost_1_2_3_markers_and_show_no_face():
    """A19.1: a placed die moves one space with no ⚠ (no die is rolled at all); the n-th placed
    die of a turn costs n markers; spent markers no longer reduce the time."""
    rules = rules_with(spend_seconds_anytime=True).with_modules(seconds=True)
    state = at(3, faces=[], ruleset=rules)  # no face scripted: a roll would fail
    state.cars[0].seconds = 7
    state, events = act(state, "place 4")
    assert event(events, "placed").params["cost"] == 1 and state.cars[0].seconds == 6
    state, events = act(state, "place 5")
    assert event(events, "placed").params["cost"] == 2 and state.cars[0].seconds == 4
    state, events = act(state, "place W")
    assert event(events, "placed").params["cost"] == 3 and state.cars[0].seconds == 1
    refused(state, "place W", None, "costs 4", "hold 1")
    assert state.turn.hazards == 0 and index_of(state) == 8
    state, _ = act(state, "stop")
    car = state.cars[0]
    assert car.time == sum(c.seconds for c in car.pile) - 1


def test_A19_1_module_off_and_not_enough_markers():
    refused(at(3), "place 4", None, "module off")
    state = play(at(3, faces=[T, T], modules=SECONDS), "3 4")
    refused(state, "place 5", None, "costs 1", "hold 0")


def test_A19_2_AMB_7_only_when_one_more_hazard_would_lose_control():
    """A19.2 / AMB-7 default: after one ⚠ placing is refused; after two it is allowed."""
    state = at(3, faces=[T, F, T], modules=SECONDS)
    state.cars[0].seconds = 3
    state = play(state, "3")
    refused(state, "place 4", None, "one more ⚠")
    assert not any(isinstance(a, Place) for a in legal_actions(state))
    state = play(state, "4 W")
    assert Place("5", driver="d1") in legal_actions(state)
    state, events = act(state, "place 5")
    assert "placed" in kinds(events) and "loss_of_control" not in kinds(events)


def test_A19_2_AMB_7_on_snow_with_asphalt_tires_one_hazard_is_enough():
    """AMB-7: with asphalt tires on snow 2 ⚠ are a loss of control (A20.3), so after 1 ⚠ on snow
    a die may be placed."""
    state = at(3, SNOW, faces=[T], modules=SECONDS)
    assert state.stage.spaces[state.cars[0].position].surface(True) is Surface.SNOW
    state.cars[0].tires = "asphalt"  # the driver kept asphalt tires on a snowy stage
    state.cars[0].seconds = 1
    state = play(state, "3")
    state, events = act(state, "place 4")
    assert "placed" in kinds(events)


def test_A19_2_option_spend_seconds_anytime():
    rules = rules_with(spend_seconds_anytime=True).with_modules(seconds=True)
    state = at(3, faces=[], ruleset=rules)
    state.cars[0].seconds = 1
    assert Place("4", driver="d1") in legal_actions(state)
    state, events = act(state, "place 4")
    assert "placed" in kinds(events)


def test_A19_3_does_not_prevent_corner_overspeed_nor_a_bump_at_n_plus_2():
    """A19.3: a placed 5 into a corner of highest note 4 still loses control; so does a placed
    die at a bump N+2."""
    rules = rules_with(spend_seconds_anytime=True).with_modules(seconds=True)
    state = make_game(CORNER, events=["spin"], ruleset=rules)
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    state.cars[0].seconds = 1
    state, events = act(state, "place 5")
    assert event(events, "loss_of_control").params["cause"] == "overspeed"
    bump, b = before_bump(4, events=["spin"], ruleset=rules)
    bump.cars[0].seconds = 1
    bump, events = act(bump, "place 5")
    assert event(events, "loss_of_control").params["cause"] == "bump"


def test_A10_4_a_placed_die_at_a_bump_n_plus_1_lands_safely():
    """A10.4: a die played with markers shows no face, so at N+1 it lands safely; under AMB-7 it
    may be placed there, since one ⚠ on that die would be a loss of control."""
    state, b = before_bump(3, faces=[], modules=SECONDS)
    state.cars[0].seconds = 1
    assert Place("4", driver="d1") in legal_actions(state)
    state, events = act(state, "place 4")
    assert "loss_of_control" not in kinds(events)
    assert index_of(state) == b + 2


# -- state, grammar, refusals ----------------------------------------------------------------------

def test_a_state_waiting_for_an_order_survives_a_json_round_trip():
    state, _ = act(at(3, faces=[F, T, F], modules=ATTACK), "attack 3 4 W")
    data = state.to_dict()
    back = GameState.from_dict(data, stage=state.stage)
    assert back.to_dict() == data and back.turn.attack == [["3", False], ["4", True], ["W", False]]
    a, ea = act(state, "order 4 3 W")
    b, eb = act(back, "order 4 3 W")
    assert a.to_dict() == b.to_dict() and [e.to_dict() for e in ea] == [e.to_dict() for e in eb]


def test_modules_off_leave_the_json_unchanged():
    """With the modules off a turn's JSON has no attack/placed fields (older snapshots replay)."""
    state = play(at(3), "3")
    assert "attack" not in state.to_dict()["turn"] and "placed" not in state.to_dict()["turn"]
    assert set(state.to_dict()["turn"]) == {"car", "gear", "used", "hazards", "snow_hazards", "whites",
                                            "whites_asphalt", "last_gear_die", "sisu_active", "path"}


@pytest.mark.parametrize("text", ["attack 3 4 W", "order 4 3 W", "order best", "order 3 W! 4 W", "order 4 skid W 3",
                                  "place 4", "place W", "place 4 skid"])
def test_the_rules_plus_grammar_reads_back_its_canonical_text(text):
    action = parse(text)
    assert str(action) == text and parse(str(action)) == action


def test_the_rules_plus_grammar_words():
    assert parse("attaque 3 4 w") == Attack(("3", "4", "W"))
    assert parse("order 3 w⚠ 4") == Order(("3", "W!", "4"))
    assert parse("order 3 w ⚠ 4") == Order(("3", "W!", "4"))
    assert parse("ordre meilleur") == Order(best=True)
    assert parse("place 4 cut") == Place("4", "shortcut")
    for bad in ("attack", "place", "place 3 4", "order", "order 3! 4", "attack 3 skid"):
        with pytest.raises(RallyError) as info:
            parse(bad)
        assert str(info.value).strip()


def test_refused_rules_plus_actions_change_nothing():
    """Refusals leave the state equal (apply works on a copy and rolls nothing before the checks)."""
    state = at(3, faces=[T, T, F], modules=BOTH)
    before = state.to_dict()
    for action in (Attack(("3",)), Attack(("3", "5")), Order(("3", "4")), Order(best=True), Place("4"),
                   Attack(("1", "2", "3", "4", "5", "W", "W"))):
        with pytest.raises(RallyError):
            apply(state, action)
        assert state.to_dict() == before
    waiting, _ = act(state, "attack 3 4")
    before = waiting.to_dict()
    for action in (Roll(("3",)), Stop(), Attack(("3", "4")), Place("5"), Order(("3", "5")), Order(("W", "3"))):
        with pytest.raises(RallyError):
            apply(waiting, action)
        assert waiting.to_dict() == before


# -- the AI with the modules on ------------------------------------------------------------------------

@pytest.mark.parametrize("stage", ["black-moor", "grand-marathon", "quarry-switchbacks"])
def test_the_ai_uses_both_modules_and_only_legal_actions(stage):
    """A18 / A19 on: the AI attacks when the exact odds allow it, orders its dice, places dice
    with markers when rolling is too risky; every action it picks is listed by `legal_actions`
    and accepted, and every car finishes."""
    used: set[str] = set()
    for seed in (0, 1):
        state = new_game(stage, ai_seats(4), seed=seed, modules=BOTH)
        actions = 0
        while state.turn is not None and actions < 3000:
            action = choose_action(state)
            assert action in legal_actions(state), f"{stage} seed {seed}: {action} is not listed as legal"
            state, _ = apply(state, action)
            used.add(type(action).__name__)
            actions += 1
        assert state.finished and all(c.status == "finished" for c in state.cars), f"{stage} seed {seed}"
    assert {"Attack", "Order"} <= used


def test_the_ai_spends_markers_to_avoid_a_likely_loss_of_control():
    """A19: after two ⚠ the next die is too risky to roll; holding markers, the AI places it."""
    state = at(3, faces=[T, T], modules=SECONDS)
    state.cars[0].seconds = 3
    state = play(state, "3 4")
    action = choose_action(state)
    assert isinstance(action, Place) and action in legal_actions(state)


WORDS = ["1", "2", "3", "4", "5", "w", "w!", "skid", "cut", "stop", "attack", "order", "best", "place", "x"]
STEP = st.one_of(st.tuples(st.just("text"), st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join)),
                 st.tuples(st.just("legal"), st.integers(0, 60)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), drivers=st.integers(1, 2), steps=st.lists(STEP, min_size=1, max_size=40))
def test_random_rules_plus_actions_apply_or_are_refused_without_side_effects(seed, drivers, steps):
    """With both modules on, random texts and listed actions either apply or are refused with a
    message, and a refusal leaves the state exactly as it was; every listed action applies."""
    state = new_game(PLUS_STAGE, seats(drivers), seed=seed, modules=BOTH)
    for car in state.cars:
        car.seconds = 6  # as if won earlier in the special, so `place` has something to spend
    for kind, value in steps:
        before = state.to_dict()
        try:
            if kind == "text":
                action = parse(str(value), state)
            else:
                options = legal_actions(state)
                if not options:
                    continue
                action = options[int(value) % len(options)]
            new, events = apply(state, action)
        except RallyError as exc:
            assert kind == "text", f"a legal action was refused: {exc}"
            assert str(exc).strip()
            assert state.to_dict() == before
            continue
        assert state.to_dict() == before and events
        state = new


def test_odds_of_an_attack_group_through_the_odds_entry_point():
    from bot.engine.rallyman.odds import odds

    state = at(3, modules=ATTACK)
    assert odds(state, Attack(("3", "4", "5"))).loss_of_control == pytest.approx(1 / 6 * 2 / 6 * 2 / 6)


def test_every_rules_plus_event_reads_as_a_line():
    """Each new event has its message and parameters (what spectators read)."""
    from bot.engine.rallyman.narrate import narrate

    state = make_game(CORNER, faces=[F, F, T, F, F, T, T], deck=["flat"], modules=BOTH)
    put_car(state, 0, corner_ids(state.stage)["before"], 4)
    state, e1 = act(state, "attack 4 W W")
    state, e2 = act(state, "order 4 cut W W!")
    state, e3 = act(state, "attack 3 4")
    state, e4 = act(state, "order 4 3")
    state = play(state, "3", "4")
    state, e5 = act(state, "place 5")
    all_events = e1 + e2 + e3 + e4 + e5
    assert {"attack", "attack_order", "attack_flat", "placed"} <= set(kinds(all_events))
    lines = narrate(all_events, state)
    assert any("TIME ATTACK" in line for line in lines) and any("second markers" in line for line in lines)
