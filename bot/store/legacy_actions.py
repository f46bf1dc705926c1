"""The action log's first format (schema versions 1 and 2), translated once to the canonical form.

Until schema 3 the `actions.action` column kept the engine's text of each action (`str(action)`)
and the lifecycle entries: `roll 3 W interior stop`, `stop`, `spare`, `line skid`, `retire 123`,
`timeout`, `tires snow`, `attack 3 4`, `order W! 3 interior`, `order best`, `place 3 interior`,
`start 12,34` and `status abandoned`. That format is closed: nothing writes it any more. Migration 3
rewrites every row in the canonical form of `bot.engine.rallyman.action_codec` (log version 1), so the log
no longer depends on the drivers' grammar, which keeps growing (French and German words...).

This module is a frozen copy of both sides, kept apart from the engine on purpose (the store does
not import the rules engine, and a migration must not change meaning when the engine changes):
it reads only the texts `str(action)` wrote, meaning what `bot.engine.rallyman.parse` read in them when
they were replayed (a line word belongs to the die right before it), and writes the canonical
JSON text (`v`, `type`, defaults left out, no driver, compact, keys sorted). A test proves it
agrees with the codec for every kind of action. Anything else is refused with
`UntranslatableAction`, which fails the migration (nothing is changed).
"""

from __future__ import annotations

import json
from typing import Any

LOG_VERSION = 1
DICE = ("1", "2", "3", "4", "5", "W")
ORDER_DICE = (*DICE, "W!")
LINES = ("interior", "skid", "shortcut")
TIRE_KINDS = ("asphalt", "snow")
STATUSES = ("lobby", "running", "finished", "abandoned")


class UntranslatableAction(ValueError):
    """A logged text that is not of the old format; `rally_id`/`seq` are set by the migration."""

    def __init__(self, text: str, reason: str, rally_id: int | None = None, seq: int | None = None) -> None:
        where = f"rally #{rally_id}, action {seq}: " if rally_id is not None else ""
        super().__init__(f"{where}cannot translate the logged action {text!r} to the canonical log: {reason}")
        self.text = text
        self.reason = reason
        self.rally_id = rally_id
        self.seq = seq


def canonical_text(d: dict[str, Any]) -> str:
    """The canonical text of an entry (same as `bot.engine.rallyman.action_codec.to_text`)."""
    return json.dumps({"v": LOG_VERSION, **d}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _dice_and_line(text: str, words: list[str], allowed: tuple[str, ...], lines: bool) -> dict[str, Any]:
    """`3 W interior 4` → dice, and the line with the index of the die it follows (`line_at`)."""
    dice: list[str] = []
    line: tuple[str, int] | None = None
    for word in words:
        if word in allowed:
            dice.append(word)
        elif lines and word in LINES and dice and line is None:
            line = (word, len(dice) - 1)
        else:
            raise UntranslatableAction(text, f"unexpected word {word!r}")
    if not dice:
        raise UntranslatableAction(text, "no dice")
    d: dict[str, Any] = {"dice": dice}
    if line is not None:
        d["line"] = line[0]
        if line[1]:
            d["line_at"] = line[1]
    return d


def _roll(text: str, words: list[str]) -> dict[str, Any]:
    end = bool(words) and words[-1] == "stop"
    d = {"type": "roll", **_dice_and_line(text, words[:-1] if end else words, DICE, lines=True)}
    if end:
        d["end"] = True
    return d


def _order(text: str, words: list[str]) -> dict[str, Any]:
    if words == ["best"]:
        return {"type": "order", "best": True}
    return {"type": "order", **_dice_and_line(text, words, ORDER_DICE, lines=True)}


def _place(text: str, words: list[str]) -> dict[str, Any]:
    if len(words) not in (1, 2) or words[0] not in DICE or (len(words) == 2 and words[1] not in LINES):
        raise UntranslatableAction(text, "expected `place <die> [line]`")
    return {"type": "place", "die": words[0], **({"line": words[1]} if len(words) == 2 else {})}


def _one_of(text: str, words: list[str], allowed: tuple[str, ...], what: str) -> str:
    if len(words) != 1 or words[0] not in allowed:
        raise UntranslatableAction(text, f"expected one {what} ({', '.join(allowed)})")
    return words[0]


def _start(text: str, rest: str) -> dict[str, Any]:
    seats = rest.split(",")
    for i, seat in enumerate(seats):
        if not seat.strip():
            raise UntranslatableAction(text, "a seat without a driver id")
        if seat in seats[:i]:
            raise UntranslatableAction(text, f"driver {seat!r} seated twice")
    return {"type": "start", "seats": seats}


def translate(text: str) -> dict[str, Any]:
    """The canonical entry (without `v`) of one old-format text; `UntranslatableAction` if none."""
    if not isinstance(text, str):
        raise UntranslatableAction(repr(text), "not a text")
    head, _, rest = text.partition(" ")
    words = rest.split(" ") if rest else []
    if head in ("stop", "spare", "timeout") and not rest:
        return {"type": head}
    if head == "start" and rest:
        return _start(text, rest)
    if head == "retire" and rest.strip():
        return {"type": "retire", "target": rest}  # everything after the first space, as replayed
    if head == "status":
        return {"type": "status", "status": _one_of(text, words, STATUSES, "rally status")}
    if head == "line":
        return {"type": "line", "line": _one_of(text, words, LINES, "line")}
    if head == "tires":
        return {"type": "tires", "tires": _one_of(text, words, TIRE_KINDS, "tire kind")}
    if head == "roll":
        return _roll(text, words)
    if head == "attack":
        return {"type": "attack", "dice": _dice_and_line(text, words, DICE, lines=False)["dice"]}
    if head == "order":
        return _order(text, words)
    if head == "place":
        return _place(text, words)
    raise UntranslatableAction(text, "not an action of the old log format")


def legacy_to_canonical(text: str) -> str:
    """The canonical log text of one old-format logged text."""
    return canonical_text(translate(text))
