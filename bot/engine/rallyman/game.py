"""The engine's public face: start a special, list legal actions, apply one, replay a log.

`apply(state, action)` returns a new state and the events to tell spectators; it never changes
the state it is given, and a refusal raises a `RallyError` whose text is ready for the user.
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine.core.dice import CleanDice, DiceSource
from bot.engine.core.errors import Ambiguous, NotAllowed, RallyError
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import (
    Action,
    Attack,
    ChooseLine,
    Order,
    Place,
    Retire,
    Roll,
    Spare,
    Stop,
    Timeout,
    Tires,
)
from bot.engine.rallyman.attack import apply_attack, attack_actions, order_actions
from bot.engine.rallyman.course import Course
from bot.engine.rallyman.dice_rules import (
    any_die_allowed,
    describe_allowed,
    dice_allowed,
    die_refusal,
    gear_name,
    refusal_params,
)
from bot.engine.rallyman.markers import place, place_actions
from bot.engine.rallyman.moves.by_die import die_moves
from bot.engine.rallyman.moves.move import Move
from bot.engine.rallyman.order import next_turn, stand_still
from bot.engine.rallyman.ruleset import Ruleset
from bot.engine.rallyman.specials import Seat, advance_course, setup_special
from bot.engine.rallyman.stages.model import FINISH, START, Stage
from bot.engine.rallyman.state import FINISHED, OUT, GameConfig, GameState, TurnState
from bot.engine.rallyman.turn import end_turn, fit_spare, roll_one, stop
from bot.engine.rallyman.weather import choose_tires, tire_actions, weather_events
from bot.engine.rallyman.words import dice_words, die_noun, die_word, ordinal


def new_game(stage: Stage | str, seats: list[Seat], seed: int = 0, ruleset: str | Ruleset = "classic",
             modules: dict[str, bool] | None = None, dice: DiceSource | None = None,
             course: Course | None = None, events: list[Event] | None = None) -> GameState:
    """A special ready for its first turn: cars behind the start line in gear 0 (A4.1). With a
    `course` (a rally of several specials), `stage` is its first special. `events`, if given,
    receives what happened before the first die: the weather roll (A20.1), the first turn."""
    state = setup_special(stage, seats, seed, ruleset, modules, dice)
    state.course = course
    if events is None:
        events = []
    events.extend(weather_events(state))
    next_turn(state, events)
    return state


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Play `action` for the driver whose turn it is; returns (new state, events). When the action
    ends a special of a longer rally, the next special starts in the state returned (A2, A3)."""
    new, events = _apply_one(state, action)
    if new.course is not None and new.turn is None and not new.entry and \
            all(c.status in (FINISHED, OUT) for c in new.cars):
        new = advance_course(new, events)
    return new, events


