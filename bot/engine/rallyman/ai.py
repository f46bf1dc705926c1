"""The built-in AI driver: demos, benchmarks, empty seats and timed-out turns.

It drives like a careful club driver: it never picks a die that certainly loses control, keeps
its gear low enough to brake for the corners ahead (one gear per space, RULES A6.3), shifts up
when that is safe, uses white dice when it is already as fast as the road allows, and rolls a die
that may lose control (its exact chance from `odds`) only when the chance is within its risk
tolerance or the seconds it may win outweigh those it may lose (`worth_the_risk`): so at two ⚠ it
rolls on where a loss of control costs little and the next die is worth a lot (shifting up from
1st or 2nd), and stops where a loss of control would throw away a fast gear.

The die is chosen once per situation: the AI remembers its choice (`ai_memo.situation` is the key:
everything the choice reads), so a situation met again, in this special or another, is a lookup;
the moves it weighs are looked up in the stage's compiled tables (`moves.try_resolve`).

Tires (A20.2, weather module): the AI's choice is made when a special where tires may change is
set up (`weather.default_tires` on the weather rolled: snow tires when most of the special is
snow), for every driver; it never types `tires`, so it never undoes a driver's own choice when
it drives a timed-out turn for them.
"""

from __future__ import annotations

from bot.engine.rallyman.actions import Action, Attack, Place, Roll, Spare, Stop
from bot.engine.rallyman.ai_memo import situation
from bot.engine.rallyman.attack import attack_odds, best_order, group_options
from bot.engine.rallyman.braking import brake_limit
from bot.engine.rallyman.dice_rules import dice_allowed
from bot.engine.rallyman.markers import cost, place_actions
from bot.engine.rallyman.moves.move import KO, LOC, OK, occupants, resolve, try_resolve
from bot.engine.rallyman.odds import die_risk
from bot.engine.rallyman.ruleset import Ruleset
from bot.engine.rallyman.stages.model import FINISH, START, Stage
from bot.engine.rallyman.state import Car, GameState, TurnState

_BADNESS = {OK: 0, LOC: 1, KO: 2}


DEFAULT_RISK = 0.12


def choose_action(state: GameState, risk: float = DEFAULT_RISK) -> Action:
    """The AI's next action for the driver whose turn it is; `risk` is its tolerance (0: never
    risks a loss of control; the default weighs seconds at par; higher is bolder)."""
    turn = state.turn  # `state.current_turn()`, inlined: asked before every action of a simulation
    if turn is None:
        raise AssertionError("no turn is being played")
    car = state.cars[turn.car]
    if car.flats and car.spare and turn.attack is None and not turn.used and turn.gear <= 1:
        return Spare(driver=car.id)
    if turn.attack is not None or (state.rules.modules.attack and not turn.used):
        plus = _rules_plus(state, risk)  # A18 modules: an order due, else maybe a time attack
        if plus is not None:
            return plus
    best, fallback = _dice_choice(state, turn, car, risk)
    if best is not None:
        return best
    placed = _place_instead(state) if state.rules.modules.seconds else None
    if placed is not None:  # A19: markers spent where rolling is too risky
        return placed
    if turn.started:
        return Stop(driver=car.id)
    if fallback is not None:
        return fallback
    raise AssertionError("a turn starts only when some die can move the car (A13.5)")


_MEMO: dict[tuple, tuple[Roll | None, Roll | None]] = {}
_MEMO_SIZE = 100_000


def _dice_choice(state: GameState, turn: TurnState, car: Car, risk: float) -> tuple[Roll | None, Roll | None]:
    """(best, fallback): the fastest one-die roll that is safe (no certain loss of control,
    chance of one within `risk`, the car can still brake for what lies ahead), and the least bad
    roll of all, for `car` whose `turn` it is; remembered per situation (`ai_memo.situation`:
    everything this reads)."""
    if car.line is not None:  # a line chosen ahead (A8): the AI may keep it or take another
        lines = _ALL_LINES
    else:
        last, forks = _LAST_FORKS  # `_forks(state.stage)`, without its call for the stage met last
        if last is not state.stage:
            forks = _forks(state.stage)
        lines = _FORK_LINES if car.position in forks else _ROAD_LINES
    key = situation(state, turn, car, risk, lines)
    found = _MEMO.get(key)
    if found is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[key] = _work_out_dice_choice(state, risk, lines, occupants(state, turn.car))
    return found


_FORK_LINES: tuple[str | None, ...] = (None, "skid", "shortcut")
_LAST_FORKS: tuple[object, frozenset[int]] = (None, frozenset())


def _forks(stage: Stage) -> frozenset[int]:
    """The positions from which a die may take more than one road (a corner ahead: A8), for the
    stage met last (a game asks again and again; one tuple, read and replaced whole)."""
    global _LAST_FORKS
    last, forks = _LAST_FORKS
    if last is not stage:
        forks = frozenset(p for p in (START, *(s.id for s in stage.spaces)) if len(stage.successors(p)) > 1)
        _LAST_FORKS = (stage, forks)
    return forks


_ALL_LINES: tuple[str | None, ...] = (None, "interior", "skid", "shortcut")
_ROAD_LINES: tuple[str | None, ...] = (None,)


