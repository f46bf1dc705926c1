"""Road Rally's hidden hands (bot.engine.core.game `Hidden`): what one seat alone sees and may pick."""

from __future__ import annotations

from bot.engine.core.game import Hand
from bot.engine.roadrally.rules import TableView
from bot.engine.roadrally.status_text import hand_lines


class RoadRallyHand:
    """A seat's own cards and what it is asked (`/hand`, the button of a private prompt)."""

    def hand(self, view: TableView) -> Hand:
        """The seat's own cards and what it is asked, with its picks."""
        return Hand(tuple(hand_lines(view.rr, view.name_of)), view.picks)


HIDDEN = RoadRallyHand()
