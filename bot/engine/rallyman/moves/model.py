"""What one die's move is (`Move`), and the facts the rules of moving read from a game state: a
corner's note after dirt markers (RULES A8.5) and whether a space has room (A13).

Kept apart from the rules themselves (bot/engine/rallyman/moves/rules.py) so that the compiled transition
tables (bot/engine/rallyman/moves/table.py) and the public `resolve` (bot/engine/rallyman/moves/move.py) share them
without an import cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import msg
from bot.engine.rallyman.stages.model import FINISH, Space, SpaceKind
from bot.engine.rallyman.state import RACING, Car, GameState

OK, LOC, KO = "ok", "loc", "ko"
CORNER_KINDS = (SpaceKind.INTERIOR, SpaceKind.SKID, SpaceKind.SHORTCUT)
LINE_NAMES = {SpaceKind.INTERIOR: "interior", SpaceKind.SKID: "skid", SpaceKind.SHORTCUT: "shortcut"}


@dataclass(slots=True)
class Move:
    """Where a die takes the car and what that means. The moves `resolve` returns come from the
    compiled tables and are shared by every lookup of the same situation: never change one."""

    target: int  # space reached, or FINISH
    outcome: str = OK  # ok | loc | ko
    reason: Literal["", "overspeed", "bump"] = ""  # why a loss of control or knock-out (A8.6, A10)
    over: int = 0  # gears above the note (A8.6)
    bump_risk: bool = False  # bump at N+1: loss of control if this die shows ⚠ (A10.1)
    line: str | None = None  # trajectory entered
    flown: int = 0  # spaces flown over by a bump jump


def refuse(key: str, **params: object) -> NotAllowed:
    return NotAllowed(msg(key, **params))


def effective_note(state: GameState, space: Space, car: Car | None = None) -> int:
    """Note of a corner space after dirt markers (A8.5): interior and skid notes drop, shortcut
    never. Markers count "for every later arrival": a `car` already in the corner keeps the
    count it found when it arrived."""
    note = space.note
    assert note is not None, "every corner space has a note"
    if space.kind in (SpaceKind.INTERIOR, SpaceKind.SKID):
        corner = space.corner
        assert corner is not None, "interior and skid spaces belong to a corner"
        if car is not None and car.corner_dirt is not None and car.corner_dirt[0] == corner:
            return note - car.corner_dirt[1]
        return note - state.dirt.get(corner, 0)
    return note


def occupancy(state: GameState, space_id: int, moving: int) -> int:
    """Cars on a road space, not counting the mover; off-road cars occupy nothing (A13.2)."""
    count = 0
    i = 0
    for c in state.cars:  # a plain loop: this runs for every die played or considered
        if c.position == space_id and i != moving and c.status == RACING and c.pose not in _OFF:
            count += 1
        i += 1
    return count


def occupants(state: GameState, moving: int) -> list[int]:
    """Where the cars that take room stand, but the mover: `occupancy` of a space is how many
    times it is in this list (for callers that ask about many dice of one state)."""
    out = []
    i = 0
    for c in state.cars:
        if i != moving and c.status == RACING and c.pose not in _OFF:
            out.append(c.position)
        i += 1
    return out


_OFF = ("off_left", "off_right")


def has_room(state: GameState, space_id: int, moving: int) -> bool:
    if space_id == FINISH:
        return True
    return occupancy(state, space_id, moving) < state.stage.spaces[space_id].capacity
