"""A run's ghost on its boards: the gap measured at the same place on the road, like
a split at a checkpoint, and the ghost drawn where it was at the driver's time, so that the two
always agree.

A run that races a ghost keeps it in its rally's modules (`modules["ghost"]`, written once when the
run starts, so every board of the run draws it, after a restart too): its kind (`best` or
`leader`), the run it was taken from, the name shown, and its **track**, the ghost run's public
marks turn by turn (`[progress, place, time, distance]`: the game's `progress` when the mark was
first seen, the place its board draws a car at, the time so far and how far along the rally,
`Game.ghosts.ghost_marks`). The track holds nothing a spectator of that run could not see: no die, no seed.

**The gap** is the driver's time so far minus the ghost's time when it stood where the driver
stands: between two marks (one turn of the ghost's) its time is interpolated along the distance it
covered; negative is ahead. **The ghost is drawn** where it was at the driver's time so far: of
the two marks of the turn it was driving then, the one on the side of the driver the gap tells
(ahead when the gap says behind, behind when it says ahead), so a picture never contradicts its
post. A ghost that never reached the driver's place (it went out sooner) gives no gap. A track
written before distances were kept (three entries a mark) is compared at the same turn, as it was.

Pure: what `turn_post` and the run's replay call with the rally's modules, no store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.core.game import GHOST, Game, GhostMark, SeatId, is_finished
from bot.engine.core.scores import format_time
from bot.engine.core.text import msg, to_json

KINDS = ("best", "leader")
#: the label under the ghost car and the gap line, per kind (each key in EN, FR and DE: a test)
LABELS = {"best": "ghost.label.best", "leader": "ghost.label.leader"}
GAPS = {"best": "ghost.gap.best", "leader": "ghost.gap.leader"}
RACING = {"best": "ghost.racing.best", "leader": "ghost.racing.leader"}
MINUS = "\u2212"


def ghost_track(game: Game[Any, Any, Any, Any], states: Sequence[Any], seat: SeatId) -> list[list[Any]]:
    """The public marks of `seat` turn by turn in a replayed run (`states`: after each logged
    action): for each new `progress`, the first mark seen at it; and the run's end (its last
    turn played out: over the line), at its progress followed by a 0, which sorts after that
    turn's start and before the next turn's. Each mark: [progress, place, time, distance]."""
    track: list[list[Any]] = []
    seen: set[tuple[int, ...]] = set()
    for state in states:
        view = game.rules.view(state, None)
        marks = game.ghosts.ghost_marks(view) if game.ghosts is not None else None
        if marks is None or seat not in marks:
            continue
        progress = tuple(game.rules.progress(view))
        mark = marks[seat]
        if progress not in seen:
            seen.add(progress)
            track.append([list(progress), mark.place, mark.time, mark.distance])
        elif is_finished(game.rules, state):
            track.append([[*progress, 0], mark.place, mark.time, mark.distance])
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


Point = tuple[float, int, int | None]  # (distance reached so far, time, place) of one mark of a track


def _points(track: Sequence[Sequence[Any]]) -> list[Point] | None:
    """The track's marks as (distance, time, place), the distance never going back (the furthest
    reached so far: a car put back after a loss of control has not undone its road); None for a
    track without distances (written before they were kept) or with a mark off the road."""
    points: list[Point] = []
    furthest = 0.0
    for entry in track:
        if len(entry) < 4 or entry[3] is None:
            return None
        furthest = max(furthest, float(entry[3]))
        points.append((furthest, int(entry[2]), entry[1]))
    return points or None


def time_at(points: Sequence[Point], distance: float) -> float | None:
    """The ghost's time when it first stood at `distance`: at a mark there, or between the two
    marks of the turn that covered it, in proportion to the distance covered (None: it never
    got that far)."""
    for i, (d, t, _) in enumerate(points):
        if d >= distance:
            if i == 0 or d == distance:
                return float(t)
            d0, t0, _ = points[i - 1]
            return t0 + (t - t0) * (distance - d0) / (d - d0)
    return None


def drawn_at(points: Sequence[Point], time: int, distance: float, gap: float) -> Point:
    """Where the ghost is drawn at the driver's `time` (who stands at `distance`, `gap` seconds
    from it there): of the two marks of the ghost's turn under way at that time, the one nearer
    where it was then (interpolated) among those on the side of the driver the gap tells: ahead
    (level only when neither is) when the ghost passed there sooner (gap > 0), behind when it had
    not yet (gap < 0). Past its last mark: the last."""
    for i in range(1, len(points)):
        before, after = points[i - 1], points[i]
        if before[1] <= time < after[1]:
            at = before[0] + (after[0] - before[0]) * (time - before[1]) / (after[1] - before[1])
            if gap > 0:  # it has moved on since it stood here: ahead where it can be, else level
                sides = [p for p in (before, after) if p[0] > distance] or \
                    [p for p in (before, after) if p[0] >= distance] or [after]
            elif gap < 0:
                sides = [p for p in (before, after) if p[0] < distance] or [before]
            else:
                sides = [before, after]
            return min(sides, key=lambda p: abs(p[0] - at))
    return points[-1]


def with_ghost(game: Game[Any, Any, Any, Any], state: Any, board: dict[str, Any] | None, ghost: Mapping[str, Any] | None
               ) -> tuple[dict[str, Any] | None, list[str]]:
    """A board spec with the ghost's place (a `GHOST` entry of its data: the place and its label,
    nothing else), and the gap line, both as the module's docstring says; as they were when the
    run has no ghost, the game has none, or the ghost has no place yet."""
    if not ghost or ghost.get("kind") not in KINDS:
        return board, []
    kind = str(ghost["kind"])
    view = game.rules.view(state, None)
    marks = game.ghosts.ghost_marks(view) if game.ghosts is not None else None
    if not marks:
        return board, []
    track, progress = ghost.get("track") or [], tuple(game.rules.progress(view))
    points = _points(track)
    mine = next(iter(marks.values())) if len(marks) == 1 else None  # a solo run: the one seat
    place: int | None
    gap: float | None
    if points is not None and mine is not None and mine.distance is not None:
        crossed = time_at(points, mine.distance)
        gap = None if crossed is None else mine.time - crossed
        place = drawn_at(points, mine.time, mine.distance, gap or 0.0)[2] if gap is not None else points[-1][2]
    else:  # a track of before distances (or a car off the road): the same turn, as it was
        at = ghost_after(track, progress) if is_finished(game.rules, state) else ghost_at(track, progress)
        if at is None:
            return board, []
        place, gap = at.place, (mine.time - at.time if mine is not None else None)
    lines = []
    if gap is not None:
        lines.append(msg(GAPS[kind], gap=signed(round(gap)), name=str(ghost.get("name") or "")))
    if board is not None and place is not None:
        data = dict(board["view"])
        data[GHOST] = {"place": place, "label": to_json(msg(LABELS[kind]))}
        board = {**board, "view": data}
    return board, lines


def ghost_of(rally: Any) -> Mapping[str, Any] | None:
    """The ghost a rally's run races (its `modules["ghost"]`), or None."""
    modules = getattr(rally, "modules", None)
    ghost = modules.get("ghost") if isinstance(modules, dict) else None
    return ghost if isinstance(ghost, dict) else None


def racing_line(game: Game[Any, Any, Any, Any], ghost: Mapping[str, Any] | None) -> list[str]:
    """The run's first post says which ghost it races: whose, and its final result."""
    if not ghost or ghost.get("kind") not in KINDS:
        return []
    score = ghost.get("score")
    result = format_time(int(score)) if isinstance(score, int) and game.rules.result.unit == "s" else str(score)
    return [msg(RACING[str(ghost["kind"])], name=str(ghost.get("name") or ""), time=result)]
