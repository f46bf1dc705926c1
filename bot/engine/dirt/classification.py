"""A DIRT rally's classification (RULES B3, B13.2, B13.8.10): stage times summed, lowest first.

A car's stage time is written into its `stage_times` when the stage ends (B13.2: the sum of its
time cards less the second tokens it still holds; None when it did not finish). The rally's
classification counts the stages driven so far: equal totals share a rank, and drivers out of the
rally (knocked out, retired) come after every classified one, with their reason (B13.8.10).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.dirt.state import DirtState


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
    start: int  # place in the rally's first start order: the last tie-break


def rally_rows(state: DirtState) -> list[Row]:
    """Every seat, classified ones first by total (ties share a rank, then keep the start order)."""
    start = {seat: i for i, (seat, _) in enumerate(state.seats)}
    rows = []
    for seat, name in state.seats:
        car = state.cars[seat]
        times = tuple(car.stage_times)
        out = car.status in ("out", "retired") or any(t is None for t in times)
        total = None if out else sum(t or 0 for t in times)
        status = "retired" if car.status == "retired" else "out" if out else "finished"
        rows.append((seat, name, status, times, total, car.reason if out else None))
    classified = sorted((r for r in rows if r[4] is not None), key=lambda r: (r[4], start[r[0]]))
    best = classified[0][4] if classified else None
    out_rows: list[Row] = []
    rank, previous = 0, None
    for i, (seat, name, status, times, total, reason) in enumerate(classified):
        if total != previous:
            rank, previous = i + 1, total
        out_rows.append(Row(seat, name, status, times, total, (total or 0) - (best or 0), rank, None, start[seat]))
    for seat, name, status, times, total, reason in sorted((r for r in rows if r[4] is None),
                                                           key=lambda r: (r[2] == "retired", start[r[0]])):
        out_rows.append(Row(seat, name, status, times, None, None, None, reason or "retired", start[seat]))
    return out_rows
