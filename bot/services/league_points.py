"""The arithmetic of a championship, pure: a round's classification with points, and the season
standings. No database and no Discord: the league services feed rows in and store rows out.

Round (issue 11): finishers by stage time plus penalties (equal totals share a position and its
points); disqualified and DNF drivers score nothing; the power stage gives 5-4-3-2-1 bonus points
for the fastest times on the round's last special among the classified drivers. Season: each
driver's round scores (points + bonus), only the best N counted when the league drops rounds;
ties broken by more wins, then more 2nd places, and so on, then the lower total time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.core.ranking import shared_ranks

DEFAULT_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
POWER_POINTS = (5, 4, 3, 2, 1)


@dataclass(frozen=True)
class Entry:
    """One driver's run of a round as it ended: `status` finished | dnf | running (not done at
    close: a DNF), `time_s` the whole round's time, `power_s` the time on its last special."""

    user_id: int
    name: str
    status: str
    time_s: int | None = None
    power_s: int | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Classified:
    """One line of a round's classification."""

    user_id: int
    name: str
    status: str  # classified | dnf | dsq
    position: int | None
    time_s: int | None  # stage time + penalties
    penalty_s: int
    points: int
    bonus: int
    reason: str | None = None
    gap_s: int | None = None


def classify_round(entries: list[Entry], penalties: dict[int, int], disqualified: dict[int, str],
                   points: tuple[int, ...] | list[int] = DEFAULT_POINTS, power_stage: bool = False) -> list[Classified]:
    """The classification of a closed round, in display order: classified, then DNF, then DSQ."""
    finished = [e for e in entries if e.status == "finished" and e.time_s is not None and e.user_id not in disqualified]
    finished.sort(key=lambda e: ((e.time_s or 0) + penalties.get(e.user_id, 0), e.name.lower(), e.user_id))
    totals = [(e.time_s or 0) + penalties.get(e.user_id, 0) for e in finished]
    ranks = shared_ranks(totals)
    bonus: dict[int, int] = {}
    if power_stage:
        timed = sorted((e for e in finished if e.power_s is not None), key=lambda e: (e.power_s, e.user_id))
        power_ranks = shared_ranks([e.power_s or 0 for e in timed])
        for e, rank in zip(timed, power_ranks):
            if rank <= len(POWER_POINTS):
                bonus[e.user_id] = POWER_POINTS[rank - 1]
    out = []
    done = {e.user_id for e in finished}
    best = totals[0] if totals else 0
    for e, total, rank in zip(finished, totals, ranks):
        out.append(Classified(e.user_id, e.name, "classified", rank, total, penalties.get(e.user_id, 0),
                              points[rank - 1] if rank <= len(points) else 0, bonus.get(e.user_id, 0),
                              gap_s=total - best))
    for e in sorted((e for e in entries if e.user_id not in disqualified and e.user_id not in done),
                    key=lambda e: e.name.lower()):
        reason = e.reason if e.status == "dnf" else "not_finished"
        out.append(Classified(e.user_id, e.name, "dnf", None, None, penalties.get(e.user_id, 0), 0, 0, reason))
    for e in sorted((e for e in entries if e.user_id in disqualified), key=lambda e: e.name.lower()):
        out.append(Classified(e.user_id, e.name, "dsq", None, None, penalties.get(e.user_id, 0), 0, 0,
                              disqualified[e.user_id]))
    return out


@dataclass(frozen=True)
class RoundScore:
    """What one driver scored in one closed round (a stored result row)."""

    round_id: int
    user_id: int
    name: str
    position: int | None
    time_s: int | None
    points: int
    bonus: int


@dataclass
class Standing:
    user_id: int
    name: str
    points: int = 0
    counted: int = 0
    dropped: int = 0
    time_s: int = 0
    places: list[int] = field(default_factory=list)  # how many 1st, 2nd, ... places
    position: int = 0
    scores: dict[int, int] = field(default_factory=dict)  # round id → points + bonus of that round
    dropped_rounds: frozenset[int] = frozenset()  # the round ids not counted (beyond the best N)

    @property
    def wins(self) -> int:
        return self.places[0] if self.places else 0


def standings(scores: list[RoundScore], best_rounds: int | None = None) -> list[Standing]:
    """The season table: points of the best `best_rounds` rounds (all when None), ranked by
    points, then more wins, more 2nd places …, then lower total time; equal on all: shared."""
    by_driver: dict[int, list[RoundScore]] = {}
    for score in scores:
        by_driver.setdefault(score.user_id, []).append(score)
    table = []
    depth = max((s.position or 0 for s in scores), default=0)
    for user_id, rows in by_driver.items():
        ranked = sorted(rows, key=lambda r: (-(r.points + r.bonus), r.round_id))
        keep = ranked if best_rounds is None else ranked[:best_rounds]
        row = Standing(user_id, rows[-1].name, sum(r.points + r.bonus for r in keep), len(keep),
                       len(ranked) - len(keep), sum(r.time_s or 0 for r in rows if r.position is not None),
                       [0] * depth, scores={r.round_id: r.points + r.bonus for r in rows},
                       dropped_rounds=frozenset(r.round_id for r in ranked[len(keep):]))
        for r in rows:
            if r.position is not None:
                row.places[r.position - 1] += 1
        table.append(row)
    table.sort(key=lambda s: (-s.points, [-n for n in s.places], s.time_s, s.name.lower(), s.user_id))
    for row, rank in zip(table, shared_ranks([(s.points, s.places, s.time_s) for s in table])):
        row.position = rank
    return table
