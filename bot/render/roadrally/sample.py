"""A Road Rally USA game played by the AI for the tests, the pictures and the benchmark: five seats
(Discord-style names with accents on purpose) on a course, stopped after a number of actions."""

from __future__ import annotations

from bot.engine.roadrally import ai
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import apply, new_game, to_act
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.view import view

SEATS = ("s1", "s2", "s3", "s4", "s5")
NAMES = {"s1": "Sébastien_Morel", "s2": "Jürgen_Kraus", "s3": "Kari_Ødegaard", "s4": "Ana_Lúcia_Silva",
         "s5": "Zoë_Brand"}


def ai_game(course: str = "std-7", seats: int = 5, actions: int = 60, seed: int = 3) -> RRState:
    """The state after `actions` AI actions (or at the game's end) of a new game on `course`."""
    st, _ = new_game(load_course(course), SEATS[:seats], seed=seed)
    for _ in range(actions):
        if st.phase == "over":
            break
        seat = sorted(to_act(st))[0]
        st, _ = apply(st, seat, ai.choose(view(st, seat)))
    return st
