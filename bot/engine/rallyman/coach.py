"""Classic's coach (bot.engine.core.game `Coach`): the AI's choice, the odds of a plan of dice
(A11) and a whole course driven by the AI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import msg
from bot.engine.rallyman import ai as classic_ai
from bot.engine.rallyman.actions import Action, Attack, Roll
from bot.engine.rallyman.library import LIBRARY
from bot.engine.rallyman.odds import odds as plan_odds
from bot.engine.rallyman.parse import parse as parse_text
from bot.engine.rallyman.public import replica
from bot.engine.rallyman.rules import RULES, RallymanView
from bot.engine.rallyman.simulate import modules_named
from bot.engine.rallyman.simulate import simulate as simulate_course
from bot.engine.rallyman.words import dice_words


class ClassicCoach:
    """Classic's AI, from the seat's own view, and a whole rally played by it."""

    def choose(self, view: RallymanView, seat: str, risk: float | None = None) -> Action:
        state = replica(view.state)
        if seat not in RULES.to_act(state):
            raise NotAllowed(msg("game.not_your_action"))
        return classic_ai.choose_action(state) if risk is None else classic_ai.choose_action(state, risk)

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        """`python -m bot simulate`: a whole course driven by the AI (bot.engine.rallyman.simulate);
        an unknown module is refused (ValueError) before anything is played; the ruleset is the
        one named (None: classic's default)."""
        return simulate_course(list(stages), drivers, seed, list(assistance), modules_named(modules),
                               ruleset or LIBRARY.rulesets()[0])


COACH = ClassicCoach()


class ClassicOdds:
    """The odds of a plan of dice, from the asker's own view (its `/odds`)."""

    def odds(self, view: RallymanView, seat: str, text: str) -> list[str]:
        """The exact chance of losing control for a plan of dice (A11), in message keys."""
        state = replica(view.state)
        action = parse_text(text, state, driver=seat)
        if not isinstance(action, (Roll, Attack)):
            raise NotAllowed(msg("odds.need_dice"))
        result = plan_odds(state, action)
        key = "odds.attack" if isinstance(action, Attack) else "odds.result"
        lines = [msg(key, plan=dice_words(action.dice), percent=result.percent)]
        if result.knocked_out:
            lines.append(msg("odds.knock_out", percent=msg("number.percent", value=round(result.knocked_out * 100, 1))))
        return lines


ODDS = ClassicOdds()
