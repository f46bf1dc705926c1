"""Every one-die move open to the car whose turn it is: each allowed die, on each line it may take.

The one enumeration behind the legal actions (a die rolled, RULES A6), the dice a driver may
place with second markers (A19) and the no-move check (A13.5); each caller keeps the moves it
needs (for example one per distinct target space).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.engine.rallyman.actions import LINES
from bot.engine.rallyman.dice_rules import dice_allowed
from bot.engine.rallyman.moves.move import Move, try_resolve
from bot.engine.rallyman.state import Car, GameState, TurnState


def die_moves(state: GameState, car: Car, turn: TurnState) -> Iterator[tuple[str, str | None, Move]]:
    """(die, line asked for, move) for each die allowed now and each line the rules accept."""
    ci = turn.car
    for die in dice_allowed(state, car, turn):
        gear_die = die != "W"
        gear = int(die) if gear_die else turn.gear
        for line in _LINES:
            move = try_resolve(state, ci, gear, line, gear_die)  # refused: no message to make
            if move is not None:
                yield die, line, move


def any_die_move(state: GameState, car: Car, turn: TurnState) -> bool:
    """Whether `die_moves` has any move (the no-move check at the start of every turn, A13.5)."""
    ci = turn.car
    for die in dice_allowed(state, car, turn):
        gear_die = die != "W"
        gear = int(die) if gear_die else turn.gear
        for line in _LINES:
            if try_resolve(state, ci, gear, line, gear_die) is not None:
                return True
    return False


_LINES = (None, *LINES)
