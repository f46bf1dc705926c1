"""Which dice a driver may use next (RULES A6.2, A6.3, A9.4, A12.2, A20.4).

Kept apart from movement: these rules only look at the dice and the dashboard, never at the
road, so error messages can say "You are in 3rd: you may roll 2, 3, 4 or white".
"""

from __future__ import annotations

from typing import Any

from bot.engine.errors import NotAllowed
from bot.engine.state import Car, GameState, TurnState
from bot.engine.text import msg
from bot.engine.words import allowed_words, counted, die_word, gear_name


def white_cap(state: GameState, car: Car) -> int:
    """White dice usable this turn: 2 minus unrepaired flats (A9.4), never below 0."""
    return max(0, state.rules.dice.white_dice - car.flats)


def black_cap(state: GameState, car: Car) -> int:
    """Gear dice usable this turn: 5 minus lost black dice (A12.2)."""
    return max(0, state.rules.dice.black_dice - car.lost_black)


def dice_allowed(state: GameState, car: Car, turn: TurnState) -> list[str]:
    """Dice the chaining rules allow next, before looking at the road (A6.2, A6.3)."""
    out: list[str] = []
    g = turn.gear
    if turn.black_used < black_cap(state, car):
        if g == 0:
            candidates = [1]
        elif not turn.started:
            candidates = [g - 1, g, g + 1]  # first die of the turn: same gear allowed (A6.2)
        else:
            # chaining: exactly one away, also after white dice only (A6.3.2: the same-gear
            # option exists only for the first die of the turn)
            candidates = [g - 1, g + 1]
        out += [str(d) for d in candidates if 1 <= d <= 5 and str(d) not in turn.used]
    if g >= 1 and turn.whites < white_cap(state, car):
        out.append("W")
    return out


def describe_allowed(allowed: list[str]) -> str:
    """What may be rolled, in words: `2, 3 or white` (a message: see `bot.engine.words`)."""
    return allowed_words(allowed)


def die_refusal(state: GameState, car: Car, turn: TurnState, die: str) -> str | None:
    """Why the dice rules forbid `die` now (already_used, white_in_neutral, no_white_left,
    no_black_left, neutral_first_die, not_adjacent), or None when it is allowed."""
    if die in dice_allowed(state, car, turn):
        return None
    if die != "W" and die in turn.used:
        return "already_used"
    if die == "W":
        return "white_in_neutral" if turn.gear == 0 else "no_white_left"
    if turn.black_used >= black_cap(state, car):
        return "no_black_left"
    return "neutral_first_die" if turn.gear == 0 else "not_adjacent"


def refusal_params(state: GameState, car: Car, turn: TurnState, die: str) -> dict[str, Any]:
    """Everything the refusal texts of `die_refusal` may name."""
    return {"die": die_word(die), "gear": gear_name(turn.gear), "cap_white": white_cap(state, car),
            "flats": car.flats, "cap_black": black_cap(state, car), "lost": car.lost_black,
            "white_dice": counted("word.white_dice", white_cap(state, car)),
            "gear_dice": counted("word.gear_dice", black_cap(state, car))}


def check_die(state: GameState, car: Car, turn: TurnState, die: str) -> None:
    """Refuse a die the dice rules forbid now, saying why and what is allowed."""
    kind = die_refusal(state, car, turn, die)
    if kind is None:
        return
    allowed = dice_allowed(state, car, turn)
    params = refusal_params(state, car, turn, die)
    raise NotAllowed(msg(f"dice.{kind}", allowed=describe_allowed(allowed), **params), tuple(allowed))
