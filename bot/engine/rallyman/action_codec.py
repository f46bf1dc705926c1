"""The action log's canonical form: one versioned JSON object per logged action.

The log is the truth a rally replays from (DESIGN §2), so it must mean the same to every later
version of the bot and in every language. The drivers' grammar (`bot.engine.rallyman.parse`) is neither:
it reads French and German words and guesses prefixes. So the log does not keep what a driver
typed nor `str(action)`, but this form:

    {"v": 1, "type": "roll", "dice": ["3", "W"], "line": "interior", "end": true}

- `v` is the log version (`LOG_VERSION`); `type` names the kind of entry.
- A field at its default is left out (no line, `line_at` 0, `end`/`best` false), and `driver` is
  never written: the log's actor column says who played.
- The text is compact JSON with sorted keys (`to_text`), so one entry has one text and `db check`
  can tell a hand-edited row.
- Besides the engine's actions, the log holds the rally's lifecycle entries, `Start` (the seats
  in play order) and `Status` (the rally was abandoned...), defined for every game in
  `bot.engine.core.log` and written here the same way as ever.

`decode` is strict: an unknown type, an unknown or missing field, a wrong type, a die or line
that does not exist, another version: `CodecError` naming the field and the reason. Nothing here
depends on i18n, Discord, asyncio or SQL.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bot.engine.core.log import LOG_VERSION, STATUSES, CodecError, Start, Status, lifecycle_fields, to_text
from bot.engine.rallyman.actions import (
    LINES,
    Action,
    Attack,
    ChooseLine,
    Order,
    Place,
    Retire,
    Roll,
    Spare,
    Stop,
    Timeout,
    Tires,
)

DICE = ("1", "2", "3", "4", "5", "W")
ORDER_DICE = (*DICE, "W!")  # a white die that showed ⚠, in the order of a time attack (A18.3)
TIRE_KINDS = ("asphalt", "snow")


Entry = Action | Start | Status


# --- encoding ---------------------------------------------------------------------------------

def _with_line(d: dict[str, Any], line: str | None, line_at: int = 0) -> dict[str, Any]:
    if line is not None:
        d["line"] = line
    if line_at != 0:
        d["line_at"] = line_at
    return d


def _fields(entry: Entry) -> dict[str, Any]:
    """The entry's fields other than `v`, defaults left out."""
    if isinstance(entry, Roll):
        d = _with_line({"type": "roll", "dice": list(entry.dice)}, entry.line, entry.line_at)
        if entry.end:
            d["end"] = entry.end
        return d
    if isinstance(entry, Stop):
        return {"type": "stop"}
    if isinstance(entry, Spare):
        return {"type": "spare"}
    if isinstance(entry, ChooseLine):
        return {"type": "line", "line": entry.line}
    if isinstance(entry, Retire):
        return {"type": "retire", "target": entry.target}
    if isinstance(entry, Timeout):
        return {"type": "timeout"}
    if isinstance(entry, Tires):
        return {"type": "tires", "tires": entry.tires}
    if isinstance(entry, Attack):
        return {"type": "attack", "dice": list(entry.dice)}
    if isinstance(entry, Order):
        d = {"type": "order"}
        if entry.dice:
            d["dice"] = list(entry.dice)
        _with_line(d, entry.line, entry.line_at)
        if entry.best:
            d["best"] = entry.best
        return d
    if isinstance(entry, Place):
        return _with_line({"type": "place", "die": entry.die}, entry.line)
    if isinstance(entry, (Start, Status)):
        return lifecycle_fields(entry)
    raise CodecError(f"type: {type(entry).__name__} is not a loggable action")


def encode(entry: Entry) -> dict[str, Any]:
    """The canonical dict of an action or lifecycle entry (its `driver` left out).

    Refuses (`CodecError`) an entry that the log could not give back, e.g. a die that does not
    exist or a `line_at` without a line, so whatever is logged replays."""
    d = {"v": LOG_VERSION, **_fields(entry)}
    back = decode(d)
    if back != _without_driver(entry):
        raise CodecError(f"{d['type']}: {entry!r} cannot be logged faithfully")
    return d


def log_text(entry: Entry) -> str:
    """What the action log stores for `entry`."""
    return to_text(encode(entry))


def _without_driver(entry: Entry) -> Entry:
    return replace(entry, driver=None) if not isinstance(entry, (Start, Status)) else entry


# --- decoding ---------------------------------------------------------------------------------

def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for key, value in pairs:
        if key in d:
            raise CodecError(f"{key}: given twice")
        d[key] = value
    return d


