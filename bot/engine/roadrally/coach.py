"""Road Rally's coach (bot.engine.core.game `Coach`): the AI's action from the seat's own view,
and a whole game played by the AI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import msg
from bot.engine.roadrally import ai as rr_ai
from bot.engine.roadrally.actions import Action
from bot.engine.roadrally.library import course_of
from bot.engine.roadrally.rules import TableView, course_played
from bot.engine.roadrally.simulate import simulate as simulate_game


class RoadRallyCoach:
    """Road Rally's AI, from the seat's own view."""

    def choose(self, view: TableView, seat: str, risk: float | None = None) -> Action:
        """The AI's action from the seat's own view (it never sees the state)."""
        if view.rr.seat != seat or view.rr.me is None or seat not in view.rr.to_act:
            raise NotAllowed(msg("game.not_your_action"))
        return rr_ai.choose(view.rr)

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        """`python -m bot simulate --game roadrally --players 5 --preset rr-standard --seed 7`."""
        preset = ruleset or "rr-standard"
        sprint = "sprint" in [m.strip() for m in modules.split(",") if m.strip()]
        course = course_of(course_played(stages[0], sprint), seed) if stages else None
        return simulate_game(drivers, preset, seed, sprint=sprint, course=course)


COACH = RoadRallyCoach()
