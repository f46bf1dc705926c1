"""DIRT's coach (bot.engine.core.game `Coach`): the AI's choice, the odds of a step or a planned
group, and a whole rally driven by the AI."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import msg
from bot.engine.dirt import ai as dirt_ai
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Action, Attack, Roll
from bot.engine.dirt.commands import COMMANDS
from bot.engine.dirt.move_odds import loss_chance
from bot.engine.dirt.public import replica
from bot.engine.dirt.rules import RULES, DirtView, RollStop
from bot.engine.dirt.simulate import simulate as simulate_course


class DirtCoach:
    """DIRT's AI, from the seat's own view, and a whole rally played by it."""

    def choose(self, view: DirtView, seat: str, risk: float | None = None) -> Action:
        state = replica(view.state)
        if seat not in RULES.to_act(state):
            raise NotAllowed(msg("game.not_your_action"))
        return dirt_ai.choose(state, seat) if risk is None else dirt_ai.choose(state, seat, risk)

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        return simulate_course(list(stages), drivers, seed, list(assistance), modules)


COACH = DirtCoach()


class DirtOdds:
    """The odds of a plan of dice, from the asker's own view (its `/odds`)."""

    def odds(self, view: DirtView, seat: str, text: str) -> list[str]:
        """The exact chance that the next step or a planned group loses control, worked out by
        playing it with every draw of the dice and the bag (`move_odds`: the ⚠ limit, speed
        limits, jumps, damage; B13.1, B13.3–B13.5); a move not allowed now is refused as `/roll`
        refuses it."""
        state = replica(view.state)
        if state.to_act() != seat:
            raise NotAllowed(msg("game.not_your_action"))
        action = COMMANDS.parse(text, state, seat)
        roll = action.roll if isinstance(action, RollStop) else action
        if isinstance(roll, Roll):
            steps = [roll.step]
        elif isinstance(roll, Attack):
            steps = [step for step, _ in roll.steps]
        else:
            raise NotAllowed(msg("dirt.odds_need_dice"))
        chance = loss_chance(state, seat, roll)
        plan = " ".join(engine.label(Roll(s)) for s in steps)
        if chance == 1:
            return [msg("dirt.odds_certain", plan=plan)]
        percent = msg("number.percent", value=round(float(chance) * 100, 1))
        return [msg("dirt.odds", plan=plan, percent=percent)]


ODDS = DirtOdds()
