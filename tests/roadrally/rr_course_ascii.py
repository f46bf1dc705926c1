"""An ASCII picture of a Road Rally USA course, to eyeball a layout in tests or by hand:
`python3 -m tests.roadrally.rr_course_ascii base std-7 sprint-7` from the checkout (no bot, no Discord).

One character per space: `S` start, `.` road, `D` Diner site, `C` checkpoint site, `G` gas,
`>` shortcut start, `M` mechanic, `$` General Store, `F` final space; blank off the road.
"""

from __future__ import annotations

import sys

from bot.engine.roadrally.road import Road, SpaceKind

LETTERS = {
    SpaceKind.START: "S", SpaceKind.ROAD: ".", SpaceKind.DINER: "D", SpaceKind.CHECKPOINT: "C",
    SpaceKind.GAS: "G", SpaceKind.SHORTCUT: ">", SpaceKind.MECHANIC: "M", SpaceKind.STORE: "$",
    SpaceKind.FINAL: "F",
}


def ascii_course(road: Road) -> str:
    width = int(max(s.x for s in road.spaces)) + 1
    height = int(max(s.y for s in road.spaces)) + 1
    rows = [[" "] * width for _ in range(height)]
    for space in road.spaces:
        rows[int(space.y)][int(space.x)] = LETTERS[space.kind]
    return "\n".join("".join(row).rstrip() for row in rows)


if __name__ == "__main__":
    from bot.engine.roadrally.course import load_course

    for name in sys.argv[1:] or ["base"]:
        print(f"{name}:\n{ascii_course(load_course(name))}\n")
