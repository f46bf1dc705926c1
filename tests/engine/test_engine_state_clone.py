"""Copies of the game state: the written-out clones copy every slot, and `apply`, which forks the
state and shares the cars an action does not change (`GameState.fork`), never changes the state
it is given, whatever the action, the modules or the special of a rally."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.rallyman.actions import ChooseLine, Retire, Roll, Stop, Timeout
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.state import Car, GameState, TurnState

MODULE_SETS = [
    {},
    {"sisu": True, "splits": True},
    {"attack": True, "seconds": True},
    {"weather": True, "shakedown": True},
    {"sisu": True, "weather": True, "splits": True, "attack": True, "seconds": True},
]


def _mid_game() -> GameState:
    state = new_game("black-moor", ai_seats(4), seed=5)
    while state.turn is not None and not (state.turn.used and all(c.pile for c in state.cars)):
        state, _ = apply(state, choose_action(state))
    assert state.turn is not None and state.turn.used, "the special is still on, a turn half played"
    return state


@pytest.mark.parametrize("cls, obj", [(Car, lambda s: s.cars[0]), (TurnState, lambda s: s.turn)])
def test_written_out_clone_copies_every_slot_and_no_list(cls, obj) -> None:
    original = obj(_mid_game())
    copy = original.clone()
    assert type(copy) is cls
    for name in cls.__slots__:
        value = getattr(original, name)
        assert getattr(copy, name) == value, name
        if isinstance(value, list):  # lists the engine appends to are the copy's own
            assert getattr(copy, name) is not value, name


def test_fork_copies_the_acting_car_and_own_copies_a_shared_one_once() -> None:
    state = _mid_game()
    ci = state.turn.car
    other = (ci + 1) % len(state.cars)
    forked = state.fork(ci)
    assert forked.cars[ci] is not state.cars[ci]
    assert forked.cars[other] is state.cars[other]  # shared until changed
    mine = forked.own(other)
    assert mine is not state.cars[other] and forked.own(other) is mine
    assert forked.to_dict() == state.to_dict()
    assert forked.clone().owned == -1


def _snapshot(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def _some_action(state: GameState, rng: random.Random):
    """Mostly the AI's choice, sometimes any legal action, a timeout, a line, a retirement or a
    refused roll, so every path that changes cars runs."""
    turn = state.turn
    car = state.cars[turn.car]
    pick = rng.random()
    if pick < 0.55:
        return choose_action(state)
    if pick < 0.8:
        return rng.choice(legal_actions(state))
    if pick < 0.88:
        return Timeout(driver=car.id)
    if pick < 0.93:
        return ChooseLine(rng.choice(["interior", "skid", "shortcut"]), driver=car.id)
    if pick < 0.96:
        return Roll(("5", "W", "5"), driver=car.id)  # often refused whole
    if pick < 0.997:
        return Stop(driver=car.id)
    racing = [c.id for c in state.cars if c.status in ("waiting", "racing")]
    return Retire(target=rng.choice(racing))


@pytest.mark.parametrize("modules", MODULE_SETS, ids=lambda m: "+".join(sorted(m)) or "none")
def test_apply_never_changes_the_state_it_is_given(modules: dict) -> None:
    """Whole rallies of two specials, every action checked: the input's JSON before and after
    `apply` (accepted or refused) is the same, and the old state's cars are never the new
    state's changed ones."""
    rng = random.Random(sum(map(ord, "".join(modules))))
    accepted: set[str] = set()
    refused = 0
    for seed in range(5):
        state = new_game("black-moor", ai_seats(4), seed=seed, modules=modules,
                         course=course_of(["black-moor", "frozen-lakes"], [False, True]))
        for _ in range(3000):
            if state.turn is None:
                break
            before = _snapshot(state)
            action = _some_action(state, rng)
            try:
                new, _ = apply(state, action)
            except RallyError:
                refused += 1
                assert _snapshot(state) == before
                continue
            assert _snapshot(state) == before
            accepted.add(type(action).__name__)
            state = new
        assert state.turn is None, "the rally ended"
    expected = {"Roll", "Stop", "Timeout", "ChooseLine", "Retire"}
    if modules.get("attack"):
        expected |= {"Attack", "Order", "Place"}
    assert expected <= accepted and refused > 0


def test_a_turn_begun_is_the_dataclass_default_turn() -> None:
    assert TurnState.begin(2, 3) == TurnState(car=2, gear=3)


def test_an_event_is_frozen_and_equal_by_value() -> None:
    import dataclasses

    from bot.engine.core.events import Event

    event = Event("die", "ai1", {"die": "3"})
    assert event == Event("die", "ai1", {"die": "3"}) and event != Event("die", "ai2", {"die": "3"})
    assert Event("stop").params == {} and Event("stop").params is not Event("stop").params
    for name in ("kind", "driver", "params"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, name, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        del event.kind
    assert event.to_dict() == {"kind": "die", "driver": "ai1", "params": {"die": "3"}}
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(event)) == event == copy.deepcopy(event) == copy.copy(event)
