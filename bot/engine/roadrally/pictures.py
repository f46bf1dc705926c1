"""The data of Road Rally USA's pictures, as an outbox row keeps it (what is shown comes
from a view, never from the state).

- `board_data(view, names)`: the public part of the view (RULES C10.8) and each seat's shown name,
  the road by its course name (reloaded with `load_course` when drawn, not copied as geometry).
  A seat's own view may be given: its `me` (hand, stage cards, answer, deck top) and its seat are
  ignored, so the data is the spectators' whoever asks.
- `results_data(view, names)`: the classification (C8): place, name, final VP and its parts (VP
  tiles, stage tiles, checkpoints), finish mark, retired; its title, subtitle and note as messages
  (`roadrally.card_*`), shown in the reader's language when the card is drawn.
- `board_args(data)`: the painter's arguments for a board once the texts are words: (road, view,
  names), the `RRView` rebuilt from the data; the pictures facet (`RoadRallyPictures`) gives the
  results card's `ResultsData` and a preview's road too.

Pure, like every engine module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.engine.core.text import msg, to_json
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.library import ROADRALLY_COURSES
from bot.engine.roadrally.picture_data import BoardData, ResultLine, ResultsData, SeatData
from bot.engine.roadrally.presets import preset
from bot.engine.roadrally.road import Road
from bot.engine.roadrally.view import PublicSeat, RRView

if TYPE_CHECKING:  # the view is the rules' (which import nothing of this module's)
    from bot.engine.roadrally.rules import TableView

__all__ = ["board_args", "board_data", "board_view", "final_lines", "results_data"]


def _name(names: Mapping[str, str], seat: str) -> str:
    return names.get(seat, seat)


def board_data(view: RRView, names: Mapping[str, str]) -> dict[str, Any]:
    """The board's data (JSON): the view's public part only, each seat with its shown name."""
    seats = [SeatData(id=s.id, name=_name(names, s.id), place=s.place, pos=s.pos, mark=s.mark,
                      hand_size=s.hand_size, deck_size=s.deck_size, discard=list(s.discard), vp=s.vp,
                      stage_tiles=list(s.stage_tiles), checkpoints=s.checkpoints, stage_cards=s.stage_cards,
                      scored_cards=s.scored_cards, retired=s.retired) for s in view.seats]
    data = BoardData(course=view.road.name, preset=view.preset, sprint=view.sprint, round=view.round,
                     phase=view.phase, order=list(view.order), current=view.current, to_act=sorted(view.to_act),
                     seats=seats, stage_tiles=list(view.stage_tiles), checkpoint_tiles=list(view.checkpoint_tiles),
                     window=view.window, choice=view.choice, revealed=list(view.revealed))
    return data.model_dump(mode="json")


def board_view(data: BoardData, road: Road) -> RRView:
    """The spectators' `RRView` the board data was made from (`seat` and `me` None)."""
    seats = tuple(PublicSeat(s.id, s.place, s.pos, s.mark, s.hand_size, s.deck_size, tuple(s.discard), s.vp,
                             tuple(s.stage_tiles), s.checkpoints, s.stage_cards, s.scored_cards, s.retired)
                  for s in data.seats)
    return RRView(seat=None, preset=data.preset, sprint=data.sprint, road=road, round=data.round, phase=data.phase,
                  order=tuple(data.order), current=data.current, to_act=frozenset(data.to_act), seats=seats,
                  stage_tiles=tuple(data.stage_tiles), checkpoint_tiles=tuple(data.checkpoint_tiles),
                  window=data.window, choice=data.choice, revealed=tuple(data.revealed), me=None)


def _final_vp(seat: PublicSeat, tile_vp: int, checkpoint_vp: int) -> int:
    """C8: VP tiles + 2 per stage tile + 2 per checkpoint tile (the preset's worths)."""
    return seat.vp + tile_vp * len(seat.stage_tiles) + checkpoint_vp * seat.checkpoints


def final_lines(view: RRView, names: Mapping[str, str]) -> list[ResultLine]:
    """The classification from the public view, best first (C8): final VP, a tie to the car further
    ahead (its race place); retired seats last, unplaced, by final VP."""
    p = preset(view.preset)
    vp = {s.id: _final_vp(s, p.tile_vp, p.checkpoint_vp) for s in view.seats}
    order = sorted(view.seats, key=lambda s: (s.retired or s.place is None, -vp[s.id], s.place or 0))
    lines, place = [], 0
    for s in order:
        ranked = not s.retired and s.place is not None
        place += ranked
        lines.append(ResultLine(name=_name(names, s.id), place=place if ranked else None, vp=vp[s.id], vp_tiles=s.vp,
                                stage_tiles=len(s.stage_tiles), checkpoints=s.checkpoints, mark=s.mark,
                                retired=s.retired))
    return lines


def results_data(view: RRView, names: Mapping[str, str]) -> dict[str, Any]:
    """The classification card's data (JSON): at the game's end its final classification, before
    it the standings so far; the winner (or leader) under the title, the scoring rule as a note."""
    p = preset(view.preset)
    lines = final_lines(view, names)
    if view.phase == "over":
        title = msg("roadrally.card_final", course=view.road.name)
    else:
        title = msg("roadrally.card_standings", course=view.road.name, round=view.round)
    best = lines[0] if lines and lines[0].place == 1 else None
    subtitle = ""
    if best is not None:
        subtitle = msg("roadrally.card_winner" if view.phase == "over" else "roadrally.card_leader",
                       name=best.name, vp=best.vp)
    note = msg("roadrally.card_rule", tile_vp=p.tile_vp, checkpoint_vp=p.checkpoint_vp)
    return {"title": to_json(title), "subtitle": to_json(subtitle), "note": to_json(note), "tile_vp": p.tile_vp,
            "checkpoint_vp": p.checkpoint_vp, "rows": [line.model_dump(mode="json") for line in lines]}


def board_args(data: Mapping[str, object]) -> tuple[Road, RRView, dict[str, str]]:
    """What the painter draws a board from (its texts already words): the road, the view and the
    seats' names; a seat beyond the road's final space is refused."""
    board = BoardData.model_validate(data)
    road = load_course(board.course)
    far = [s.id for s in board.seats if s.pos > road.final]
    if far:
        raise ValueError(f"seats: {', '.join(far)} stands beyond the final space of {board.course}")
    return (road, board_view(board, road), {s.id: s.name for s in board.seats})


class RoadRallyPictures:
    """Road Rally's pictures' data (bot.engine.core.game `Pictures`), from the spectators' view: `me` is never read."""

    def board(self, view: TableView) -> dict[str, Any]:
        return board_data(view.rr, view.name_of)

    def results(self, view: TableView) -> dict[str, Any]:
        return results_data(view.rr, view.name_of)

    def board_picture(self, data: Mapping[str, object]) -> tuple[Road, RRView, dict[str, str]]:
        return board_args(data)

    def results_picture(self, data: Mapping[str, object]) -> ResultsData:
        return ResultsData.model_validate(data)

    def preview_picture(self, stage: str) -> Road:
        """A name a rally gives: `standard` and `sprint` are drawn with seed 0's layout."""
        return ROADRALLY_COURSES.road(stage)


PICTURES = RoadRallyPictures()
