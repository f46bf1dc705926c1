"""Where one die takes a car, and whether the rules allow it (RULES A7, A8, A10, A13, A20.4).

`resolve` is pure: it reads the state and returns a `Move` (normal, loss of control, knocked out)
or raises `NotAllowed` with the reason in the user's words. It rolls nothing: the die is rolled
only once the move is known to be legal, so a refused die never consumes randomness. The rules
are written out in bot/engine/rallyman/moves/rules.py; play looks their answer up in the stage's compiled
tables (bot/engine/rallyman/moves/table.py), which give the same moves and the same messages.
`try_resolve` is the same question for callers that only need to know whether a die is refused
(the AI, the list of legal actions): no message is made for them.
"""

from __future__ import annotations

from bot.engine.rallyman.moves.model import (
    CORNER_KINDS,
    KO,
    LINE_NAMES,
    LOC,
    OK,
    Move,
    effective_note,
    has_room,
    occupancy,
    occupants,
    refuse,
)
from bot.engine.rallyman.moves.table import Refusal, table_move
from bot.engine.rallyman.stages.model import Surface
from bot.engine.rallyman.state import GameState

__all__ = ["CORNER_KINDS", "KO", "LINE_NAMES", "LOC", "OK", "Move", "effective_note", "has_room", "occupancy",
           "occupants", "refuse", "resolve", "try_resolve"]


def resolve(state: GameState, ci: int, g: int, line: str | None, gear_die: bool) -> Move:
    """The move of a die of gear `g` for car `ci`; `line` is the trajectory asked for, if any.
    Every rule that depends on where the die goes is checked here, so what `resolve` accepts is
    what `roll_one` plays (the AI, `legal_actions` and the no-move check all rely on it)."""
    move = table_move(state, ci, g, line, gear_die)
    if isinstance(move, Refusal):
        raise move.error()
    if not gear_die and _snow_tires_refuse(state, ci, move.target):
        raise refuse("dice.snow_tires_asphalt")
    return move


def try_resolve(state: GameState, ci: int, g: int, line: str | None, gear_die: bool,
                occupied: list[int] | None = None) -> Move | None:
    """`resolve`, with None for a refused die instead of its message; `occupied`, if given, is
    `occupants(state, ci)` (worked out once for the many dice of one state)."""
    move = table_move(state, ci, g, line, gear_die, occupied)
    if isinstance(move, Refusal) or (not gear_die and _snow_tires_refuse(state, ci, move.target)):
        return None
    return move


def _snow_tires_refuse(state: GameState, ci: int, target: int) -> bool:
    """A20.4: with snow tires, at most one white die per turn moves the car onto asphalt."""
    car, turn = state.cars[ci], state.turn
    if car.tires != "snow" or turn is None or turn.car != ci or turn.whites_asphalt < 1:
        return False
    if target < 0:  # the finish line (and the start) count as asphalt
        return True
    space = state.stage.spaces[target]
    return space.surface(space.zone in state.stage.snow_zones) is Surface.ASPHALT
