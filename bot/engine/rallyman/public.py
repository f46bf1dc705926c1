"""What anyone may see of a classic rally: an allow-list of the state's public parts.

A view (`protocol.RallymanView`) holds a `PublicState`, never the `GameState`. Left out: the dice
stream (its seed and its position: every die still to roll), the order of the shortcut deck (A9.1:
hidden cards drawn from the top; only its size is shown) and the config's seed. Nothing reached from
a view can tell a die or a card still to come, and two states that differ only there give equal
views. The fields are the state's own objects, not copies (a view is made for every post and every
AI move), under the state's names, so readers written for the state read a view alike; what both
answer (`finished`, `active`, `car_by_id`, `current_turn`) is `state.Readings`.

The rules a reader of a view still needs (the prompt's legal moves and certain losses, `/odds`, the
AI) run on `replica(public)`: a state rebuilt from the public part alone, whose dice never show ⚠
and whose hidden cards are all good. That is all those trial drives ever use of the secrets: each
one drives a copy with exactly those dice and cards (`game.drive_clean`, `attack.clean_copy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.engine.core.dice import CleanDice
from bot.engine.rallyman.course import Course
from bot.engine.rallyman.ruleset import Ruleset
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.state import Car, GameConfig, GameState, Readings, TurnState

_new = object.__new__


@dataclass(frozen=True, slots=True)
class PublicState(Readings):
    """The public part of a classic `GameState` (see the module's note), read-only."""

    stage: Stage
    rules: Ruleset
    ruleset: str
    modules: Mapping[str, bool]
    cars: Sequence[Car]
    dirt: Mapping[int, int]
    round: int
    queue: Sequence[int]
    entry: Sequence[int]
    turn: TurnState | None
    arrival: int
    finishers: int
    last_path: Sequence[list]
    last_driver: int | None
    moves: int
    course: Course | None
    weather: tuple[str, ...] | None
    deck_size: int  # shortcut cards in the deck (A9.1): their order is hidden


#: a state or its public part: what the readers of a view (status, story, pictures) accept
Shown = GameState | PublicState


def public(state: GameState) -> PublicState:
    """The public part of `state`: its own objects, picked by name, none copied."""
    config = state.config
    return PublicState(state.stage, state.rules, config.ruleset, config.modules, state.cars, state.dirt, state.round,
                       state.queue, state.entry, state.turn, state.arrival, state.finishers, state.last_path,
                       state.last_driver, state.moves, state.course, state.weather, len(state.deck))


def replica(shown: PublicState) -> GameState:
    """A state made of `shown` alone, for the rules a view's reader runs (trial drives: legal
    moves, odds, the AI): dice that never show ⚠, a deck of good shortcuts of the real deck's size,
    seed 0. It shares the cars (`owned` 0: the engine copies one before changing it) and everything
    else with `shown`; whatever it is asked, it cannot tell a secret it was never given."""
    s = _new(GameState)
    s.stage, s.rules, s.cars, s.dirt = shown.stage, shown.rules, list(shown.cars), dict(shown.dirt)
    s.config = GameConfig(shown.stage.name, shown.ruleset, 0, dict(shown.modules))
    s.dice, s.deck = CleanDice(), ["good"] * shown.deck_size
    s.round, s.queue, s.entry, s.turn = shown.round, list(shown.queue), list(shown.entry), shown.turn
    s.arrival, s.finishers, s.last_path, s.last_driver = shown.arrival, shown.finishers, list(shown.last_path), \
        shown.last_driver
    s.moves, s.course, s.weather, s.owned = shown.moves, shown.course, shown.weather, 0
    return s
