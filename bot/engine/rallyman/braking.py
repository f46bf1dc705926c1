"""How fast a car may still go on a space and brake in time for what lies ahead.

Used by the AI driver (bot/engine/rallyman/ai.py) and by the time attack's ranking of orders
(bot/engine/rallyman/attack.py): the highest gear from which the car can slow down, one gear per die,
for the next corner's note (or a bump's) within reach, memoised per stage, space and dirt.
"""

from __future__ import annotations

from bot.engine.rallyman.moves.move import effective_note
from bot.engine.rallyman.stages.model import FINISH, SpaceKind
from bot.engine.rallyman.state import GameState

LOOKAHEAD = 6  # spaces: a car can brake at most 5 gears

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
