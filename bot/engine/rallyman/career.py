"""Classic's career counters (bot.engine.core.game `Career`, bot.engine.core.tally)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.events import Event
from bot.engine.core.tally import Counters, gear_tally
from bot.engine.rallyman.ruleset import GEARS


class ClassicCareer:
    """What one action's events add to each driver's career."""

    def tally(self, events: Sequence[Event]) -> Counters:
        """Career counters (bot.engine.core.tally): a turn begun (`turn`), a loss of control, the
        gear a turn ended in by a stop or the finish line (its card, A6.4, A15), a special finished."""
        return gear_tally(events, turn="turn", lost="loss_of_control", ends=("stop", "finish"), finish="finish",
                          top=int(GEARS[-1]))


CAREER = ClassicCareer()
