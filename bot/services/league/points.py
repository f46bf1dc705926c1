"""The arithmetic of a championship, pure: a round's classification with points, and the season
standings. No database and no Discord: the league services feed rows in and store rows out.

Round: finishers by score with penalties (equal totals share a position and its
points); disqualified and DNF drivers score nothing; the power stage gives 5-4-3-2-1 bonus points
for the fastest times on the round's last special among the classified drivers. Season: each
driver's round scores (points + bonus), only the best N counted when the league drops rounds;
ties broken by more wins, then more 2nd places, and so on, then the better total score.

A score is in its game's result kind (`bot.games`: seconds, lower is better, for classic; victory
points, higher is better): every sort below goes the game's way (`ResultKind.key`), and a penalty
always makes a score worse (seconds added, points taken away).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.engine.core.game import SECONDS, ResultKind
from bot.engine.core.ranking import shared_ranks

DEFAULT_POINTS = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
POWER_POINTS = (5, 4, 3, 2, 1)


@dataclass(frozen=True)
class Entry:
    """One driver's run of a round as it ended: `status` finished | dnf | running (not done at
    close: a DNF), `score` the whole round's result (classic: its time), `power_s` the time on its
    last special."""

    user_id: int
    name: str
    status: str
    score: int | None = None
    power_s: int | None = None
    reason: str | None = None
    table: int | None = None  # a table game's table (its number in the round); None: a solo run


@dataclass(frozen=True)
class Classified:
    """One line of a round's classification."""

    user_id: int
    name: str
    status: str  # classified | dnf | dsq
    position: int | None
    score: int | None  # the run's score with its penalties (classic: stage time + penalties)
    penalty_s: int
    points: int
    bonus: int
    reason: str | None = None
    gap_s: int | None = None  # how far from the best score (always >= 0; a table game: its table's best)
    table: int | None = None  # a table game's table number

    @property
    def time_s(self) -> int | None:
        """Classic's name for the score: seconds."""
        return self.score


def penalised(kind: ResultKind, score: int, penalty: int) -> int:
    """A score with a penalty: always worse (seconds added; points taken away)."""
    return score + penalty if kind.better == "lower" else score - penalty


def classify_round(entries: list[Entry], penalties: dict[int, int], disqualified: dict[int, str],
                   points: tuple[int, ...] | list[int] = DEFAULT_POINTS, power_stage: bool = False,
                   kind: ResultKind = SECONDS) -> list[Classified]:
    """The classification of a closed round, in display order: classified (the best score of the
    game's result `kind` first), then DNF, then DSQ."""
    finished = [e for e in entries if e.status == "finished" and e.score is not None and e.user_id not in disqualified]

    def total(e: Entry) -> int:
        return penalised(kind, e.score or 0, penalties.get(e.user_id, 0))

    finished.sort(key=lambda e: (kind.key(total(e)), e.name.lower(), e.user_id))
    totals = [total(e) for e in finished]
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
    for e, score, rank in zip(finished, totals, ranks):
        out.append(Classified(e.user_id, e.name, "classified", rank, score, penalties.get(e.user_id, 0),
                              points[rank - 1] if rank <= len(points) else 0, bonus.get(e.user_id, 0),
                              gap_s=abs(score - best)))
    for e in sorted((e for e in entries if e.user_id not in disqualified and e.user_id not in done),
                    key=lambda e: e.name.lower()):
        reason = e.reason if e.status == "dnf" else "not_finished"
        out.append(Classified(e.user_id, e.name, "dnf", None, None, penalties.get(e.user_id, 0), 0, 0, reason))
    for e in sorted((e for e in entries if e.user_id in disqualified), key=lambda e: e.name.lower()):
        out.append(Classified(e.user_id, e.name, "dsq", None, None, penalties.get(e.user_id, 0), 0, 0,
                              disqualified[e.user_id]))
    return out


