"""Hand-made roads for the rules tests: one character per space, in road order.

`S` start, `.` road, `D` Diner (stage site), `C` checkpoint, `G` gas, `T` General Store,
`M` Mechanic, `F` the final space; `>` a shortcut start, jumping to the next `<` (its end space,
a plain road space)."""

from __future__ import annotations

from bot.engine.roadrally.road import Road, RoadSpace, SpaceKind

KINDS = {"S": SpaceKind.START, ".": SpaceKind.ROAD, "D": SpaceKind.DINER, "C": SpaceKind.CHECKPOINT,
         "G": SpaceKind.GAS, "T": SpaceKind.STORE, "M": SpaceKind.MECHANIC, "F": SpaceKind.FINAL,
         ">": SpaceKind.SHORTCUT, "<": SpaceKind.ROAD}

#: a course with every kind of space and enough stages for whole games
LONG = "SS..D.C.G.>..D.<.M.T..D..C...D.G..>.D..<.T..D.M..D..C.G...D..T..D..M..D...G..D..F"


def road(text: str, name: str = "test") -> Road:
    spaces = []
    for i, ch in enumerate(text):
        to = text.index("<", i) if ch == ">" else None
        spaces.append(RoadSpace(i, KINDS[ch], 0, to))
    assert spaces[-1].kind is SpaceKind.FINAL
    return Road(name, tuple(spaces), ("start", "finish"))
