"""Which dice a driver may use next (RULES A6.2, A6.3, A9.4, A12.2, A20.4).

Kept apart from movement: these rules only look at the dice and the dashboard, never at the
road, so error messages can say "You are in 3rd: you may roll 2, 3, 4 or white".
"""

from __future__ import annotations

from bot.engine.errors import NotAllowed
from bot.engine.state import Car, GameState, TurnState
from bot.i18n import t


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
    words = ["white" if d == "W" else d for d in allowed]
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def gear_name(g: int) -> str:
    return {0: "neutral", 1: "1st", 2: "2nd", 3: "3rd"}.get(g, f"{g}th")


def check_die(state: GameState, car: Car, turn: TurnState, die: str) -> None:
    """Refuse a die the dice rules forbid now, saying why and what is allowed."""
    allowed = dice_allowed(state, car, turn)
    if die in allowed:
        return
    word = "white" if die == "W" else die
    if die != "W" and die in turn.used:
        raise NotAllowed(t("dice.already_used", die=word, allowed=describe_allowed(allowed)), tuple(allowed))
    if die == "W":
        if turn.gear == 0:
            raise NotAllowed(t("dice.white_in_neutral"), tuple(allowed))
        raise NotAllowed(t("dice.no_white_left", cap=white_cap(state, car), flats=car.flats), tuple(allowed))
    if turn.black_used >= black_cap(state, car):
        raise NotAllowed(t("dice.no_black_left", cap=black_cap(state, car), lost=car.lost_black), tuple(allowed))
    if turn.gear == 0:
        raise NotAllowed(t("dice.neutral_first_die", allowed=describe_allowed(allowed)), tuple(allowed))
    raise NotAllowed(t("dice.not_adjacent", die=word, gear=gear_name(turn.gear), allowed=describe_allowed(allowed)),
                     tuple(allowed))
