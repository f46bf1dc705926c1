"""The built-in AI driver: demos, benchmarks, empty seats and timed-out turns.

It drives like a careful club driver: it never picks a die that certainly loses control, keeps
its gear low enough to brake for the corners ahead (one gear per space, RULES A6.3), shifts up
when that is safe, uses white dice when it is already as fast as the road allows, and stops when
the exact chance of losing control on the next die (from `odds`) is above its risk tolerance.
"""

from __future__ import annotations

from bot.engine.actions import Action, Roll, Spare, Stop
from bot.engine.dice_rules import dice_allowed
from bot.engine.errors import NotAllowed
from bot.engine.moves import KO, LOC, OK, effective_note, resolve
from bot.engine.odds import die_risk
from bot.engine.stage_model import FINISH, SpaceKind
from bot.engine.state import GameState

LOOKAHEAD = 6  # spaces: a car can brake at most 5 gears
_BADNESS = {OK: 0, LOC: 1, KO: 2}


def choose_action(state: GameState, risk: float = 0.12) -> Action:
    """The AI's next action for the driver whose turn it is."""
    turn = state.current_turn()
    car = state.cars[turn.car]
    if not turn.started and car.flats and car.spare and turn.gear <= 1:
        return Spare(driver=car.id)
    best: tuple | None = None
    fallback: tuple | None = None
    branching = len(state.stage.successors(car.position)) > 1
    lines = (None, "skid", "shortcut") if branching else (None,)
    for die in dice_allowed(state, car, turn):
        g = int(die) if die != "W" else turn.gear
        for line in lines:
            try:
                move = resolve(state, turn.car, g, line, die != "W")
            except NotAllowed:
                continue
            roll = Roll((die,), line if move.line == line else None, driver=car.id)
            danger = die_risk(state, die, move)
            badness = (_BADNESS[move.outcome], danger, g)
            if fallback is None or badness < fallback[0]:
                fallback = (badness, roll)
            if move.outcome != OK or danger > risk or not _can_brake(state, move.target, g):
                continue
            rank = (g, die != "W", -danger)
            if best is None or rank > best[0]:
                best = (rank, roll)
    if best is not None:
        return best[1]
    if turn.started:
        return Stop(driver=car.id)
    if fallback is not None:
        return fallback[1]
    raise AssertionError("a turn starts only when some die can move the car (A13.5)")


def _can_brake(state: GameState, position: int, gear: int) -> bool:
    """Whether, from `position` in `gear`, every corner within reach can be entered legally by
    shifting down one gear per space (interior or shortcut max, skid exact)."""
    return gear <= brake_limit(state, position)


_LIMITS: dict[tuple, tuple[object, int]] = {}


def brake_limit(state: GameState, position: int) -> int:
    """Highest gear from which the car can still slow down for what lies ahead; memoised per
    stage, space and dirt markers (the only things it depends on)."""
    key = (id(state.stage), position, tuple(sorted(state.dirt.items())) if state.dirt else ())
    entry = _LIMITS.get(key)
    if entry is None or entry[0] is not state.stage:  # the entry keeps its stage alive
        if len(_LIMITS) > 50_000:
            _LIMITS.clear()
        entry = _LIMITS[key] = (state.stage, _compute_limit(state, position))
    return entry[1]


def _compute_limit(state: GameState, position: int) -> int:
    stage = state.stage
    if position == FINISH:
        return 5
    here = stage.spaces[position]
    limit = 5
    if here.kind in (SpaceKind.INTERIOR, SpaceKind.SHORTCUT):
        limit = min(limit, effective_note(state, here))
    pos, corner_in = position, here.corner
    jumped = 0  # a bump taken at its note flies one space: the road beyond comes one die sooner
    for distance in range(1, LOOKAHEAD + 1):
        succ = stage.successors(pos)
        if not succ or succ[0] == FINISH:
            return limit
        nxt = stage.spaces[succ[0]]
        if nxt.corner is not None and nxt.corner != corner_in:
            return min(limit, _best_entry(state, succ) + distance - jumped)
        if nxt.kind is SpaceKind.BUMP:
            assert nxt.note is not None, "every bump has a note"
            limit = min(limit, nxt.note + distance)  # at the note: a free space, never a crash (A10.1)
            jumped += 1
        pos, corner_in = nxt.id, nxt.corner
    return limit


def _best_entry(state: GameState, succ: tuple[int, ...]) -> int:
    """Highest gear some line of the corner ahead accepts."""
    notes = []
    for s in succ:
        space = state.stage.spaces[s]
        note = effective_note(state, space)
        if note >= 1:
            notes.append(note)
    return max(notes) if notes else 0
