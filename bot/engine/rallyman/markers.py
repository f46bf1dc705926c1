"""Spending second markers (RULES A19, module `seconds`): place a die instead of rolling it.

`place 4` (or `place W`, `place 4 skid`) in a normal die-by-die turn: the die moves the car one
space and shows no face, so it adds no ⚠ (A19.1) and a bump taken at N+1 lands safely (A10.4);
corner over-speed and a bump at N+2 still lose control (A19.3). The n-th die placed in one turn
costs n markers (1, 2, 3 …). Markers are those won by time attacks in this special (A18.4/A18.5;
`Car.seconds`, never carried to the next special); spent markers no longer reduce the time.

When (A19.2, AMB-7 default): only when one more ⚠ on the destination space would be a loss of
control — the turn's ⚠ one below the limit, or on snow with asphalt tires one below the snow
limit, or a bump taken at N+1 (where one ⚠ is a loss of control, A10.1). Ruleset option
`spend_seconds_anytime` allows it at any time. Never during a time attack (a time attack is a
whole turn: its dice are all rolled at once, A18.5).
"""

from __future__ import annotations

from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import Action, Place
from bot.engine.rallyman.dice_rules import check_die
from bot.engine.rallyman.moves.by_die import die_moves
from bot.engine.rallyman.moves.move import Move, resolve
from bot.engine.rallyman.stages.model import Surface
from bot.engine.rallyman.state import Car, GameState, TurnState
from bot.engine.rallyman.turn import roll_one
from bot.engine.rallyman.words import die_word


def cost(turn: TurnState) -> int:
    """Markers the next placed die costs this turn (A19.1)."""
    return turn.placed + 1


def critical(state: GameState, car: Car, turn: TurnState, move: Move) -> bool:
    """Whether one more ⚠ on the move's destination would be a loss of control (AMB-7)."""
    rules = state.rules
    if rules.modules.shakedown or turn.sisu_active:
        return False
    if move.bump_risk or turn.hazards + 1 >= rules.hazard_limit:
        return True
    if car.tires != "asphalt" or move.target < 0:
        return False
    space = state.stage.spaces[move.target]
    on_snow = space.surface(space.zone in state.stage.snow_zones) is Surface.SNOW
    # the ⚠ the turn would count against the snow limit after one more (A20.3, AMB-8, its option
    # `snow_threshold_scope: turn` too: a die onto asphalt after a ⚠ on snow counts): as the turn does
    return rules.snow_count(turn.hazards + 1, turn.snow_hazards + on_snow) >= rules.snow_hazard_limit


def refusal(state: GameState, car: Car, turn: TurnState, move: Move) -> str | None:
    """Why the die of `move` may not be placed now (message key), or None."""
    if not state.rules.modules.seconds:
        return "seconds.off"
    if turn.attack is not None:
        return "seconds.in_attack"
    if not state.rules.spend_seconds_anytime and not critical(state, car, turn, move):
        return "seconds.too_early"
    if car.seconds < cost(turn):
        return "seconds.not_enough"
    return None


def place(state: GameState, action: Place, events: list[Event]) -> None:
    """Place one die with markers on the clone `state` (A19.1)."""
    turn = state.current_turn()
    car = state.own(turn.car)
    if not state.rules.modules.seconds:
        raise NotAllowed(msg("seconds.off"))
    check_die(state, car, turn, action.die)
    gear_die = action.die != "W"
    move = resolve(state, turn.car, int(action.die) if gear_die else turn.gear, action.line, gear_die)
    if action.line and move.line != action.line:
        raise NotAllowed(msg("seconds.line_not_taken", die=_word(action.die), line=action.line))
    key = refusal(state, car, turn, move)
    if key:
        raise NotAllowed(msg(key, cost=cost(turn), markers=car.seconds, hazards=turn.hazards))
    spent = cost(turn)
    car.seconds -= spent
    turn.placed += 1
    first = len(events)
    roll_one(state, action.die, action.line, events, face=False)
    die_event = events[first]
    assert die_event.kind == "die", "roll_one reports the die first"
    events[first] = Event("placed", car.id, {**die_event.params, "cost": spent, "markers": car.seconds,
                                             "word": "marker" if spent == 1 else "markers"})


def place_actions(state: GameState) -> list[Action]:
    """Every die that may be placed with markers now (A19), with each line that changes where it goes."""
    turn = state.current_turn()
    car = state.cars[turn.car]
    if not state.rules.modules.seconds or car.seconds < cost(turn) or turn.attack is not None:
        return []
    out: list[Action] = []
    seen: set[tuple[str, int]] = set()
    for die, line, move in die_moves(state, car, turn):
        if (die, move.target) in seen or (line is not None and move.line != line):
            continue
        seen.add((die, move.target))
        if refusal(state, car, turn, move) is None:
            out.append(Place(die, line, driver=car.id))
    return out


def _word(die: str) -> str:
    return die_word(die)
