"""Time attack (RULES A18, module `attack`): roll a group of dice at once, then drive them in order.

Play-by-post reading (A18.1–A18.3): `attack 3 4 W` checks the group (A18.2) and rolls it; the
faces are shown, each die wins one second marker (A18.4), and the turn waits for the order:
`order 4 3 W` (exactly the rolled dice, in a legal order; a white die showing ⚠ is written `W!`,
a plain `W` takes a white without ⚠ first) or `order best`. While it waits, only an order is
legal for that driver (`legal_actions` lists every legal order); a timeout drives `order best`.

A18.2 "usable completely" and "no more dice than needed to cross the finish" are read together:
the group is accepted when at least one order drives every die of it on a trial with no ⚠ (the
clean trial drive: dice never show ⚠, hidden shortcut cards are good), without a refused die and
without the turn ending before its last die (finish crossed, certain loss of control).

Resolution (A18.3) goes die by die along the order with the rolled faces: the die that reaches
the ⚠ limit (or a bump at N+1 showing ⚠, A18.7) is used and the car loses control there; the
dice after it are not used. A white die that a flat tire takes away before it is reached is not
used and its ⚠ does not count (A18.6: the white dice reached once the reduced cap is full are
the ones skipped, i.e. the last whites of the order). SISU (A22) in a time attack makes the
whole roll clean (rest of the roll, whatever `sisu_scope` says); markers are still won.

`order best` ranks the legal orders by driving each one on a copy with the rolled faces (hidden
shortcut cards taken as good, every loss-of-control event weighed by the ruleset's weights):
1. no loss of control before any loss of control;
2. lower chance of being knocked out;
3. crossing the finish line first;
4. fewer black dice expected to be lost (terrain beside the crash, A12; A15.3 at the finish);
5. ending where the car, in its new gear, can still slow down for the corners and bumps ahead
   (one gear per space, as the AI drives);
6. further along the road;
7. the faster gear card (fewer seconds);
8. the first order listed (dice as rolled), so the choice is deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

from bot.engine.core.dice import CleanDice, Name
from bot.engine.core.errors import NotAllowed, RallyError
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import LINES, Action, Attack, Order, Timeout
from bot.engine.rallyman.braking import brake_limit
from bot.engine.rallyman.dice_rules import black_cap, dice_allowed, gear_name, white_cap
from bot.engine.rallyman.moves.move import KO, LOC, Move, resolve
from bot.engine.rallyman.odds_model import Odds, Step
from bot.engine.rallyman.stages.model import FINISH, Surface
from bot.engine.rallyman.state import FINISHED, OUT, GameState
from bot.engine.rallyman.turn import roll_one, stop
from bot.engine.rallyman.words import dice_words

MIN_GROUP = 2  # A18.1 / AMB-14
HAZARD_WHITE = "W!"  # a white die of the group that shows ⚠ (in an order)
_FULL_POOL = {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1, "W": 2}


# -- trial drives ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Path:
    """One way to drive dice in order on a clean trial: the dice used (bases '1'..'5', 'W'), the
    line word and the die it belongs to, each die's move, and whether the turn ended on the last
    die (finish, certain loss of control, knock-out)."""

    dice: tuple[str, ...]
    line: str | None
    line_at: int
    moves: tuple[Move, ...]
    ended: bool


def clean_copy(state: GameState) -> GameState:
    """A copy for trial drives: dice never show ⚠, hidden shortcut cards are good (A9.1)."""
    trial = state.clone()
    trial.dice = CleanDice()
    trial.deck = ["good"] * len(trial.deck)
    return trial


def explore(state: GameState, pool: dict[str, int], visit: Callable[[Path], bool]) -> None:
    """Every way to drive dice from `pool` one after another from now (chaining, notes, occupancy,
    caps), on clean trials, with at most one line word; `visit` sees each path as it grows and
    returns True to stop the search."""
    turn = state.current_turn()
    _walk(clean_copy(state), turn.car, Counter(pool), Path((), None, 0, (), False), visit)


def _walk(trial: GameState, ci: int, pool: Counter, path: Path, visit: Callable[[Path], bool]) -> bool:
    turn = trial.current_turn()
    car = trial.cars[ci]
    for die in dice_allowed(trial, car, turn):
        if pool[die] <= 0:
            continue
        g = int(die) if die != "W" else turn.gear
        seen: set[int] = set()
        for line in (None, *LINES) if path.line is None else (None,):
            try:
                move = resolve(trial, ci, g, line, die != "W")
            except NotAllowed:
                continue
            if (line is not None and move.line != line) or move.target in seen:
                continue
            seen.add(move.target)
            nxt = trial.clone()
            before = nxt.turn
            try:
                roll_one(nxt, die, line, [])
            except NotAllowed:  # pragma: no cover - resolve accepted it
                continue
            grown = Path(path.dice + (die,), line or path.line, len(path.dice) if line else path.line_at,
                         path.moves + (move,), nxt.turn is not before)
            pool[die] -= 1
            done = visit(grown) or (not grown.ended and _walk(nxt, ci, pool, grown, visit))
            pool[die] += 1
            if done:
                return True
    return False


def _pool(dice: tuple[str, ...]) -> dict[str, int]:
    return dict(Counter(_base(d) for d in dice))


def _base(die: str) -> str:
    return "W" if die.startswith("W") else die


def _words(dice) -> str:
    return dice_words(list(dice))


# -- A18.1 / A18.2: the group ---------------------------------------------------------------------

def check_group(state: GameState, dice: tuple[str, ...]) -> None:
    """Refuse a group that A18.1/A18.2 forbid, before anything is rolled."""
    turn = state.current_turn()
    car = state.cars[turn.car]
    if not state.rules.modules.attack:
        raise NotAllowed(msg("attack.off"))
    if turn.started or turn.placed:
        raise NotAllowed(msg("attack.after_die"))
    if len(dice) < MIN_GROUP:
        raise NotAllowed(msg("attack.too_few", min=MIN_GROUP))
    counts = Counter(dice)
    whites = counts.pop("W", 0)
    if any(n > 1 for n in counts.values()) or whites > white_cap(state, car) or \
            sum(counts.values()) > black_cap(state, car) or not _chains(sorted(int(d) for d in counts), turn.gear,
                                                                         whites):
        raise NotAllowed(msg("attack.group_dice", dice=_words(dice), gear=gear_name(turn.gear),
                           cap_black=black_cap(state, car), cap_white=white_cap(state, car)))
    n = len(dice)
    early: list[int] = []
    found: list[Path] = []

    def visit(path: Path) -> bool:
        if len(path.dice) == n:
            found.append(path)
            return True
        if path.ended and path.moves[-1].target == FINISH:
            early.append(len(path.dice))
        return False

    explore(state, _pool(dice), visit)
    if found:
        return
    if early:
        raise NotAllowed(msg("attack.too_many_for_finish", needed=max(early)))
    raise NotAllowed(msg("attack.not_usable", dice=_words(dice), gear=gear_name(turn.gear)))


def _chains(gears: list[int], gear: int, whites: int) -> bool:
    """Gear dice usable one after another from `gear` (A6.2, A6.3): consecutive, starting next to
    the current gear (1st gear die from neutral); white dice need a gear."""
    if not gears:
        return gear >= 1
    if gears != list(range(gears[0], gears[-1] + 1)):
        return False
    starts = {1} if gear == 0 else {gear - 1, gear, gear + 1}
    return gears[0] in starts or gears[-1] in starts


def group_options(state: GameState) -> dict[tuple[str, ...], list[Path]]:
    """Every legal time-attack group now (A18.1, A18.2), with the clean paths that use all of it."""
    turn = state.current_turn()
    if not state.rules.modules.attack or turn.started or turn.placed or turn.attack is not None:
        return {}
    out: dict[tuple[str, ...], list[Path]] = {}

    def visit(path: Path) -> bool:
        if len(path.dice) >= MIN_GROUP:
            out.setdefault(_canonical(path.dice), []).append(path)
        return False

    explore(state, _FULL_POOL, visit)
    return out


def _canonical(dice: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(dice, key=lambda d: (d == "W", d)))


def attack_actions(state: GameState) -> list[Action]:
    driver = state.cars[state.current_turn().car].id
    return [Attack(group, driver=driver) for group in group_options(state)]


def start_attack(state: GameState, action: Attack, events: list[Event]) -> None:
    """Check the group, roll it, award the markers (A18.4); the turn waits for the order."""
    dice = tuple(_base(d) for d in action.dice)
    check_group(state, dice)
    turn = state.current_turn()
    car = state.own(turn.car)
    rules = state.rules
    rolled = [[die, state.dice.roll(die, rules.dice.faces, rules.dice.hazard_faces[die])] for die in dice]
    turn.attack = rolled
    car.seconds += len(dice)
    orders = order_actions(state)
    events.append(Event("attack", car.id, {"dice": _rolled_words(rolled), "hazards": sum(1 for _, h in rolled if h),
                                           "won": len(dice), "markers": car.seconds,
                                           "example": str(orders[0]) if orders else "order best"}))


# -- A18.3: the order ------------------------------------------------------------------------------

def _full_orders(state: GameState, rolled: list[list]) -> list[Path]:
    """Clean paths that use every rolled die, or end the turn before the last one (the rest then
    follows unused, in rolled order)."""
    dice = tuple(d for d, _ in rolled)
    n = len(dice)
    paths: list[Path] = []

    def visit(path: Path) -> bool:
        if len(path.dice) == n or path.ended:
            rest = Counter(dice) - Counter(path.dice)
            tail: list[str] = []
            for die in dice:
                if rest[die]:
                    rest[die] -= 1
                    tail.append(die)
            paths.append(Path(path.dice + tuple(tail), path.line, path.line_at, path.moves, path.ended))
        return False

    explore(state, _pool(dice), visit)
    return paths


def _white_marks(dice: tuple[str, ...], rolled: list[list]) -> list[tuple[str, ...]]:
    """The ways to write the white dice of an order with their faces: if the two whites show
    different faces, which one comes first matters."""
    hazards = sorted((h for d, h in rolled if d == "W"), reverse=True)
    marks = [HAZARD_WHITE if h else "W" for h in hazards]
    ways = {tuple(p) for p in _perms(marks)}
    out = []
    for way in sorted(ways):
        it = iter(way)
        out.append(tuple(next(it) if d == "W" else d for d in dice))
    return out


def _perms(items: list[str]) -> list[list[str]]:
    if len(items) < 2:
        return [list(items)]
    return [list(items), list(reversed(items))]


def order_actions(state: GameState) -> list[Action]:
    """Every legal order of the time attack waiting (A18.3), one per distinct way to drive it."""
    turn = state.current_turn()
    if turn.attack is None:
        return []
    driver = state.cars[turn.car].id
    out: list[Action] = []
    seen: set[Order] = set()
    for path in _full_orders(state, turn.attack):
        for dice in _white_marks(path.dice, turn.attack):
            order = Order(dice, path.line, path.line_at if path.line else 0, driver=driver)
            if order not in seen:
                seen.add(order)
                out.append(order)
    return out


def _faces(order: tuple[str, ...], rolled: list[list]) -> list[bool]:
    """The rolled face of each die of the order; refuses an order that is not the rolled dice."""
    if Counter(_base(d) for d in order) != Counter(d for d, _ in rolled):
        raise NotAllowed(msg("order.not_the_dice", rolled=_rolled_words(rolled)))
    gear = {d: h for d, h in rolled if d != "W"}
    whites = sorted((h for d, h in rolled if d == "W"))  # clean first
    faces = []
    for die in order:
        if die == HAZARD_WHITE:
            if True not in whites:
                raise NotAllowed(msg("order.no_hazard_white", rolled=_rolled_words(rolled)))
            whites.remove(True)
            faces.append(True)
        elif die == "W":
            faces.append(whites.pop(0))
        else:
            faces.append(gear[die])
    return faces


def _rolled_words(rolled: list[list]) -> str:
    return " ".join(("W" if d == "W" else d) + ("⚠" if h else "") for d, h in rolled)


def _trial_order(state: GameState, order: Order) -> None:
    """Drive the order on a clean trial; refuse it naming the die that cannot be played."""
    trial = clean_copy(state)
    turn = trial.turn
    for i, die in enumerate(order.dice):
        if trial.turn is not turn:
            return
        line = order.line if order.line and i == order.line_at else None
        nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(i + 1, f"{i + 1}th")
        try:
            move = roll_one(trial, _base(die), line, [])
        except NotAllowed as exc:
            raise NotAllowed(msg("order.refused", nth=nth, die=_words((die,)), reason=str(exc))) from None
        if line and move.line != line:
            raise NotAllowed(msg("order.line_not_taken", nth=nth, die=_words((die,)), line=line))


def play_order(state: GameState, action: Order, events: list[Event], how: str = "") -> None:
    """Drive the time attack in the order given (or the best one)."""
    turn = state.current_turn()
    if turn.attack is None:
        raise NotAllowed(msg("order.no_attack"))
    if action.best:
        action, how = best_order(state), how or msg("attack.how_best")
    faces = _faces(action.dice, turn.attack)
    _trial_order(state, action)
    car = state.cars[turn.car]
    events.append(Event("attack_order", car.id, {"order": _words(action.dice),
                                                      "how": msg("attack.how", how=how) if how else ""}))
    turn.attack = None
    drive(state, action, faces, events)


def drive(state: GameState, order: Order, faces: list[bool], events: list[Event]) -> None:
    """A18.3: die by die along the order with the rolled faces; then the gear card (A6.4)."""
    turn = state.current_turn()
    car = state.cars[turn.car]
    for i, (die, face) in enumerate(zip(order.dice, faces)):
        if state.turn is not turn:
            events.append(Event("attack_unused", car.id, {"dice": _words(order.dice[i:])}))
            return
        base = _base(die)
        if base == "W" and turn.whites >= white_cap(state, car):  # A18.6: taken by a flat tire
            events.append(Event("attack_flat", car.id, {"die": _words((die,))}))
            continue
        had_sisu = car.sisu
        try:
            roll_one(state, base, order.line if order.line and i == order.line_at else None, events, face=face)
        except RallyError as exc:
            if not turn.started:
                raise
            events.append(Event("dice_stopped", car.id, {"reason": exc.message}))  # a message: read in any language
            break
        if had_sisu and not car.sisu:  # A22 in a time attack: the whole roll counts as clean
            turn.sisu_active = True
    if state.turn is turn:
        stop(state, events)


# -- `order best` ------------------------------------------------------------------------------------

class _Probe(CleanDice):
    """Dice for a probe drive: clean dice (faces are given by the order), with the loss-of-control
    event fixed."""

    def __init__(self, event: str) -> None:
        self.event = event

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        return next((name for name in weights if name == self.event), next(iter(weights)))

    def to_dict(self) -> dict:
        raise TypeError("the dice of a probe drive are never saved")


def _probe(state: GameState, order: Order, faces: list[bool], event: str) -> tuple[bool, bool, bool, int, float, int,
                                                                                 bool]:
    """(lost control, knocked out, finished, black dice lost, progress, card seconds, can brake
    ahead) of one drive."""
    trial = state.clone()
    trial.dice = _Probe(event)
    trial.deck = ["good"] * len(trial.deck)
    turn = trial.current_turn()
    turn.attack = None
    ci = turn.car
    before = trial.cars[ci].lost_black
    events: list[Event] = []
    drive(trial, order, faces, events)
    car = trial.cars[ci]
    loc = any(e.kind in ("loss_of_control", "finish_crash", "overspeed_ko") for e in events)
    finished = car.status == FINISHED
    pos = car.position
    progress = float("inf") if finished or pos == FINISH else (trial.stage.spaces[pos].progress if pos >= 0 else 0.0)
    seconds = car.pile[-1].seconds if car.pile else 0
    brakes = finished or car.status == OUT or pos < 0 or car.gear <= brake_limit(trial, pos)
    return loc, car.status == OUT, finished, car.lost_black - before, progress, seconds, brakes


def rank(state: GameState, order: Order, faces: list[bool]) -> tuple:
    """The key `order best` sorts by (see the module text); lower is better."""
    loc, ko, finished, lost, progress, seconds, brakes = _probe(state, order, faces, "spin")
    if not loc:
        return (False, 0.0, not finished, 0.0, not brakes, -progress, seconds)
    weights = state.rules.loc_events
    total = sum(weights.values())
    ko_p = lost_e = 0.0
    for event, w in weights.items():
        _, ko, finished, lost, progress, seconds, _ = _probe(state, order, faces, event)
        ko_p += w * ko / total
        lost_e += w * lost / total
    return (True, ko_p, not finished, lost_e, False, -progress, seconds)


def best_order(state: GameState) -> Order:
    """The legal order `order best` drives (ranking in the module text)."""
    turn = state.current_turn()
    assert turn.attack is not None, "best_order needs a time attack waiting for its order"
    orders = [o for o in order_actions(state) if isinstance(o, Order)]
    scored = [(rank(state, o, _faces(o.dice, turn.attack)), i, o) for i, o in enumerate(orders)]
    return min(scored, key=lambda s: (s[0], s[1]))[2]


# -- exact odds of a group (the driver then picks the best order) ---------------------------------------

def _steps(state: GameState, path: Path) -> tuple[Step, ...]:
    rules = state.rules
    shake = rules.modules.shakedown
    steps = []
    for die, move in zip(path.dice, path.moves):
        snow = False
        if move.target >= 0:
            space = state.stage.spaces[move.target]
            snow = space.surface(space.zone in state.stage.snow_zones) is Surface.SNOW
        certain = move.outcome if move.outcome in (LOC, KO) else ""
        steps.append(Step(die, 0.0 if shake else rules.hazard_probability(die), certain,
                          move.bump_risk and not shake, snow))
    return tuple(steps)


def _outcome(state: GameState, steps: tuple[Step, ...], faces: tuple[bool, ...]) -> int:
    """0 clean, 1 loss of control, 2 knocked out, for one order with known faces (A11.1, A18.3)."""
    rules = state.rules
    turn = state.current_turn()
    asphalt = state.cars[turn.car].tires == "asphalt"
    h, hs = turn.hazards, turn.snow_hazards
    for step, face in zip(steps, faces):
        if step.certain:
            return 2 if step.certain == KO else 1
        if face and step.hazard_p > 0:
            h += 1
            hs += step.snow
            if step.bump_risk or h >= rules.hazard_limit or (
                    asphalt and rules.snow_count(h, hs) >= rules.snow_hazard_limit):
                return 1
    return 0


def attack_odds(state: GameState, plan: Attack) -> Odds:
    """Exact chance that the group ends in a loss of control (or a knock-out) when the driver then
    picks the best order, summed over every face the group can show (A18.2, A18.3). Like `odds`,
    a SISU card not yet played is not counted; refuses a group A18.2 forbids."""
    dice = tuple(_base(d) for d in plan.dice)
    check_group(state, dice)
    rules = state.rules
    paths = _full_orders(state, [[d, False] for d in dice])
    # each order as the dice of the group it uses, in order, with its steps; whites may swap
    white_at = [i for i, d in enumerate(dice) if d == "W"]
    plans: set[tuple[tuple[int, ...], tuple[Step, ...]]] = set()
    for path in paths:
        steps = _steps(state, path)
        used = path.dice[:len(steps)]
        for whites in ([white_at, list(reversed(white_at))] if len(white_at) == 2 else [white_at]):
            it = iter(whites)
            idx = tuple(next(it) if d == "W" else dice.index(d) for d in used)
            plans.add((idx, steps))
    ordered = sorted(plans, key=lambda p: (len(p[0]), p[0]))
    probs = [rules.hazard_probability(d) if not rules.modules.shakedown else 0.0 for d in dice]
    lost = ko = 0.0
    for faces in product((False, True), repeat=len(dice)):
        p = 1.0
        for face, q in zip(faces, probs):
            p *= q if face else 1.0 - q
        if p == 0.0:
            continue
        best = min((_outcome(state, steps, tuple(faces[i] for i in idx)) for idx, steps in ordered), default=0)
        if best:
            lost += p
            ko += p if best == 2 else 0.0
    return Odds(lost, ko, ())


# -- dispatch from `game.apply` -------------------------------------------------------------------------

def waiting_refusal(state: GameState) -> NotAllowed:
    turn = state.current_turn()
    assert turn.attack is not None
    orders = order_actions(state)
    example = str(orders[0]) if orders else "order best"
    return NotAllowed(msg("attack.waiting", rolled=_rolled_words(turn.attack), example=example),
                      tuple(str(o) for o in orders))


def apply_attack(state: GameState, action: Action, events: list[Event]) -> None:
    """Attack / Order on the clone `state`, or the refusal of anything else while an order is due
    (a timeout drives `order best`)."""
    turn = state.current_turn()
    if turn.attack is not None:
        if isinstance(action, Order):
            play_order(state, action, events)
        elif isinstance(action, Timeout):
            play_order(state, Order(best=True), events, msg("attack.how_timeout"))
        else:
            raise waiting_refusal(state)
    elif isinstance(action, Attack):
        start_attack(state, action, events)
    elif isinstance(action, Order):
        raise NotAllowed(msg("order.no_attack"))
    else:  # pragma: no cover - game.apply sends only these here
        raise TypeError(f"not a time-attack action: {action!r}")
