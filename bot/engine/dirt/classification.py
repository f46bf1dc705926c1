"""A DIRT rally's classification as rows for the cards and the text (RULES B3, B13.2, B13.8.10):
the engine's `results` (classified drivers by rally time, ties by the better last stage time then
in the last start order, then the others) with each row's stage times, its gap to the best and its
rank (equal totals share one)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.dirt.course import results
from bot.engine.dirt.public import Shown


@dataclass(frozen=True)
class Row:
    seat: str
    name: str
    status: str  # "finished" (classified so far), "out" or "retired"
    times: tuple[int | None, ...]
    total: int | None
    gap: int | None
    rank: int | None
    reason: str | None
    place: int  # the row's place in the engine's order: the last tie-break


def rally_rows(state: Shown) -> list[Row]:
    names = dict(state.seats)
    rows: list[Row] = []
    best: int | None = None
    rank, previous = 0, None
    for place, (seat, status, total, reason) in enumerate(results(state)):
        times = tuple(state.cars[seat].stage_times)
        if total is None:
            shown = "retired" if status == "retired" else "out"
            rows.append(Row(seat, names[seat], shown, times, None, None, None, reason or "retired", place))
            continue
        best = total if best is None else best
        if total != previous:
            rank, previous = place + 1, total
        rows.append(Row(seat, names[seat], "finished", times, total, total - best, rank, None, place))
    return rows
