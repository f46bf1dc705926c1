"""The rally's own entries in an action log, the same for every game: `Start` (the seats, in the
order they play first) and `Status` (a lifecycle change that does not touch the game state: the
rally was abandoned ...), and the log's shared envelope (`LOG_VERSION`, canonical text, `CodecError`).

A game's codec (its `encode` / `decode` in the `Game` protocol) writes and reads these beside its
own actions, so a log is one list of entries whatever the game; the services build `Start` and
`Status` without knowing which game the rally plays.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

LOG_VERSION = 1
STATUSES = ("lobby", "running", "finished", "abandoned")


class CodecError(ValueError):
    """A log entry that is not a valid canonical entry: the message names the field and why."""


@dataclass(frozen=True, slots=True)
class Start:
    """The rally started with these drivers (ids), in the order they play first (A3)."""

    seats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Status:
    """A lifecycle change that does not touch the game state (the rally was abandoned...)."""

    status: str


Lifecycle = Start | Status


def to_text(d: Any) -> str:
    """The one text of a canonical dict: compact JSON, keys sorted."""
    return json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def lifecycle_fields(entry: Lifecycle) -> dict[str, Any]:
    """A lifecycle entry's canonical fields other than `v` (every game's codec writes these)."""
    if isinstance(entry, Start):
        return {"type": "start", "seats": list(entry.seats)}
    return {"type": "status", "status": entry.status}


def lifecycle_text(entry: Lifecycle) -> str:
    """What the action log stores for a lifecycle entry, whatever the rally's game."""
    return to_text({"v": LOG_VERSION, **lifecycle_fields(entry)})
