"""The classification of a rally of several specials (RULES A17), after any number of them.

After SS2 it is the reclassification (SS1 + SS2) that sets the start order of SS3 (A3); after
the last special it is the rally classification. Drivers who finished every special so far are
classified by their total; equal totals share a rank and are shown by the better last stage time
(OPEN-5 default). Drivers out of the rally (knocked out, retired) follow, most specials finished
first, then in the order they started.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core.ranking import shared_ranks
from bot.engine.rallyman.course import Course


@dataclass(frozen=True)
class RallyRow:
    driver: str
    name: str
    times: tuple[int | None, ...]  # per finished special
    total: int | None  # None: out of the rally
    rank: int | None
    gap: int | None
    reason: str | None  # why out
    seat: int  # start order of SS1 (colour on the images)


def rally_classification(course: Course) -> list[RallyRow]:
    if not course.results:
        return []
    first = course.results[0]
    seat = {row.id: i for i, row in enumerate(first)}
    by_driver: dict[str, list[int | None]] = {row.id: [] for row in first}
    names = {row.id: row.name for row in first}
    reasons: dict[str, str | None] = {row.id: None for row in first}
    for special in course.results:
        for row in special:
            by_driver.setdefault(row.id, []).append(row.time)
            names.setdefault(row.id, row.name)
            if row.time is None and reasons.get(row.id) is None:
                reasons[row.id] = row.reason or "retired"
    for driver, reason in course.dnf.items():  # knocked out before a special nobody started (AMB-22)
        reasons[driver] = reasons.get(driver) or reason
    totals = {d: (None if d in course.dnf or any(t is None for t in times)
                  else sum(t for t in times if t is not None))
              for d, times in by_driver.items()}
    classified = sorted((d for d in by_driver if totals[d] is not None),
                        key=lambda d: (totals[d], by_driver[d][-1] or 0, seat.get(d, 99)))
    out = sorted((d for d in by_driver if totals[d] is None),
                 key=lambda d: (-sum(t is not None for t in by_driver[d]), seat.get(d, 99)))
    best = totals[classified[0]] if classified else 0
    rows: list[RallyRow] = []
    for driver, rank in zip(classified, shared_ranks([totals[d] for d in classified])):
        total = totals[driver]
        assert total is not None and best is not None
        rows.append(RallyRow(driver, names[driver], tuple(by_driver[driver]), total, rank, total - best, None,
                             seat.get(driver, 0)))
    rows += [RallyRow(d, names[d], tuple(by_driver[d]), None, None, None, reasons[d], seat.get(d, 0)) for d in out]
    return rows
