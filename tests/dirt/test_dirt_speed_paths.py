"""The quick paths of DIRT's engine and AI ("Speed") give exactly what the plain rules
give: on the states of AI-driven rallies, the AI's choice equals the choice worked out the plain
way (every legal action, each target named by `moves.choose`, the exact odds), the legal rolls'
targets are `check_roll`'s, `can_roll` is "some roll is legal", the cached dice steps are
`allowed_steps`', the stage's cached tables are its graph's, and the `Game` adapter never changes
the state it is given (the engine's `apply` plays on its own), across a stage end too."""

from __future__ import annotations

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import DIRECTIONS, Action, Roll, Spare, Stop
from bot.engine.dirt.dice_rules import allowed_steps
from bot.engine.dirt.move_odds import loss_chance
from bot.engine.dirt.moves import choose as target_of
from bot.engine.dirt.moves import dice_left_of, dice_turn, step_gear, steps_now, word_of
from bot.engine.dirt.simulate import ai_seats
from bot.engine.dirt.stages.catalogue import load_stage, stage_names
from bot.engine.dirt.stages.model import SpaceKind
from bot.engine.dirt.state import DirtState
from bot.engine.dirt.turn import can_roll, check_roll, legal_rolls, roll_targets


def plain_choice(state: DirtState, seat: str, risk: float = ai.RISK) -> Action:
    """The AI's choice as first written (before the speed work): from `legal_actions`."""
    legal = engine.legal_actions(state, seat)
    car = state.cars[seat]
    if any(isinstance(a, Spare) for a in legal) and car.tokens.get("coast", 0) and not state.turn_dice:
        return Spare()
    rolls = [a for a in legal if isinstance(a, Roll)]
    can_stop = any(isinstance(a, Stop) for a in legal)
    if not rolls:
        return Stop() if can_stop or not legal else legal[0]
    caps = ai.caps_for(state, seat)
    spaces = state.stage.spaces
    best_key: tuple | None = None
    best: Roll | None = None
    for roll in rolls:
        target = target_of(state, seat, roll.to)
        gear = step_gear(car, roll.step)
        safe = gear <= caps[target]
        key = (safe, spaces[target].kind is SpaceKind.NORMAL, gear if safe else -gear, caps[target],
               -roll.step.brakes)
        if best_key is None or key > best_key:
            best_key, best = key, roll
    assert best is not None and best_key is not None
    if can_stop and (not best_key[0] or loss_chance(state, seat, best) > risk):  # the odds `/odds` tells
        return Stop()
    return best


def rally_states(stages: list[str], seed: int, drivers: int = 4):
    """Every (state, seat to act) of an AI-driven rally, in order."""
    state, _ = engine.new_rally(ai_seats(drivers), stages, dice=SeededDice(seed), assistance=[seed % 2 == 0])
    while not engine.finished(state):
        seat = state.to_act()
        assert seat is not None
        yield state, seat
        state, _ = engine.apply(state, seat, ai.choose(state, seat))


def test_the_ai_chooses_as_the_plain_rules_say_on_every_state_of_rallies():
    met = 0
    for stages, seed in ((["lakeside-loop", "wolf-forest"], 3), (["dusty-pines", "copper-mine"], 5)):
        for state, seat in rally_states(stages, seed):
            for risk in (ai.RISK, 0.05, 0.5):
                assert ai.choose(state, seat, risk) == plain_choice(state, seat, risk), (stages, seed, state.round)
            met += 1
    assert met > 300  # two whole rallies of two stages were driven


def test_legal_rolls_targets_can_roll_and_dice_steps_agree_with_the_plain_checks():
    for state, seat in rally_states(["kettle-gorge", "red-quarry"], 7):
        rolls = legal_rolls(state, seat)
        assert rolls == [roll for roll, _ in roll_targets(state, seat)]
        assert can_roll(state, seat) == bool(rolls)
        assert steps_now(state, seat) == tuple(allowed_steps(dice_turn(state, seat), dice_left_of(state, seat)))
        for roll, target in roll_targets(state, seat):
            assert check_roll(state, seat, roll) == target


def test_the_stage_tables_are_its_graph():
    for name in stage_names():
        stage = load_stage(name)
        for space in stage.spaces:
            words = {word_of(stage.spaces[t]) for t in space.forward}
            assert stage.forward_words[space.id] == tuple(w for w in DIRECTIONS if w in words)
            assert stage.overlap_sets[space.id] == frozenset(space.overlaps)
            for word in words:
                assert stage.targets_by_word[space.id][word] == tuple(
                    t for t in space.forward if word_of(stage.spaces[t]) == word)


def test_the_game_adapter_never_changes_the_state_it_is_given_even_across_a_stage_end():
    """The engine's `apply` plays on its state (third pass); `Dirt.apply`, the services'
    path, keeps the `Game` contract on its own copy: the state given stays as it was, shares
    nothing with the one returned, and the engine on a clone gives the same state and events."""
    from bot.engine.dirt.protocol import GAME as DIRT

    ends = 0
    for state, seat in rally_states(["birch-ridge", "mill-ford"], 11, drivers=3):
        text = state.to_dict()
        action = ai.choose(state, seat)
        after, events = DIRT.rules.apply(state, seat, action)
        assert state.to_dict() == text and after is not state
        assert all(after.cars[s] is not state.cars[s] for s in after.cars) and after.dice is not state.dice
        same, again = engine.apply(state.clone(), seat, action)
        assert same.to_dict() == after.to_dict() and [e.to_dict() for e in again] == [e.to_dict() for e in events]
        ends += any(e.kind == "dirt_stage_end" for e in events)
    assert ends == 2
