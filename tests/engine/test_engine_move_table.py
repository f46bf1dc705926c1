"""The compiled transition tables and the AI's memory give what the rules give.

`moves.resolve` looks a die's move up in the stage's table (bot/engine/rallyman/moves/table.py); the rules
written out (`move_rules.rules_move`) must give the very same move, or refuse with the very same
message, for any position of the cars, dirt markers, lines chosen ahead, tires and house rules.
The AI's memory (bot/engine/rallyman/ai_memo.py) must never change a choice: its key holds everything the
choice reads, so a remembered choice is the one the AI would work out again.
"""

from __future__ import annotations

import random

import pytest
from rules_helpers import rules_with

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import to_json
from bot.engine.rallyman import ai
from bot.engine.rallyman.actions import LINES
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.moves.move import _snow_tires_refuse, has_room, refuse, resolve, try_resolve
from bot.engine.rallyman.moves.rules import rules_move
from bot.engine.rallyman.moves.table import context, reach
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.loader import stage_names
from bot.engine.rallyman.stages.model import START
from bot.engine.rallyman.state import FINISHED, OUT, RACING, GameState, TurnState

STAGES = [*stage_names(), "gen-3", "gen-9-60"]
HOUSE_RULES = [{}, {"overspeed_reference": "space"}, {"bump_beyond_n2": "knocked_out"},
               {"spun_car_blocks_corner": True}]
POSES = ("normal", "normal", "normal", "spun", "off_left", "off_right")
STATUSES = (RACING, RACING, RACING, FINISHED, OUT)


def _answer(call) -> tuple:
    try:
        move = call()
    except NotAllowed as exc:
        return ("refused", to_json(exc.message), str(exc), exc.allowed)
    return ("move", move.target, move.outcome, move.reason, move.over, move.bump_risk, move.line, move.flown)


def _rules_answer(state: GameState, ci: int, g: int, line: str | None, gear_die: bool) -> tuple:
    """What the rules written out say, with the snow tires' cap of `resolve` (A20.4)."""
    def call():
        move = rules_move(state, ci, g, line, gear_die, lambda space_id: has_room(state, space_id, ci))
        if not gear_die and _snow_tires_refuse(state, ci, move.target):
            raise refuse("dice.snow_tires_asphalt")
        return move
    return _answer(call)


def _scrambled(stage_name: str, house: dict, rng: random.Random) -> GameState:
    """A state with cars put anywhere: on the road, spun, off it, finished or out; dirt markers,
    lines chosen ahead, the dirt a car found in its corner, snow tires, white dice used."""
    stage = load_stage(stage_name)
    state = new_game(stage, ai_seats(4), seed=rng.randrange(1000), ruleset=rules_with(**house) if house else "classic")
    ids = [s.id for s in stage.spaces]
    for car in state.cars:
        car.position = rng.choice([START, *ids, *ids])
        car.status = rng.choice(STATUSES)
        car.pose = rng.choice(POSES)  # type: ignore[assignment]
        car.line = rng.choice([None, None, *LINES])
        car.tires = rng.choice(["asphalt", "asphalt", "snow"])
        corner = stage.spaces[car.position].corner if car.position >= 0 else None
        car.corner_dirt = [corner, rng.choice([0, 0, 1, 2])] if corner is not None and rng.random() < 0.7 else None
    if stage.corners and rng.random() < 0.4:
        for _ in range(rng.randint(1, 3)):
            corner = rng.randrange(len(stage.corners))
            state.dirt[corner] = state.dirt.get(corner, 0) + 1
    ci = rng.randrange(4)
    state.cars[ci].status = RACING
    state.turn = TurnState(car=ci, gear=rng.randint(0, 5), whites_asphalt=rng.choice([0, 0, 1]))
    return state


@pytest.mark.parametrize("stage", STAGES)
def test_the_table_gives_what_the_rules_give_for_any_cars_dirt_lines_and_house_rules(stage):
    rng = random.Random(stage)
    for house in HOUSE_RULES:
        for _ in range(25):
            state = _scrambled(stage, house, rng)
            ci = state.turn.car
            before = state.to_dict()
            for g in range(1, 6):
                for gear_die in (True, False):
                    for line in (None, *LINES):
                        expected = _rules_answer(state, ci, g, line, gear_die)
                        got = _answer(lambda s=state, c=ci, g=g, gd=gear_die, ln=line: resolve(s, c, g, ln, gd))
                        assert got == expected, (stage, house, state.cars[ci].position, g, gear_die, line)
                        tried = try_resolve(state, ci, g, line, gear_die)
                        assert (tried is None) == (expected[0] == "refused")
            assert state.to_dict() == before, "a lookup changed the state"


