"""A rally of several specials (RULES A2): the course sheet and the results kept between specials.

`Course` is plain data carried in the game state of every special of a rally: the specials in
order (1 to 4), the assistance flag after each (A2.4: fixed before the start; the default is
assistance after every special, as the rulebook advises beginners), which special is being
driven, and each finished special's rows (time or out, per driver) for the start order of the
next special (A3) and the rally classification (A17). A single-special rally has no course.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_SPECIALS = 4


@dataclass(slots=True)
class SpecialRow:
    """One driver's outcome in one special: a time in seconds, or out (knocked out, retired)."""

    id: str
    name: str
    time: int | None
    reason: str | None = None  # why out: knocked_out | retired | None when finished
    markers: int = 0  # second markers held at the end (A18.5: already taken off the time)
    lost_black: int = 0  # damage at the end of the special
    flats: int = 0

    def to_list(self) -> list[Any]:
        return [self.id, self.name, self.time, self.reason, self.markers, self.lost_black, self.flats]


@dataclass(slots=True)
class Course:
    specials: list[str]
    assistance: list[bool]  # assistance after special i (A2.4, A16)
    index: int = 0  # the special being driven (0 = SS1)
    results: list[list[SpecialRow]] = field(default_factory=list)  # finished specials, in order
    #: the rally stopped after the special `index`: nobody could start the next one (A2); the
    #: drivers knocked out before it (A12.5, AMB-22), by reason: out of the rally, their
    #: finished specials kept in the stage tables
    stopped: bool = False
    dnf: dict[str, str] = field(default_factory=dict)

    @property
    def number(self) -> int:
        """The special being driven, counted from 1 (SS1, SS2 …)."""
        return self.index + 1

    @property
    def last(self) -> bool:
        return self.index >= len(self.specials) - 1

    def clone(self) -> Course:
        # Finished results never change: the outer list is copied, its rows shared.
        return Course(list(self.specials), list(self.assistance), self.index, list(self.results), self.stopped,
                      dict(self.dnf))

    def to_dict(self) -> dict[str, Any]:
        stopped = {"stopped": True, "dnf": dict(self.dnf)} if self.stopped else {}  # older snapshots: as they were
        return {"specials": list(self.specials), "assistance": list(self.assistance), "index": self.index,
                "results": [[row.to_list() for row in rows] for rows in self.results], **stopped}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Course:
        return cls(list(d["specials"]), [bool(a) for a in d["assistance"]], int(d["index"]),
                   [[SpecialRow(*row) for row in rows] for rows in d.get("results", [])],
                   bool(d.get("stopped", False)), {str(k): str(v) for k, v in d.get("dnf", {}).items()})


def course_of(specials: list[str], assistance: list[bool] | None = None) -> Course | None:
    """The course of a rally of these specials (None for a single special: nothing to carry)."""
    if len(specials) <= 1:
        return None
    flags = list(assistance) if assistance is not None else [True] * len(specials)
    if len(flags) != len(specials):
        raise ValueError(f"one assistance flag per special: {len(specials)} specials, {len(flags)} flags")
    return Course(list(specials), flags)