def _work_out_dice_choice(state: GameState, risk: float, lines: tuple[str | None, ...],
                          occupied: list[int]) -> tuple[Roll | None, Roll | None]:
    """`_dice_choice` worked out: each allowed die on each of `lines` (one move per line that
    changes where it goes), weighed by its exact risk (`odds.die_risk`) and braking ahead;
    `occupied` is `moves.occupants(state, turn.car)`."""
    turn = state.current_turn()
    ci = turn.car
    car = state.cars[ci]
    best: tuple | None = None
    fallback: tuple | None = None
    for die in dice_allowed(state, car, turn):
        gear_die = die != "W"
        g = int(die) if gear_die else turn.gear
        for line in lines:
            move = try_resolve(state, ci, g, line, gear_die, occupied)
            if move is None:
                continue
            roll = (die, line if move.line == line else None)
            danger = die_risk(state, die, move)
            badness = (_BADNESS[move.outcome], danger, g)
            if fallback is None or badness < fallback[0]:
                fallback = (badness, roll)
            if move.outcome != OK or not _can_brake(state, move.target, g):
                continue
            if danger > risk and not worth_the_risk(state.rules, turn.gear, g, danger, risk):
                continue
            rank = (g, gear_die, -danger)
            if best is None or rank > best[0]:
                best = (rank, roll)
    return (_roll(best[1], car.id) if best is not None else None,
            _roll(fallback[1], car.id) if fallback is not None else None)


#: What one more space is worth: the time a car takes per space of the road on average (the AI's
#: own stage times on the shipped stages are 5.5 to 7.7 s per space of progress).
SPACE_S = 6.0
#: A turn that restarts from gear 0 (A11.6: the 1st-gear die first, then one gear per die, A6.3)
#: ends, as a rule, in this gear, where a car that kept its gear would have ended a gear higher.
RESTART_GEAR = 3
#: What an excursion off the road costs on average: terrain damage may take black dice (A12),
#: so fewer gear dice in every later turn, until an assistance.
OFF_ROAD_S = 15.0


def worth_the_risk(rules: Ruleset, gear: int, g: int, danger: float, risk: float) -> bool:
    """Whether a die that ends the move in gear `g` from `gear` (the card stopping now would take,
    A6.4) is worth its exact chance `danger` of losing control: the seconds won if it does not
    (a faster card, one space further) against those lost if it does (A11.2: the loss-of-control
    card instead of the card stopping now, the restart from gear 0 next turn, and off-road damage
    as often as the loss-of-control events go off the road), the loss weighed by
    `DEFAULT_RISK / risk` (a bolder driver fears it less). Never at gear 0 (no card to keep:
    the first die of a restart is compulsory) nor with no tolerance at all."""
    if gear < 1 or risk <= 0.0 or danger >= 1.0:
        return False
    stop = rules.card_seconds(gear)
    won = stop - rules.card_seconds(g) + SPACE_S
    events = rules.loc_events
    off_road = (events.get("off_left", 0) + events.get("off_right", 0)) / (sum(events.values()) or 1)
    restart = max(0, rules.card_seconds(RESTART_GEAR) - rules.card_seconds(min(g + 1, 5)))
    lost = rules.loc_card_seconds[str(g)] - stop + restart + off_road * OFF_ROAD_S - SPACE_S
    return (1.0 - danger) * won > danger * lost * (DEFAULT_RISK / risk)


def _roll(choice: tuple[str, str | None], driver: str) -> Roll:
    die, line = choice
    return Roll((die,), line, driver=driver)


MAX_PLACE_COST = 3  # markers: a space is worth a few seconds, not more


def _rules_plus(state: GameState, risk: float) -> Action | None:
    """A18: the best order of a time attack rolled; at the start of a turn, a time attack whose
    exact odds of losing control (best order afterwards) are within `risk`, choosing among the
    groups that can end, with no ⚠, on a space from which the car can brake for what lies ahead
    the one that goes furthest, then the one with more dice (more second markers)."""
    turn = state.current_turn()
    if turn.attack is None and (not state.rules.modules.attack or turn.started):
        return None

    if turn.attack is not None:
        return best_order(state)
    candidates = []
    for group, paths in group_options(state).items():
        reach = None
        for path in paths:
            if any(m.outcome != OK for m in path.moves):
                continue
            gears = [int(d) for d in path.dice if d != "W"]
            end = path.moves[-1].target
            if end != FINISH and not _can_brake(state, end, gears[-1] if gears else turn.gear):
                continue
            progress = float("inf") if end == FINISH else state.stage.spaces[end].progress
            reach = progress if reach is None else max(reach, progress)
        if reach is not None:
            candidates.append((reach, len(group), group))
    for _, _, group in sorted(candidates, reverse=True)[:3]:
        attack = Attack(group, driver=state.cars[turn.car].id)
        if attack_odds(state, attack).loss_of_control <= risk:
            return attack
    return None


def _place_instead(state: GameState) -> Action | None:
    """A19: the fastest die that may be placed with markers (cost up to MAX_PLACE_COST) and
    leaves the car able to brake; None if none."""

    turn = state.current_turn()
    if cost(turn) > MAX_PLACE_COST:
        return None
    best: tuple | None = None
    for action in place_actions(state):
        assert isinstance(action, Place)
        g = int(action.die) if action.die != "W" else turn.gear
        move = resolve(state, turn.car, g, action.line, action.die != "W")
        if move.outcome != OK or not _can_brake(state, move.target, g):
            continue
        rank = (g, action.die != "W")
        if best is None or rank > best[0]:
            best = (rank, action)
    return best[1] if best else None


def _can_brake(state: GameState, position: int, gear: int) -> bool:
    """Whether, from `position` in `gear`, every corner within reach can be entered legally by
    shifting down one gear per space (interior or shortcut max, skid exact)."""
    return gear <= brake_limit(state, position)


