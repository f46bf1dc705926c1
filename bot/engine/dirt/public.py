"""What anyone may see of a DIRT rally: an allow-list of the state's public parts.

A view (`protocol.DirtView`) holds a `PublicState`, never the `DirtState`. Left out: the dice
stream (its seed and its position: every die and every damage token still to come, B13.8.8) and
the engine's `probe` (worked out from the state, it holds the state itself). The damage bag's
counts are public: every token drawn lies face up on a dashboard or a tile. Nothing reached from a
view can tell a die or a draw still to come, and two states that differ only there give equal
views. The fields are the state's own objects, not copies (a view is made for every post and every
AI move), under the state's names, so readers written for the state read a view alike; what both
answer (`rules`, `stage`, `to_act`, `leading`) is `state.Readings`.

The rules a reader of a view still needs (the prompt's legal moves and certain losses, `/odds`, the
AI) run on `replica(public)`: a state rebuilt from the public part alone, its dice never showing ⚠.
Those readers never draw from the state's dice: the AI and the odds weigh every face and every
draw of the bag by its chance (`move_odds`, `odds`), and a move is checked on a dry run (`turn`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine.core.dice import CleanDice
from bot.engine.dirt.state import Car, DirtState, Readings


@dataclass(frozen=True, slots=True)
class PublicState(Readings):
    """The public part of a `DirtState` (see the module's note), read-only."""

    seats: Sequence[tuple[str, str]]
    stages: Sequence[str]
    assistance: Sequence[bool]
    modules: Mapping[str, bool]
    ruleset: str
    cars: Mapping[str, Car]
    stage_index: int
    start_order: Sequence[str]
    round: int
    order: Sequence[str]
    previous_order: Sequence[str]
    turn: int
    turn_dice: Sequence[tuple[str, bool, int]]
    turn_path: Sequence[int]
    hazards: int
    last_dice: Sequence[tuple[str, bool, int]]
    last_path: Sequence[int]
    fresh: Mapping[str, int]
    sisu_active: bool
    minus: Mapping[int, list[str]]
    bag: Mapping[str, int]
    someone_finished: bool
    over: bool


#: a state or its public part: what the readers of a view (status, story, pictures) accept
Shown = DirtState | PublicState


def public(state: DirtState) -> PublicState:
    """The public part of `state`: its own objects, picked by name, none copied."""
    return PublicState(state.seats, state.stages, state.assistance, state.modules, state.ruleset, state.cars,
                       state.stage_index, state.start_order, state.round, state.order, state.previous_order,
                       state.turn, state.turn_dice, state.turn_path, state.hazards, state.last_dice, state.last_path,
                       state.fresh, state.sisu_active, state.minus, state.bag, state.someone_finished, state.over)


def replica(shown: PublicState) -> DirtState:
    """A state made of `shown` alone, for the rules a view's reader runs (legal moves, odds, the
    AI), with dice that never show ⚠: new containers holding `shown`'s cars and values (those
    readers change nothing). Whatever it is asked, it cannot tell a secret it was never given."""
    return DirtState(list(shown.seats), list(shown.stages), list(shown.assistance), dict(shown.modules), shown.ruleset,
                     CleanDice(), dict(shown.cars), shown.stage_index, list(shown.start_order), shown.round,
                     list(shown.order), list(shown.previous_order), shown.turn, list(shown.turn_dice),
                     list(shown.turn_path), shown.hazards, list(shown.last_dice), list(shown.last_path),
                     dict(shown.fresh), shown.sisu_active, dict(shown.minus), dict(shown.bag), shown.someone_finished,
                     shown.over)
