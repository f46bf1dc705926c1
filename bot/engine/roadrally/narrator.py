"""What Road Rally says (bot.engine.core.game `Narrator`), from a view only, as message keys.

The channel's prompt is `private`: it names the seat to act (or, in a stage window, asks every
active seat alike, C10.8) and offers no action; each seat acts from its own hand (`bot.engine.
roadrally.hidden`) or types the action."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.game import Prompt, Told
from bot.engine.core.text import msg
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.library import title_of
from bot.engine.roadrally.narrate import narrate
from bot.engine.roadrally.rules import TableView
from bot.engine.roadrally.status_text import prompt_lines, results_lines, status_lines

#: events after which a new decision begins (a ping, a deadline, the board): a turn played, a
#: stage window opened or closed, a choice made; an answer in an open window tells nothing
NEW_TURN = frozenset({"played", "reshuffled", "stage_window", "stage_scored", "stage_bypassed", "round",
                      "retired", "over", "final_vp", "vp"})


class RoadRallyNarrator:
    """Road Rally's prompts, stories, titles and standings."""

    def prompt(self, view: TableView, events: Sequence[RoadEvent]) -> Prompt:
        """Who is asked (a window: every active seat, C10.8) and what kind of decision, in public
        words; the choice itself is made in private (`hand`)."""
        rr = view.rr
        if rr.phase == "over" or not rr.to_act:
            return Prompt((), frozenset(), (), False)
        new_turn = any(e.kind in NEW_TURN for e in events)
        return Prompt(tuple(prompt_lines(rr, view.name_of)), rr.to_act, (), new_turn, private=True)

    def tell(self, view: TableView, events: Sequence[RoadEvent]) -> Told:
        return Told((), tuple(narrate(list(events), view.name_of, view.rr.road)))

    def seat_name(self, view: TableView, seat: str) -> str | None:
        return view.name_of.get(seat)

    def title(self, view: TableView) -> str:
        return title_of(view.rr.road.name)

    def status(self, view: TableView) -> list[str]:
        return status_lines(view.rr, view.name_of)

    def classification(self, view: TableView) -> list[str]:
        return results_lines(view.rr, view.name_of)

    def out_reason(self, code: str) -> str:
        return msg("roadrally.out_retired")

    def up_next(self, view: TableView) -> str | None:
        rr = view.rr
        if rr.current is None or rr.current not in rr.order:
            return None
        i = rr.order.index(rr.current)
        return rr.order[i + 1] if i + 1 < len(rr.order) else None

    def start_order(self, view: TableView) -> tuple[str, ...]:
        """Round 1's order: the random line-up on the start tile (OPEN-R3), not the seats' order."""
        return view.rr.order


NARRATOR = RoadRallyNarrator()
