"""Random play on the shipped DIRT stages: any action, legal or not, either applies
or is refused with the state unchanged (an applied one changes the state given, as a clone of it
does); a random legal player always reaches the end (no dead state)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core.dice import SeededDice
from bot.engine.core.errors import NotAllowed
from bot.engine.dirt import rally
from bot.engine.dirt.rally import Action, Attack, DirtState, Retire, Roll, Spare, Step, Stop, Timeout
from bot.engine.dirt.stages.catalogue import stage_names

DICE = ("1", "2", "3", "4", "5", "6", "coast", "leader", "brake")
SEATS = ("a", "b", "c")


def reach(seed: int, stage: str, seats: int, moves: int) -> DirtState:
    """A state reached by `moves` random legal actions."""
    rng = random.Random(seed)
    s, _ = rally.new_rally([(x, x.upper()) for x in SEATS[:seats]], [stage, "gen-3"], dice=SeededDice(seed),
                           assistance=[rng.random() < 0.5], modules={"sisu": rng.random() < 0.5})
    for _ in range(moves):
        seat = rally.to_act(s)
        if seat is None:
            break
        s, _ = rally.apply(s, seat, rng.choice(rally.legal_actions(s, seat)))
    return s


steps = st.builds(Step, st.sampled_from(DICE), st.integers(0, 2))
directions = st.sampled_from(("", "left", "right", "slide", "cut", "up"))
actions = st.one_of(
    st.builds(Roll, steps, directions),
    st.builds(Attack, st.lists(st.tuples(steps, directions), max_size=4).map(tuple)),
    st.just(Stop()), st.just(Spare()), st.just(Timeout()),
    st.builds(Retire, st.sampled_from((*SEATS, "zz"))),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), stage=st.sampled_from(stage_names()), seats=st.integers(1, 3),
       moves=st.integers(0, 120), action=actions, who=st.sampled_from(("to_act", "other", "none")),
       pick_legal=st.booleans())
def test_any_action_applies_or_is_refused_with_the_state_unchanged(seed, stage, seats, moves, action: Action, who,
                                                                   pick_legal):
    s = reach(seed, stage, seats, moves)
    current = rally.to_act(s)
    seat = {"to_act": current, "none": None, "other": next((x for x, _ in s.seats if x != current), current)}[who]
    if pick_legal and current is not None:
        seat, action = current, random.Random(seed).choice(rally.legal_actions(s, current))
    before = s.to_dict()
    kept = s.clone()
    try:
        new, events = rally.apply(s, seat, action)
    except NotAllowed as refusal:
        assert refusal.message.key.startswith("dirt.")
        assert s.to_dict() == before  # refused before anything changed
        assert not (pick_legal and current is not None), "a legal action was refused"
        return
    assert new is s and kept.to_dict() == before  # apply plays on the state given; a clone keeps it
    again, same = rally.apply(kept, seat, action)
    assert again.to_dict() == new.to_dict() and [e.to_dict() for e in same] == [e.to_dict() for e in events]
    assert all(e.kind.startswith("dirt_") for e in events)
    assert rally.finished(new) or rally.legal_actions(new, rally.to_act(new))


@pytest.mark.parametrize("stage", stage_names())
def test_a_random_legal_player_always_finishes_a_shipped_stage(stage):
    rng = random.Random(stage)
    s, _ = rally.new_rally([("a", "A"), ("b", "B")], [stage], dice=SeededDice(len(stage)))
    for _ in range(5000):
        seat = rally.to_act(s)
        if seat is None:
            break
        legal = rally.legal_actions(s, seat)
        assert legal, f"dead state: {seat} has nothing to play"
        s, _ = rally.apply(s, seat, rng.choice(legal))
    assert rally.finished(s)
    assert all(c.status in ("finished", "out") for c in s.cars.values())
