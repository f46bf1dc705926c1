"""DIRT's career counters (bot.engine.core.game `Career`, bot.engine.core.tally)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.events import Event
from bot.engine.core.tally import Counters, gear_tally
from bot.engine.dirt.ruleset import GEARS


class DirtCareer:
    """What one action's events add to each driver's career."""

    def tally(self, events: Sequence[Event]) -> Counters:
        """Career counters (bot.engine.core.tally): a turn begun, a loss of control, the gear a turn
        ended in (its card, B3; the finish line ends the turn too), a stage finished."""
        return gear_tally(events, turn="dirt_turn", lost="dirt_lost_control", ends=("dirt_turn_end", "dirt_finish"),
                          finish="dirt_finish", top=max(GEARS))


CAREER = DirtCareer()
