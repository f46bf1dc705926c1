"""The data of DIRT's pictures, as an outbox row keeps it (what is shown comes from a view).

`board_data` fills the renderer's `BoardView` (bot.engine.dirt.view) from a state: every car with
its space, gear, pose (drift on a corner's outside line, turned across on a slide), stage time so far
and dashboard tokens, the dice of the turn just played on their spaces, the "−1" tokens on their
tiles; the status line is a message, shown in the reader's language when the post is delivered.
`results_data` fills a `ResultsView` (the stage's or the rally's classification, B13.2, B13.8.10).
its pictures facet makes the painter's arguments again from that data once its texts are words.

Pure, like every engine module (the words come from the catalogue at the boundary).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.engine.core.scores import format_time
from bot.engine.core.text import msg, to_json
from bot.engine.dirt.classification import Row, rally_rows
from bot.engine.dirt.out_reasons import out_reason_word
from bot.engine.dirt.public import Shown
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.stages.model import DirtStage
from bot.engine.dirt.view import BoardView, CarView, DieView, ResultRow, ResultsView

if TYPE_CHECKING:  # the view is the rules' (which import nothing of this module's)
    from bot.engine.dirt.rules import DirtView


def stage_seconds(state: Shown, seat: str) -> int:
    """A car's stage time so far: its time cards less the second tokens it holds (B13.2)."""
    car = state.cars[seat]
    if len(car.stage_times) > state.stage_index:  # the stage is over (the rally's last): its time
        return car.stage_times[state.stage_index] or 0
    return max(0, sum(car.cards) - car.seconds_tokens)


def board_view(state: Shown) -> BoardView:
    """The board's view of `state` (its status line left empty: `board_data` adds it as a message)."""
    acting = state.to_act()
    cars = []
    for colour, (seat, name) in enumerate(state.seats):
        car = state.cars[seat]
        on_track = car.space is not None and car.status in ("racing", "finished")
        cars.append(CarView(seat=seat, name=name, colour=colour % 6, space=car.space if on_track else None,
                            gear=car.gear, pose=car.pose if on_track else "normal", status=car.status,
                            seconds=stage_seconds(state, seat),
                            tokens={k: n for k, n in car.tokens.items() if n}, to_act=seat == acting))
    # mid-turn (`/rally board`): the dice so far; between turns: the turn just played
    shown_dice, shown_path = state.last_dice, state.last_path
    if state.turn_dice:
        shown_dice, shown_path = state.turn_dice, state.turn_path
    return BoardView(stage=state.stages[state.stage_index], round=state.round, stage_no=state.stage_index + 1,
                     stages=len(state.stages), cars=cars,
                     dice=[DieView(die=d, hazard=h, space=s) for d, h, s in shown_dice],
                     path=list(shown_path), minus={t: len(v) for t, v in state.minus.items() if v})


def status_message(state: Shown) -> str:
    """Who is to act, or the rally's winner once it is over."""
    acting = state.to_act()
    if acting is not None:
        return msg("dirt.board_to_act", name=dict(state.seats)[acting])
    rows = rally_rows(state)
    best = next((r for r in rows if r.total is not None), None)
    if best is None or best.total is None:
        return msg("dirt.board_over")
    return msg("dirt.board_fastest", name=best.name, time=format_time(best.total))


def board_data(state: Shown) -> dict[str, Any]:
    data = board_view(state).model_dump(mode="json")
    data["status"] = to_json(status_message(state))
    return data


def _row(row: Row) -> dict[str, Any]:
    return {"name": row.name, "status": row.status, "times": list(row.times), "total": row.total,
            "gap": row.gap, "rank": row.rank,
            "reason": to_json(out_reason_word(row.reason)) if row.reason else ""}


def results_data(state: Shown) -> dict[str, Any]:
    """The classification card: after a stage that is not the last, that stage's place in the
    rally; at the end, the rally's; always under "provisional rules" (the renderer prints them)."""
    done = len([t for t in next(iter(state.cars.values())).stage_times])
    rows = rally_rows(state)
    columns = [to_json(msg("dirt.stage_short", n=i + 1)) for i in range(max(done, 1))]
    if state.over:
        title = to_json(msg("dirt.card_rally", title=_rally_title(state)))
    else:
        title = to_json(msg("dirt.card_stage", n=max(done, 1), title=load_stage(state.stages[max(done, 1) - 1]).title))
    winners = [r.name for r in rows if r.rank == 1]
    subtitle = to_json(msg("dirt.card_winner", name=winners[0])) if winners else ""
    view = {"title": title, "subtitle": subtitle, "columns": columns, "rows": [_row(r) for r in rows]}
    return view


def _rally_title(state: Shown) -> str:
    return ", ".join(load_stage(name).title for name in state.stages)


__all__ = ["ResultRow", "board_data", "board_view", "results_data", "stage_seconds"]


class DirtPictures:
    """DIRT's pictures' data (bot.engine.core.game `Pictures`)."""

    def board(self, view: DirtView) -> dict[str, Any]:
        return board_data(view.state)

    def results(self, view: DirtView) -> dict[str, Any]:
        return results_data(view.state)

    def board_picture(self, data: Mapping[str, object]) -> tuple[DirtStage, BoardView]:
        """What the painter draws a board from: its stage and the board view."""
        view = BoardView.model_validate(data)
        return (load_stage(view.stage), view)

    def results_picture(self, data: Mapping[str, object]) -> ResultsView:
        return ResultsView.model_validate(data)

    def preview_picture(self, stage: str) -> DirtStage:
        return load_stage(stage)


PICTURES = DirtPictures()