def classify_tables(entries: list[Entry], penalties: dict[int, int], disqualified: dict[int, str],
                    points: tuple[int, ...] | list[int] = DEFAULT_POINTS, kind: ResultKind = SECONDS
                    ) -> list[Classified]:
    """The classification of a closed round of table games: each finished seat's
    position is its finishing position in its own table (the game's outcome: the score the game's
    way, equal scores sharing a rank), its points those of that position in the league's table;
    in display order by position, then score, then name; then DNF, then DSQ (as `classify_round`).
    No power stage: a table game has no special of its own to time."""
    finished = [e for e in entries if e.status == "finished" and e.score is not None and e.user_id not in disqualified]

    def total(e: Entry) -> int:
        return penalised(kind, e.score or 0, penalties.get(e.user_id, 0))

    by_table: dict[int | None, list[Entry]] = {}
    for e in finished:
        by_table.setdefault(e.table, []).append(e)
    placed: list[tuple[int, int, Entry]] = []  # (position in its table, gap to its table's best, entry)
    for seated in by_table.values():
        seated.sort(key=lambda e: (kind.key(total(e)), e.name.lower(), e.user_id))
        totals = [total(e) for e in seated]
        for e, score, rank in zip(seated, totals, shared_ranks(totals)):
            placed.append((rank, abs(score - totals[0]), e))
    placed.sort(key=lambda p: (p[0], kind.key(total(p[2])), p[2].name.lower(), p[2].user_id))
    out = [Classified(e.user_id, e.name, "classified", rank, total(e), penalties.get(e.user_id, 0),
                      points[rank - 1] if rank <= len(points) else 0, 0, gap_s=gap, table=e.table)
           for rank, gap, e in placed]
    done = {e.user_id for e in finished}
    for e in sorted((e for e in entries if e.user_id not in disqualified and e.user_id not in done),
                    key=lambda e: e.name.lower()):
        reason = e.reason if e.status == "dnf" else "not_finished"
        out.append(Classified(e.user_id, e.name, "dnf", None, None, penalties.get(e.user_id, 0), 0, 0, reason,
                              table=e.table))
    for e in sorted((e for e in entries if e.user_id in disqualified), key=lambda e: e.name.lower()):
        out.append(Classified(e.user_id, e.name, "dsq", None, None, penalties.get(e.user_id, 0), 0, 0,
                              disqualified[e.user_id], table=e.table))
    return out


@dataclass(frozen=True)
class RoundScore:
    """What one driver scored in one closed round (a stored result row)."""

    round_id: int
    user_id: int
    name: str
    position: int | None
    score: int | None
    points: int
    bonus: int


@dataclass
class Standing:
    user_id: int
    name: str
    points: int = 0
    counted: int = 0
    dropped: int = 0
    score: int = 0  # the sum of the classified rounds' scores (classic: total time)
    places: list[int] = field(default_factory=list)  # how many 1st, 2nd, ... places
    position: int = 0
    scores: dict[int, int] = field(default_factory=dict)  # round id → points + bonus of that round
    dropped_rounds: frozenset[int] = frozenset()  # the round ids not counted (beyond the best N)

    @property
    def wins(self) -> int:
        return self.places[0] if self.places else 0

    @property
    def time_s(self) -> int:
        """Classic's name for the total score: seconds."""
        return self.score


def standings(scores: list[RoundScore], best_rounds: int | None = None, kind: ResultKind = SECONDS,
              score_first: bool = False) -> list[Standing]:
    """The season table: points of the best `best_rounds` rounds (all when None), ranked by
    points, then more wins, more 2nd places …, then the better total score of the game's result
    `kind` (classic: the lower total time); equal on all: shared. `score_first` (a table game's
    league: "VP as the tie-break"): the better total score breaks a tie on points
    first, then the wins and places."""
    by_driver: dict[int, list[RoundScore]] = {}
    for score in scores:
        by_driver.setdefault(score.user_id, []).append(score)
    table = []
    depth = max((s.position or 0 for s in scores), default=0)
    for user_id, rows in by_driver.items():
        ranked = sorted(rows, key=lambda r: (-(r.points + r.bonus), r.round_id))
        keep = ranked if best_rounds is None else ranked[:best_rounds]
        row = Standing(user_id, rows[-1].name, sum(r.points + r.bonus for r in keep), len(keep),
                       len(ranked) - len(keep), sum(r.score or 0 for r in rows if r.position is not None),
                       [0] * depth, scores={r.round_id: r.points + r.bonus for r in rows},
                       dropped_rounds=frozenset(r.round_id for r in ranked[len(keep):]))
        for r in rows:
            if r.position is not None:
                row.places[r.position - 1] += 1
        table.append(row)
    if score_first:
        table.sort(key=lambda s: (-s.points, kind.key(s.score), [-n for n in s.places], s.name.lower(), s.user_id))
    else:
        table.sort(key=lambda s: (-s.points, [-n for n in s.places], kind.key(s.score), s.name.lower(), s.user_id))
    for row, rank in zip(table, shared_ranks([(s.points, s.places, s.score) for s in table])):
        row.position = rank
    return table
