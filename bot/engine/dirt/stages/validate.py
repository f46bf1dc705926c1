"""Checks of a built DIRT stage that need the whole graph (RULES B7, B11, B13.5, B13.7).

A stage is refused when a car could be stuck (a dead end before the finish), when a jump lands off
the track, or when a jump can only land in a corner above every one of its limits (a trap every
flying car would lose control in). Every error names the file, the line of the tile and the reason.
"""

from __future__ import annotations

from bot.engine.core.errors import StageError
from bot.engine.dirt.stages.model import DirtStage, SpaceKind

KIND_WORD = {SpaceKind.NORMAL: "space", SpaceKind.SLIDE: "slide", SpaceKind.SHORTCUT: "shortcut"}


def validate(stage: DirtStage) -> DirtStage:
    """The stage itself when it is valid; a `StageError` naming the first problem otherwise."""
    _check_jumps(stage)
    _check_dead_ends(stage)
    return stage


def _check_jumps(stage: DirtStage) -> None:
    for space in stage.spaces:
        if space.jump is None:
            continue
        landings = [stage.spaces[j] for j in space.forward]
        if not landings:
            raise StageError(stage.source, space.line, f"the gear-{space.jump} jump lands off the track",
                             "a jump needs a space after it to land on (B11): move it or add a tile after it")
        if all(s.limit is not None and s.limit < space.jump for s in landings):
            limits = "/".join(str(v) for v in sorted({s.limit for s in landings if s.limit is not None}))
            raise StageError(stage.source, space.line,
                             f"the gear-{space.jump} jump lands only where the limit is {limits}: "
                             "a corner entered above every limit",
                             "lower the jump's gear, raise the limits or put a straight after the jump (B8, B13.5)")


def _check_dead_ends(stage: DirtStage) -> None:
    """Every space a car can reach from the grid must lead on to the finish (B7, B13.7)."""
    reach_finish = {s.id for s in stage.spaces if stage.finished(s.id)}
    changed = True
    while changed:
        changed = False
        for s in stage.spaces:
            if s.id not in reach_finish and any(j in reach_finish for j in s.forward):
                reach_finish.add(s.id)
                changed = True
    seen: set[int] = set()
    todo = list(stage.grid)
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        todo.extend(stage.spaces[i].forward)
    stuck = sorted((stage.spaces[i] for i in seen if i not in reach_finish), key=lambda s: (s.front, s.id))
    if stuck:
        s = ([x for x in stuck if not x.forward] or stuck)[0]
        run_off = any(stage.finished(x.id) for x in stage.spaces)
        raise StageError(stage.source, s.line, f"a dead end: no way from this tile's {KIND_WORD[s.kind]} to the finish",
                         "give it a way on: a straight after it (B10: a shortcut leaves to a non-corner space)"
                         if run_off else "add a run-off tile after `finish`")
