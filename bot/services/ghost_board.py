"""A run's ghost on its boards (issue 27 §5): the ghost's place at the same turn drawn on the
board, and the gap in seconds said after each turn.

A run that races a ghost keeps it in its rally's modules (`modules["ghost"]`, written once when the
run starts, so every board of the run draws it, after a restart too): its kind (`best` or
`leader`), the run it was taken from, the name shown, and its **track**, the ghost run's public
marks turn by turn (`[progress, place, time]`: the game's `progress` when the mark was first
seen, the place its board draws a car at and the time so far, `Game.ghost_marks`). The track holds
nothing a spectator of that run could not see: no die, no seed.

"The same turn" is the game's `progress` (classic: special and round; DIRT: stage, round and
turn): the ghost is where it stood when play first reached that progress, or, once it is past its
last mark (it finished sooner), at its last one; when the run ends, where the ghost was once that
same turn was played out. The gap is the driver's time so far minus the ghost's then: negative is
ahead.

Pure: what `turn_post` and the run's replay call with the rally's modules, no store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core.game import GHOST, Game, GhostMark, SeatId
from bot.engine.core.scores import format_time
from bot.engine.core.text import msg, to_json

KINDS = ("best", "leader")
#: the label under the ghost car and the gap line, per kind (each key in EN, FR and DE: a test)
LABELS = {"best": "ghost.label.best", "leader": "ghost.label.leader"}
GAPS = {"best": "ghost.gap.best", "leader": "ghost.gap.leader"}
RACING = {"best": "ghost.racing.best", "leader": "ghost.racing.leader"}
MINUS = "\u2212"


def ghost_track(game: Game[Any, Any], states: Sequence[Any], seat: SeatId) -> list[list[Any]]:
    """The public marks of `seat` turn by turn in a replayed run (`states`: after each logged
    action): for each new `progress`, the first mark seen at it; and the run's end (its last
    turn played out: over the line), at its progress followed by a 0, which sorts after that
    turn's start and before the next turn's."""
    track: list[list[Any]] = []
    seen: set[tuple[int, ...]] = set()
    for state in states:
        view = game.view(state, None)
        marks = game.ghost_marks(view)
        if marks is None or seat not in marks:
            continue
        progress = tuple(game.progress(view))
        mark = marks[seat]
        if progress not in seen:
            seen.add(progress)
            track.append([list(progress), mark.place, mark.time])
        elif game.finished(state):
            track.append([[*progress, 0], mark.place, mark.time])
    return track


def ghost_at(track: Sequence[Sequence[Any]], progress: Sequence[int]) -> GhostMark | None:
    """The ghost's mark at `progress`: the last one reached by then (None before its first)."""
    found = None
    for entry in track:
        if list(entry[0]) <= list(progress):
            found = GhostMark(entry[1], int(entry[2]))
        else:
            break
    return found


def ghost_after(track: Sequence[Sequence[Any]], progress: Sequence[int]) -> GhostMark | None:
    """The ghost's mark once the turn at `progress` is played out (a run that just ended is
    compared with the ghost at the end of the same turn): its first mark after `progress`, or
    its last one."""
    for entry in track:
        if list(entry[0]) > list(progress):
            return GhostMark(entry[1], int(entry[2]))
    return GhostMark(track[-1][1], int(track[-1][2])) if track else None


def signed(seconds: int) -> str:
    """A gap as a signed number of seconds: "−12", "+5", "±0"."""
    if seconds == 0:
        return "\u00b10"
    return f"{MINUS}{-seconds}" if seconds < 0 else f"+{seconds}"


def with_ghost(game: Game[Any, Any], state: Any, board: dict[str, Any] | None, ghost: Mapping[str, Any] | None
               ) -> tuple[dict[str, Any] | None, list[str]]:
    """A board spec with the ghost's place at this turn (a `GHOST` entry of its data: the place and
    its label, nothing else), and the gap line; as they were when the run has no ghost, the game
    has none, or the ghost has no place yet."""
    if not ghost or ghost.get("kind") not in KINDS:
        return board, []
    kind = str(ghost["kind"])
    view = game.view(state, None)
    marks = game.ghost_marks(view)
    if not marks:
        return board, []
    track, progress = ghost.get("track") or [], tuple(game.progress(view))
    at = ghost_after(track, progress) if game.finished(state) else ghost_at(track, progress)
    if at is None:
        return board, []
    lines = []
    if len(marks) == 1:  # a solo run: the one seat's time so far against the ghost's
        mine = next(iter(marks.values()))
        lines.append(msg(GAPS[kind], gap=signed(mine.time - at.time), name=str(ghost.get("name") or "")))
    if board is not None and at.place is not None:
        data = dict(board["view"])
        data[GHOST] = {"place": at.place, "label": to_json(msg(LABELS[kind]))}
        board = {**board, "view": data}
    return board, lines


def ghost_of(rally: Any) -> Mapping[str, Any] | None:
    """The ghost a rally's run races (its `modules["ghost"]`), or None."""
    modules = getattr(rally, "modules", None)
    ghost = modules.get("ghost") if isinstance(modules, dict) else None
    return ghost if isinstance(ghost, dict) else None


def racing_line(game: Game[Any, Any], ghost: Mapping[str, Any] | None) -> list[str]:
    """The run's first post says which ghost it races: whose, and its final result."""
    if not ghost or ghost.get("kind") not in KINDS:
        return []
    score = ghost.get("score")
    result = format_time(int(score)) if isinstance(score, int) and game.result.unit == "s" else str(score)
    return [msg(RACING[str(ghost["kind"])], name=str(ghost.get("name") or ""), time=result)]
