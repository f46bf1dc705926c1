"""Dirt markers a car finds in a corner (RULES A8.5).

Markers laid by the dirty shortcut card lower a corner's notes, but only for cars arriving after
them: each car keeps the count it found on arrival. Both the turn (a car moving into a corner) and
the order of play (a car put back on the road, A11.6) record arrivals, so the rule lives here, in
neither of them.
"""

from __future__ import annotations

from bot.engine.rallyman.state import Car, GameState


def note_corner_arrival(state: GameState, car: Car) -> None:
    """Remember the dirt markers a car finds when it arrives in a corner (A8.5: markers count
    for later arrivals only); forget them once it is out of the corner."""
    corner = state.stage.spaces[car.position].corner if car.position >= 0 else None
    if corner is None:
        car.corner_dirt = None
    elif car.corner_dirt is None or car.corner_dirt[0] != corner:
        car.corner_dirt = [corner, state.dirt.get(corner, 0)]
