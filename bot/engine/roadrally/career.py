"""Road Rally's career counters (bot.engine.core.game `Career`, bot.engine.core.tally)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.tally import Counters, add
from bot.engine.roadrally.events import RoadEvent


class RoadRallyCareer:
    """What one action's events add to each driver's career."""

    def tally(self, events: Sequence[RoadEvent]) -> Counters:
        """Career counters (bot.engine.core.tally): a turn is a hand of cards played, a stage one
        the seat scored (C10), `crossed` the finish line reached (C8: the classification by VP
        ranks the cars that did not too); no gears and no losses of control in this game: omitted."""
        out: Counters = {}
        for e in events:
            if e.kind == "played":
                add(out, e.seat, "turns")
                add(out, e.seat, "crossed", 0)
            elif e.kind == "stage_scored":
                add(out, e.seat, "stages")
            elif e.kind == "finished":
                add(out, e.seat, "crossed")
        return out


CAREER = RoadRallyCareer()
