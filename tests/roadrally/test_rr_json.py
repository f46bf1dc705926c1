"""Road Rally USA's state as canonical JSON (RULES C2-C10): whole AI games of 3, 4 and 5
seats on real courses survive `RRState.to_dict` / `RRState.from_dict` after every action, a game
continued from the saved state ends as the original, and the encoded action log replayed from the
start state reaches the same final state. Another schema, or another road, is refused."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from bot.engine.core.log import Start, Status
from bot.engine.roadrally import ai
from bot.engine.roadrally.actions import Action
from bot.engine.roadrally.codec import decode, encode
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import apply, final_vp, new_game, to_act
from bot.engine.roadrally.state import SCHEMA, RRState
from bot.engine.roadrally.view import view
from tests.roadrally.helpers import SEATS, game, snap

GAMES = [("base", "rr-base", False, 3), ("std-3", "rr-standard", False, 4), ("sprint-4", "rr-standard", True, 5),
         ("base", "rr-base", False, 5), ("std-3", "rr-standard", False, 3), ("sprint-4", "rr-standard", True, 4)]


def _canonical(d: dict[str, Any]) -> str:
    return json.dumps(d, sort_keys=True)


def _step(st: RRState) -> tuple[str, Action]:
    seat = sorted(to_act(st))[0]
    return seat, ai.choose(view(st, seat))  # the AI sees its own seat's view only


Played = tuple[tuple[RRState, ...], tuple[tuple[str, Action], ...]]


@cache
def _played(course: str, preset: str, sprint: bool, n: int) -> Played:
    """A whole AI game: every state from the start to the end, and the (seat, action) log."""
    st, _ = new_game(load_course(course), SEATS[:n], preset, seed=11 * n, sprint=sprint)
    states, log = [st], []
    while st.phase != "over":
        assert len(log) < 5000, f"{course} {n} seats: no end"
        seat, action = _step(st)
        st, _ = apply(st, seat, action)
        states.append(st)
        log.append((seat, action))
    return tuple(states), tuple(log)


@pytest.mark.parametrize("course,preset,sprint,n", GAMES)
def test_every_state_of_a_whole_game_round_trips_to_the_same_canonical_json(course, preset, sprint, n):
    states, log = _played(course, preset, sprint, n)
    assert len(log) > 20 and states[-1].phase == "over"
    for st in states:
        d = st.to_dict()
        text = _canonical(d)
        back = RRState.from_dict(json.loads(text))
        assert back.to_dict() == d
        assert _canonical(back.to_dict()) == text
        assert snap(back) == snap(st)  # every field, not only what to_dict says
        assert _canonical(st.to_dict()) == text  # the same state gives the same text


@pytest.mark.parametrize("course,preset,sprint,n", GAMES[:3])
def test_a_game_continued_from_a_saved_state_ends_as_the_original(course, preset, sprint, n):
    states, log = _played(course, preset, sprint, n)
    final = states[-1]
    for at in (0, len(log) // 3, 2 * len(log) // 3, len(log) - 1):
        st = RRState.from_dict(json.loads(_canonical(states[at].to_dict())))
        actions = []
        while st.phase != "over":
            seat, action = _step(st)  # the AI decides again from the restored state's views
            st, _ = apply(st, seat, action)
            actions.append((seat, action))
        assert actions == list(log[at:])
        assert final_vp(st) == final_vp(final)
        assert st.to_dict() == final.to_dict()


@pytest.mark.parametrize("course,preset,sprint,n", GAMES[:3])
def test_replaying_the_encoded_log_from_the_start_state_reaches_the_same_end(course, preset, sprint, n):
    states, log = _played(course, preset, sprint, n)
    entries = [(seat, encode(action)) for seat, action in log]  # the stored log: text only
    st = RRState.from_dict(json.loads(_canonical(states[0].to_dict())))
    for seat, text in entries:
        action = decode(text)
        assert not isinstance(action, (Start, Status))
        st, _ = apply(st, seat, action)
    assert st.to_dict() == states[-1].to_dict()
    assert final_vp(st) == final_vp(states[-1])


def test_another_schema_is_refused_naming_both():
    states, _ = _played(*GAMES[0])
    d = states[1].to_dict()
    for bad in (SCHEMA + 1, 0, None):
        with pytest.raises(ValueError, match=f"schema {bad!r} saved, {SCHEMA} expected"):
            RRState.from_dict({**d, "schema": bad})
    with pytest.raises(ValueError, match="schema None saved"):
        RRState.from_dict({k: v for k, v in d.items() if k != "schema"})
    assert RRState.from_dict(d).to_dict() == d  # the refusals changed nothing


def test_an_unknown_phase_is_refused():
    d = _played(*GAMES[0])[0][1].to_dict()
    with pytest.raises(ValueError, match="phase 'lunch' unknown"):
        RRState.from_dict({**d, "phase": "lunch"})


def test_a_hand_made_road_is_given_back_by_the_caller_and_must_be_the_saved_one():
    st = game(n=4, seed=5)  # hand-made road "test": no course name loads it
    d = st.to_dict()
    assert d["course"] == "test"
    back = RRState.from_dict(d, road=st.road)
    assert back.road is st.road and back.to_dict() == d and snap(back) == snap(st)
    with pytest.raises(ValueError, match="saved on course 'test', given road 'base'"):
        RRState.from_dict(d, road=load_course("base"))


def test_the_round_tripped_games_pass_through_every_phase():
    """So the round trip above covers stage windows, choices, Mechanic and reshuffle states too."""
    seen = {st.phase for g in GAMES for st in _played(*g)[0]}
    assert seen == {"turn", "reshuffle", "mechanic", "stage", "choose", "over"}
    assert any(st.mechanic_draw for g in GAMES for st in _played(*g)[0])