def from_text(text: str) -> Entry:
    """The entry a logged text stands for (strict, see `decode`)."""
    if not isinstance(text, str):
        raise CodecError(f"text: expected a string, got {type(text).__name__}")
    try:
        d = json.loads(text, object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as exc:
        raise CodecError(f"text: not JSON ({exc.msg} at character {exc.pos})") from None
    return decode(d)


_ABSENT = object()


class _Fields:
    """Reads the fields of one entry, strictly; every field read is accounted for."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.d = d
        self.read: set[str] = {"v", "type"}

    def _get(self, name: str, required: bool) -> Any:
        """The field's value; `_ABSENT` for an optional field left out."""
        self.read.add(name)
        if name not in self.d:
            if required:
                raise CodecError(f"{name}: missing")
            return _ABSENT
        return self.d[name]

    def text(self, name: str, allowed: tuple[str, ...] | None = None, required: bool = True) -> str | None:
        value = self._get(name, required)
        if value is _ABSENT:
            return None
        return _checked_text(name, value, allowed)

    def texts(self, name: str, allowed: tuple[str, ...] | None, required: bool = True) -> tuple[str, ...]:
        value = self._get(name, required)
        if value is _ABSENT:
            return ()
        if not isinstance(value, list):
            raise CodecError(f"{name}: expected a list, got {_kind(value)}")
        if not value:
            raise CodecError(f"{name}: empty")
        return tuple(_checked_text(f"{name}[{i}]", item, allowed) for i, item in enumerate(value))

    def flag(self, name: str) -> bool:
        value = self._get(name, False)
        if value is _ABSENT:
            return False
        if not isinstance(value, bool):
            raise CodecError(f"{name}: expected true or false, got {_kind(value)}")
        return value

    def line(self, dice: int) -> tuple[str | None, int]:
        """`line` and `line_at` (the die that takes the line, an index into `dice`)."""
        line = self.text("line", LINES, required=False)
        at = self._get("line_at", False)
        if at is _ABSENT:
            return line, 0
        if not isinstance(at, int) or isinstance(at, bool):
            raise CodecError(f"line_at: expected an integer, got {_kind(at)}")
        if line is None:
            raise CodecError("line_at: given without a line")
        if not 0 <= at < dice:
            raise CodecError(f"line_at: {at} is not the index of one of the {dice} dice")
        return line, at

    def done(self) -> None:
        extra = sorted(set(self.d) - self.read)
        if extra:
            raise CodecError(f"{extra[0]}: unknown field for type {self.d['type']!r}")


def _checked_text(label: str, value: Any, allowed: tuple[str, ...] | None) -> str:
    """`value` if it is a string among `allowed` (any non-blank one when None); else `CodecError`
    naming `label` (the field, or the field and the index of a list's item)."""
    if not isinstance(value, str):
        raise CodecError(f"{label}: expected a string, got {_kind(value)}")
    if allowed is not None and value not in allowed:
        raise CodecError(f"{label}: {value!r} is not one of {', '.join(allowed)}")
    if allowed is None and not value.strip():
        raise CodecError(f"{label}: empty")
    return value


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def decode(d: Any) -> Entry:
    """The entry of a canonical dict; `CodecError` naming the field when anything is wrong."""
    if not isinstance(d, dict):
        raise CodecError(f"entry: expected a JSON object, got {_kind(d)}")
    if "v" not in d:
        raise CodecError("v: missing (the log version)")
    version = d["v"]
    if not isinstance(version, int) or isinstance(version, bool) or version != LOG_VERSION:
        raise CodecError(f"v: log version {version!r} is not {LOG_VERSION}")
    kind = d.get("type")
    if "type" not in d:
        raise CodecError("type: missing")
    if not isinstance(kind, str) or kind not in _DECODERS:
        raise CodecError(f"type: unknown entry type {kind!r}")
    fields = _Fields(d)
    entry = _DECODERS[kind](fields)
    fields.done()
    return entry


def _roll(f: _Fields) -> Entry:
    dice = f.texts("dice", DICE)
    line, at = f.line(len(dice))
    return Roll(dice, line, f.flag("end"), line_at=at)


def _order(f: _Fields) -> Entry:
    best = f.flag("best")
    dice = f.texts("dice", ORDER_DICE, required=not best)
    if best and dice:
        raise CodecError("dice: given with best (the bot chooses the order)")
    line, at = f.line(len(dice))
    if best and line is not None:
        raise CodecError("line: given with best (the bot chooses the order)")
    return Order(dice, line, at, best)


def _place(f: _Fields) -> Entry:
    die = f.text("die", DICE)
    assert die is not None
    return Place(die, f.text("line", LINES, required=False))


def _start(f: _Fields) -> Entry:
    seats = f.texts("seats", None)
    for i, seat in enumerate(seats):
        if seat in seats[:i]:
            raise CodecError(f"seats[{i}]: {seat!r} is seated twice")
    return Start(seats)


def _required(f: _Fields, name: str, allowed: tuple[str, ...] | None = None) -> str:
    value = f.text(name, allowed)
    assert value is not None
    return value


_DECODERS: dict[str, Any] = {
    "roll": _roll,
    "stop": lambda f: Stop(),
    "spare": lambda f: Spare(),
    "line": lambda f: ChooseLine(_required(f, "line", LINES)),
    "retire": lambda f: Retire(_required(f, "target")),
    "timeout": lambda f: Timeout(),
    "tires": lambda f: Tires(_required(f, "tires", TIRE_KINDS)),
    "attack": lambda f: Attack(f.texts("dice", DICE)),
    "order": _order,
    "place": _place,
    "start": _start,
    "status": lambda f: Status(_required(f, "status", STATUSES)),
}
