"""Random input never breaks the engine: every action either applies or is refused with a
RallyError, and a refusal leaves the state exactly as it was."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_helpers import seats, stage_from

from bot.engine.core.errors import RallyError
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.parse import parse

STAGE = stage_from("""straight 2 [grass|forest]
left 3 skid 4x3 K4 [rocks|forest]
straight 2 cap 1 [grass|water]
bump 3
straight 2
right 2 skid 3x2 K3 [forest|rocks]
straight 3 [grass|grass]""")

WORDS = ["1", "2", "3", "4", "5", "6", "0", "w", "white", "gaz", "weiss", "skid", "cut", "interior", "k",
         "stop", "spare", "line", "s", "x", "/roll", "-", ",", "3w4", "sk", "in"]
DRIVERS = [None, None, None, "d1", "d2", "d3", "nobody"]

text = st.lists(st.sampled_from(WORDS), min_size=0, max_size=5).map(" ".join)
step = st.one_of(
    st.tuples(st.just("text"), text, st.sampled_from(DRIVERS)),
    st.tuples(st.just("legal"), st.integers(0, 30), st.sampled_from(DRIVERS)),
)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), drivers=st.integers(1, 3), steps=st.lists(step, min_size=1, max_size=60))
def test_random_actions_apply_or_are_refused_without_side_effects(seed, drivers, steps):
    """Random texts from a small alphabet (dice, lines, stop, spare, junk) and random drivers,
    mixed with actions from `legal_actions` so the cars get into corners, bumps and shortcuts."""
    state = new_game(STAGE, seats(drivers), seed=seed)
    for kind, value, driver in steps:
        before = state.to_dict()
        try:
            if kind == "text":
                action = parse(value, state, driver=driver)
            else:
                options = legal_actions(state)
                if not options:
                    continue
                action = options[value % len(options)]
            new, events = apply(state, action)
        except RallyError as exc:
            assert kind == "text", f"a legal action was refused: {exc}"
            assert str(exc).strip(), "a refusal without a message"
            assert state.to_dict() == before, "a refused action changed the state"
            continue
        assert state.to_dict() == before, "apply changed the state it was given"
        assert new.moves == state.moves + 1 and events
        state = new