@pytest.mark.parametrize("stage", STAGES)
def test_room_is_only_asked_within_the_reach_the_ai_memory_looks_at(stage):
    """Every space a table entry asks room about is within `ai_memo.reach` of the car's space, so
    a key holding the cars there holds all the room the rules can ask about."""
    state = new_game(stage, ai_seats(1), seed=0)
    car = state.cars[0]
    for dirty in (False, True):
        if dirty:  # a marker on every corner, and the car found one more in its own
            state.dirt = {c.id: 1 for c in state.stage.corners}
            car.corner_dirt = [0, 2]
        ctx = context(state, car)
        for position in (START, *(s.id for s in state.stage.spaces)):
            for car_line in (None, *LINES):
                asked = ctx.reach(position, car_line, (None, *LINES))
                assert asked <= reach(state.stage, position), (stage, dirty, position, car_line)


def test_the_ai_remembers_only_what_it_would_work_out_again():
    """Along wild specials (random legal actions between the AI's), every remembered choice is the
    one the AI works out with an empty memory, at several risk tolerances."""
    rng = random.Random(5)
    for stage, modules in (("pinewood-sprint", {}), ("frozen-lakes", {"weather": True}), ("greystone-col", {}),
                           ("gen-4", {"seconds": True})):
        for seed in range(3):
            state = new_game(stage, ai_seats(4), seed=seed, modules=modules)
            while state.turn is not None:
                for risk in (0.12, 0.3):
                    remembered = choose_action(state, risk)
                    saved = dict(ai._MEMO)
                    ai._MEMO.clear()
                    try:
                        assert choose_action(state, risk) == remembered, (stage, seed, state.moves, risk)
                    finally:
                        ai._MEMO.clear()
                        ai._MEMO.update(saved)
                options = legal_actions(state)
                action = options[rng.randrange(len(options))] if rng.random() < 0.3 else choose_action(state)
                state, _ = apply(state, action)


def test_the_ai_memory_tells_apart_situations_that_differ_only_by_the_other_cars_or_a_detail():
    """The same car, turn and dice with the other cars moved about near it (blocking spaces or
    not, spun, off the road, finished), or one detail of the car, the turn or the road changed
    (line chosen ahead, tires, flats, damage, dirt, ⚠ counted, SISU): each remembered choice is
    the one worked out afresh."""
    rng = random.Random(11)
    for stage in ("pinewood-sprint", "quarry-switchbacks", "gen-12"):
        state = new_game(stage, ai_seats(4), seed=2, ruleset=rules_with(spun_car_blocks_corner=rng.random() < 0.5))
        while state.turn is not None:
            action = choose_action(state)  # remembered first: a variant missing from the key would meet it
            car = state.cars[state.turn.car]
            near = sorted(reach(state.stage, car.position)) or [car.position]
            for _ in range(6):
                variant = state.clone()
                for i, other in enumerate(variant.cars):
                    if i != state.turn.car and rng.random() < 0.3:
                        other.position = rng.choice(near)
                        other.status = rng.choice(STATUSES)
                        other.pose = rng.choice(POSES)  # type: ignore[assignment]
                _change_a_detail(variant, rng)
                remembered = _choice(variant)
                saved = dict(ai._MEMO)
                ai._MEMO.clear()
                try:
                    assert _choice(variant) == remembered, (stage, state.moves)
                finally:
                    ai._MEMO.clear()
                    ai._MEMO.update(saved)
            state, _ = apply(state, action)


def _choice(state: GameState) -> object:
    """The AI's action, or that it finds none (a car blocked all round never starts a turn, A13.5)."""
    try:
        return choose_action(state)
    except AssertionError:
        return "no move"


def _change_a_detail(state: GameState, rng: random.Random) -> None:
    turn = state.current_turn()
    car = state.cars[turn.car]
    corner = state.stage.spaces[car.position].corner if car.position >= 0 else None
    detail = rng.randrange(10)
    if detail == 0:
        car.line = rng.choice(LINES)
    elif detail == 1:
        car.tires = "snow" if car.tires == "asphalt" else "asphalt"
        turn.whites_asphalt = rng.choice([0, 1])
    elif detail == 2:
        car.flats = rng.choice([0, 1, 2])
    elif detail == 3:
        car.lost_black = rng.choice([0, 2, 4])
    elif detail == 4 and corner is not None:
        car.corner_dirt = [corner, rng.choice([0, 1, 2])]
    elif detail == 5 and state.stage.corners:
        state.dirt = {**state.dirt, rng.randrange(len(state.stage.corners)): rng.choice([1, 2])}  # shared: replaced
    elif detail == 6:
        turn.hazards = rng.choice([0, 1, 2])
        turn.snow_hazards = rng.choice([0, 1])
    elif detail == 7:
        turn.sisu_active = not turn.sisu_active
