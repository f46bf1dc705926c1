"""Every one-die move open to the car whose turn it is: each allowed die, on each line it may take.

The one enumeration behind the legal actions (a die rolled, RULES A6), the dice a driver may
place with second markers (A19) and the no-move check (A13.5); each caller keeps the moves it
needs (for example one per distinct target space).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.engine.actions import LINES
from bot.engine.dice_rules import dice_allowed
from bot.engine.errors import NotAllowed
from bot.engine.moves import Move, resolve
from bot.engine.state import Car, GameState, TurnState


def die_moves(state: GameState, car: Car, turn: TurnState) -> Iterator[tuple[str, str | None, Move]]:
    """(die, line asked for, move) for each die allowed now and each line the rules accept."""
    for die in dice_allowed(state, car, turn):
        gear = int(die) if die != "W" else turn.gear
        for line in (None, *LINES):
            try:
                move = resolve(state, turn.car, gear, line, die != "W")
            except NotAllowed:
                continue
            yield die, line, move