def _apply_one(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    if isinstance(action, Retire):
        return _retire(state, action)
    if isinstance(action, Tires):  # A20.2: a driver still behind the start line, turn or not
        return choose_tires(state, action)
    now = state.turn
    if now is not None and (action.driver is None or action.driver == state.cars[now.car].id):
        ci = now.car  # the driver whose turn it is: `actor_index`'s common case, without its call
    else:
        ci = actor_index(state, action)
    new = state.fork(ci)
    turn = new.turn
    assert turn is not None, "actor_index refuses when no turn is on"
    events: list[Event] = []
    if isinstance(action, Roll) and turn.attack is None:  # the commonest action first
        if len(action.dice) > 1:
            drive_clean(state, action)  # refuse it whole if its dice cannot all be played (like A18.2)
        _roll_all(new, ci, action, events)
    elif isinstance(action, (Attack, Order, Place)) or turn.attack is not None:
        _rules_plus(new, action, events)  # A18 time attack, A19 second markers (modules)
    elif isinstance(action, Stop):
        stop(new, events)
    elif isinstance(action, Spare):
        fit_spare(new, events)
    elif isinstance(action, ChooseLine):
        _choose_line(new, ci, action.line, events)
    elif isinstance(action, Timeout):
        _timeout(new, events)
    else:  # pragma: no cover - the Action union is closed
        raise TypeError(f"unknown action {action!r}")
    new.moves += 1
    return new, events


def _rules_plus(state: GameState, action: Action, events: list[Event]) -> None:

    if isinstance(action, Place) and state.current_turn().attack is None:
        place(state, action, events)
    else:
        apply_attack(state, action, events)


def _retire(state: GameState, action: Retire) -> tuple[GameState, list[Event]]:
    """Retire a car (left the rally, removed by the host): out, unclassified; its turn ends."""
    car = state.car_by_id(action.target)
    if car is None:
        raise NotAllowed(msg("turn.not_a_driver"))
    if car.status in (FINISHED, OUT):
        raise NotAllowed(msg("retire.not_racing", name=car.name))
    new = state.clone()
    events: list[Event] = []
    target = new.car_by_id(action.target)
    assert target is not None, "the clone holds the same cars"
    target.status = OUT
    target.out_reason = "retired"
    target.pose = "normal"
    events.append(Event("retired", target.id, {"name": target.name}))
    if new.turn is not None and new.cars[new.turn.car] is target:
        end_turn(new, events)
    elif new.turn is None:
        next_turn(new, events)
    new.moves += 1
    return new, events


def actor_index(state: GameState, action: Action) -> int:
    if state.turn is None:
        raise NotAllowed(msg("turn.stage_over"))
    active = state.cars[state.turn.car]
    if action.driver is None or action.driver == active.id:
        return state.turn.car
    car = state.car_by_id(action.driver)
    if car is None:
        raise NotAllowed(msg("turn.not_a_driver"))
    if car.status == FINISHED:
        raise NotAllowed(msg("turn.already_finished", time=f"{car.time // 60}:{car.time % 60:02d}"))
    if car.status == OUT:  # retired (left, removed by the host) is not a knock-out of the rules (A12.5)
        raise NotAllowed(msg("turn.retired" if car.out_reason == "retired" else "turn.knocked_out"))
    raise NotAllowed(msg("turn.not_your_turn", name=active.name))


def _roll_all(state: GameState, ci: int, action: Roll, events: list[Event]) -> None:
    """Roll the dice in order; a loss of control or the finish cancels the rest (A11.2)."""
    turn = state.turn  # a new TurnState starts when this turn ends, even for the same driver
    assert turn is not None, "_apply_one checked that a turn is on"
    if len(action.dice) == 1 and action.line is None:  # one die, no line word: most rolls, the AI's all
        roll_one(state, action.dice[0], None, events)
    elif not _roll_each(state, ci, action, turn, events):
        return
    if state.turn is turn and (action.end or not any_die_allowed(state, state.cars[ci], turn)):
        stop(state, events)  # by choice, or no die left to use (A6.4)


def _roll_each(state: GameState, ci: int, action: Roll, turn: TurnState, events: list[Event]) -> bool:
    """The dice of `action` one by one; False when the rest is cancelled or stopped (events say so)."""
    start = state.cars[ci].position
    moves: list[Move] = []
    for i, die in enumerate(action.dice):
        if state.turn is not turn:
            events.append(Event("dice_cancelled", state.cars[ci].id, {"dice": dice_words(action.dice[i:])}))
            return False
        try:
            move = roll_one(state, die, action.line if i == action.line_at else None, events)
            moves.append(move)
            if action.line is not None:
                _check_line_taken(state, action, start, moves)
        except RallyError as exc:
            if i == 0:
                raise
            events.append(Event("dice_stopped", state.cars[ci].id, {"reason": exc.message}))  # read in any language
            return False
    return True


def _check_line_taken(state: GameState, action: Roll, start: int, moves: list[Move]) -> None:
    """The line word belongs to the die it follows (see `parse`): once that die has moved, refuse
    the roll if it did not take that line, naming the die that entered a corner instead. `start`
    is where the car stood before the roll."""
    i = len(moves) - 1
    if action.line is None or i != action.line_at or moves[i].line == action.line:
        return
    stage = state.stage

    def corner_of(position: int) -> int | None:
        return stage.spaces[position].corner if position >= 0 else None

    entered = [corner_of(m.target) is not None and corner_of(m.target) != corner_of(prev)
               for prev, m in zip([start] + [m.target for m in moves[:-1]], moves)]
    die, line, move = _die_word(action.dice[i]), action.line, moves[i]
    stays = move.line is not None and corner_of(move.target) is not None
    what = msg("parse.line_die_stays", taken=move.line, corner=(corner_of(move.target) or 0) + 1) if stays \
        else msg("parse.line_die_no_corner")
    earlier = next((j for j in range(i) if entered[j]), None)
    if earlier is not None:
        fix = str(replace(action, line_at=earlier, end=False)).removeprefix("roll ")
        raise Ambiguous(msg("parse.line_after_wrong_die", line=line, die=die, what=what,
                          earlier=_die_word(action.dice[earlier]),
                          corner=(corner_of(moves[earlier].target) or 0) + 1, fix=fix), (fix,))
    raise NotAllowed(msg("parse.line_stays" if stays else "parse.line_no_corner", line=line, die=die, what=what))


def _die_word(die: str) -> str:
    return die_noun(die)


def drive_clean(state: GameState, action: Roll) -> list[tuple[str, Move]]:
    """Drive a roll on a copy with dice that never show ⚠ and a hidden-card deck of good
    shortcuts (A9.1: no peeking); returns (die, move) for each die played before the turn ends.
    A die the rules refuse raises, so this also checks a plan before anything is rolled; a die
    after the first is refused naming its place in the roll and what is allowed now (A6.3)."""
    trial = state.clone()
    trial.dice = CleanDice()
    trial.deck = ["good"] * len(trial.deck)
    turn = trial.turn  # the roll ends with this turn, even if the same driver plays next
    played: list[tuple[str, Move]] = []
    moves: list[Move] = []
    start = trial.cars[turn.car].position if turn is not None else START
    for i, die in enumerate(action.dice):
        if trial.turn is not turn or turn is None:
            break
        try:
            move = roll_one(trial, die, action.line if i == action.line_at else None, [])
        except NotAllowed as exc:
            if i == 0:
                raise
            # a refused die changes nothing, so the trial still shows why from the dice rules
            car = trial.cars[turn.car]
            kind = die_refusal(trial, car, turn, die)
            reason = msg(f"dice.plan.{kind}", **refusal_params(trial, car, turn, die)) if kind else str(exc)
            raise _plan_refused(state, i, die, reason) from None
        played.append((die, move))
        moves.append(move)
        _check_line_taken(trial, action, start, moves)
    if action.end and trial.turn is turn:
        stop(trial, [])
    return played


def _plan_refused(state: GameState, i: int, die: str, reason: str) -> NotAllowed:
    """The die at place `i` of a roll cannot be played: say which, why, and what is allowed now."""
    turn = state.current_turn()
    now = [a.dice[0] for a in legal_actions(state) if isinstance(a, Roll)]
    allowed = list(dict.fromkeys(now)) or dice_allowed(state, state.cars[turn.car], turn)
    words = msg("roll.or_stop", allowed=describe_allowed(allowed)) if turn.started else describe_allowed(allowed)
    return NotAllowed(msg("roll.plan_refused", nth=ordinal(i + 1), die=die_word(die), reason=reason,
                        gear=gear_name(turn.gear), allowed=words), tuple(allowed))


def _timeout(state: GameState, events: list[Event]) -> None:
    """End the turn at its deadline: a stop if dice were used, else the no-move card (A13.5)."""
    turn = state.current_turn()
    if turn.started:
        stop(state, events)
        return
    car = state.own(turn.car)
    events.append(Event("timeout", car.id, {"name": car.name}))
    stand_still(state, car, events)
    next_turn(state, events)


def _choose_line(state: GameState, ci: int, line: str, events: list[Event]) -> None:
    corner = next_corner(state, ci)
    if corner is None:
        raise NotAllowed(msg("line.no_corner"))
    have = [name for name, ids in (("interior", corner.interior), ("skid", corner.skid),
                                   ("shortcut", corner.shortcut)) if ids]
    if line not in have:
        raise NotAllowed(msg("corner.no_such_line", line=line, lines=", ".join(have)))
    state.own(ci).line = line
    events.append(Event("line", state.cars[ci].id, {"line": line, "corner": corner.id + 1}))


def next_corner(state: GameState, ci: int):
    """The next corner ahead of the car (not the one it is in), following the interior line."""
    stage = state.stage
    pos = state.cars[ci].position
    here = stage.spaces[pos].corner if pos >= 0 else None
    for _ in range(len(stage.spaces) + 1):
        succ = stage.successors(pos)
        if not succ or succ[0] == FINISH:
            return None
        pos = succ[0]
        corner = stage.spaces[pos].corner
        if corner is not None and corner != here:
            return stage.corners[corner]
        if corner is None:
            here = None
    return None


def legal_actions(state: GameState, driver: str | None = None) -> list[Action]:
    """Every action the driver may take now: each usable die (with each trajectory that changes
    where it goes), stop, spare tire, trajectory choices, a change of tires (A20.2; also for a
    `driver` still waiting to start). Feeds autocomplete, buttons, errors."""
    if state.turn is None:
        return []
    car = state.cars[state.turn.car]
    if driver is not None and driver != car.id:
        other = state.car_by_id(driver)  # a driver waiting to start may still choose tires (A20.2)
        return list(tire_actions(state, other)) if other is not None else []
    out: list[Action] = []
    plus: list[Action] = []
    turn = state.turn
    if turn.attack is not None or state.rules.modules.attack or state.rules.modules.seconds:

        if turn.attack is not None:  # A18.3: only the order of the rolled dice now
            return order_actions(state)
        plus = place_actions(state) + attack_actions(state)
    seen: set[tuple[str, int]] = set()
    for die, line, move in die_moves(state, car, turn):
        if (die, move.target) in seen:
            continue
        seen.add((die, move.target))
        out.append(Roll((die,), line if line and move.line == line else None, driver=car.id))
    if turn.started:
        out.append(Stop(driver=car.id))
    elif car.spare and car.flats and turn.gear <= 1:
        out.append(Spare(driver=car.id))
    out.extend(tire_actions(state, car))
    return out + plus


def replay(config: GameConfig, seats: list[Seat], actions: list[Action]) -> GameState:
    """Rebuild a special from its configuration and action log (the log is the truth)."""
    state = new_game(config.stage, seats, seed=config.seed, ruleset=config.ruleset, modules=config.modules)
    for action in actions:
        state, _ = apply(state, action)
    return state

