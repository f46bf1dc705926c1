"""Which dice a driver may use next (RULES A6.2, A6.3, A9.4, A12.2, A20.4).

Kept apart from movement: these rules only look at the dice and the dashboard, never at the
road, so error messages can say "You are in 3rd: you may roll 2, 3, 4 or white".
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import counted, msg
from bot.engine.rallyman.state import Car, GameState, TurnState
from bot.engine.rallyman.words import allowed_words, die_word, gear_name


def white_cap(state: GameState, car: Car) -> int:
    """White dice usable this turn: 2 minus unrepaired flats (A9.4), never below 0."""
    return max(0, state.rules.dice.white_dice - car.flats)


def black_cap(state: GameState, car: Car) -> int:
    """Gear dice usable this turn: 5 minus lost black dice (A12.2)."""
    return max(0, state.rules.dice.black_dice - car.lost_black)


def dice_allowed(state: GameState, car: Car, turn: TurnState) -> list[str]:
    """Dice the chaining rules allow next, before looking at the road (A6.2, A6.3)."""
    g = turn.gear
    used = turn.used
    dice = state.rules.dice
    out: list[str] = []
    if len(used) - turn.whites < max(0, dice.black_dice - car.lost_black):  # black_used < black_cap
        out += [d for d in _candidates(g, bool(used)) if d not in used]
    if g >= 1 and turn.whites < max(0, dice.white_dice - car.flats):  # white_cap
        out.append("W")
    return out


def die_allowed(state: GameState, car: Car, turn: TurnState, die: str) -> bool:
    """`die in dice_allowed(state, car, turn)`, without making the list (every die played asks)."""
    g = turn.gear
    dice = state.rules.dice
    if die == "W":
        return g >= 1 and turn.whites < max(0, dice.white_dice - car.flats)
    used = turn.used
    return len(used) - turn.whites < max(0, dice.black_dice - car.lost_black) and \
        die in _candidates(g, bool(used)) and die not in used


def any_die_allowed(state: GameState, car: Car, turn: TurnState) -> bool:
    """`bool(dice_allowed(state, car, turn))`, without making the list (asked after every die)."""
    g = turn.gear
    dice = state.rules.dice
    if g >= 1 and turn.whites < max(0, dice.white_dice - car.flats):
        return True
    used = turn.used
    if len(used) - turn.whites < max(0, dice.black_dice - car.lost_black):
        for d in _candidates(g, bool(used)):
            if d not in used:
                return True
    return False


def _near(g: int, started: bool) -> tuple[str, ...]:
    """Gear dice next to gear `g`, before the dice already used are taken out."""
    if g == 0:
        near = [1]
    elif not started:
        near = [g - 1, g, g + 1]  # first die of the turn: same gear allowed (A6.2)
    else:
        # chaining: exactly one away, also after white dice only (A6.3.2: the same-gear option
        # exists only for the first die of the turn)
        near = [g - 1, g + 1]
    return tuple(str(d) for d in near if 1 <= d <= 5)


#: `_near` for gears 0 to 5, not started then started: made once, read for every die played
_CANDIDATES = tuple(tuple(_near(g, started) for g in range(6)) for started in (False, True))


def _candidates(g: int, started: bool) -> tuple[str, ...]:
    """`_near(g, started)`, looked up."""
    return _CANDIDATES[started][g]


def describe_allowed(allowed: list[str]) -> str:
    """What may be rolled, in words: `2, 3 or white` (a message: see `bot.engine.rallyman.words`)."""
    return allowed_words(allowed)


#: Why the dice rules forbid a die: each a refusal of the catalogue (`dice.<why>`, `dice.plan.<why>`).
DieRefusal = Literal["already_used", "white_in_neutral", "no_white_left", "no_black_left", "neutral_first_die",
                     "not_adjacent"]
DIE_REFUSALS: tuple[DieRefusal, ...] = get_args(DieRefusal)


def die_refusal(state: GameState, car: Car, turn: TurnState, die: str) -> DieRefusal | None:
    """Why the dice rules forbid `die` now (already_used, white_in_neutral, no_white_left,
    no_black_left, neutral_first_die, not_adjacent), or None when it is allowed."""
    if die_allowed(state, car, turn, die):
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
