"""The data of classic's pictures, as an outbox row keeps it (what is shown comes from a view).

A post's board or results image is drawn when the post is delivered, in its reader's language. The
row keeps the picture's data, never the state: `board_data` / `results_data` give the renderer's
`BoardView` / `ResultsView` as JSON, their texts that depend on the language (the board's status
line; the results' title, subtitle, special numbers and reasons) kept as message-key JSON
(`bot.engine.core.text.to_json`), which the boundary shows in the reader's language before
its pictures facet makes the painter's arguments of it again.

Pure, like every engine module (the words come from the catalogue at the boundary).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.engine.core.text import Listed, msg, to_json
from bot.engine.rallyman.board import board_view, default_status
from bot.engine.rallyman.out_reasons import out_reason_word
from bot.engine.rallyman.public import Shown
from bot.engine.rallyman.results import results_view
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.stages.weather import with_weather
from bot.engine.rallyman.view import BoardView, ResultRow, ResultsView

if TYPE_CHECKING:  # the view is the rules' (which import nothing of this module's)
    from bot.engine.rallyman.rules import RallymanView

PLURAL_WINNER = {False: "render.winner.one", True: "render.winner.other"}


def board_data(state: Shown) -> dict[str, Any]:
    """The board picture's data: whose turn it is, or the fastest time once it is over, as a message."""
    data = board_view(state, status="").model_dump(mode="json")
    data["status"] = to_json(default_status(state))
    return data


def results_data(state: Shown) -> dict[str, Any]:
    """The results picture's data: the special numbers ("SS2", "ES2", "WP2"), why each DNF is out;
    after the last special of a rally the card says what it is, the rally classification (A17),
    with its winner. A single special's card has no words to translate."""
    view = results_view(state)
    data = view.model_dump(mode="json")
    course = state.course
    if course is None or not course.results:
        return data
    done = len(course.results)
    for row in data["rows"]:
        if row["reason"]:
            row["reason"] = to_json(out_reason_word(row["reason"]))
    data["columns"] = [to_json(msg("render.special", n=i + 1)) for i in range(len(view.columns))]
    if done < len(course.specials) and not course.stopped:  # a rally that stopped early: its classification
        data["title"] = to_json(msg("render.special_results", special=msg("render.special", n=done),
                                    stage=load_stage(course.specials[done - 1]).title,
                                    results=msg("render.results")))
        return data
    data["title"] = to_json(msg("render.rally_classification"))
    data["subtitle"] = to_json(rally_card_subtitle(view.rows))
    return data


def rally_card_subtitle(rows: Sequence[ResultRow]) -> str:
    """The rally card's subtitle: its winner, or its winners when the best total is shared (a tie
    shares first place, RULES OPEN-5), then the legend of the special winners' mark."""
    winners = [r.name for r in rows if r.status == "finished" and r.time_s is not None and r.gap_s == 0]
    legend = msg("render.special_winner_legend")
    if not winners:
        return legend
    return Listed([msg(PLURAL_WINNER[len(winners) > 1], name=Listed(winners, "and")), legend], "dot")


def board_args(data: Mapping[str, object]) -> tuple[Stage, BoardView]:
    """What the painter draws a board from (texts already in the reader's words): its stage under
    its weather, and the board view."""
    view = BoardView.model_validate(data)
    return (with_weather(load_stage(view.stage), sorted(view.snow_zones)), view)


class ClassicPictures:
    """Classic's pictures' data."""

    def board(self, view: RallymanView) -> dict[str, Any]:
        """The board image's data (`BoardView` JSON, its status line a message)."""
        return board_data(view.state)

    def results(self, view: RallymanView) -> dict[str, Any]:
        """The results image's data (`ResultsView` JSON, its words messages)."""
        return results_data(view.state)

    def board_picture(self, data: Mapping[str, object]) -> tuple[Stage, BoardView]:
        return board_args(data)

    def results_picture(self, data: Mapping[str, object]) -> ResultsView:
        """A results card is drawn from its view alone."""
        return ResultsView.model_validate(data)

    def preview_picture(self, stage: str) -> Stage:
        return load_stage(stage)


PICTURES = ClassicPictures()
