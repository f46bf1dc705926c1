"""Road Rally USA's actions as text: `label` (as a driver types it), `parse` (tolerant: card ids or
codes such as `g1 y3`), and the action log's canonical JSON (`encode` / `decode`, strict, beside the
rally's own entries of `bot.engine.core.log`)."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.core.errors import CannotParse
from bot.engine.core.log import LOG_VERSION, CodecError, Lifecycle, Start, Status, lifecycle_fields, to_text
from bot.engine.core.text import msg
from bot.engine.roadrally.actions import Action, Choose, Order, Play, Reshuffle, Retire, StageAnswer, Timeout
from bot.engine.roadrally.cards import deck_of
from bot.engine.roadrally.state import RRState

COLOUR_CODES = {"g": "green", "y": "yellow", "r": "red"}


def label(action: Action) -> str:
    if isinstance(action, Play):
        flags = [w for w, on in (("store", action.store), ("shortcut", action.shortcut),
                                 ("drawfirst", action.draw_first), ("normal", action.normal)) if on]
        return " ".join(["play", *(str(c) for c in action.cards), *flags])
    if isinstance(action, Reshuffle):
        return f"reshuffle {'yes' if action.yes else 'no'}"
    if isinstance(action, Order):
        return " ".join(["order", *(str(c) for c in action.cards)])
    if isinstance(action, StageAnswer):
        return f"stage {action.stage} {'play' if action.play else 'pass'}"
    if isinstance(action, Choose):
        return action.take
    if isinstance(action, Retire):
        return "retire"
    return "timeout"


def _cards(words: list[str], state: RRState, seat: str) -> tuple[int, ...]:
    """Card ids, or codes (`g1`: a green 1 of the seat's hand not named yet)."""
    i = state.index(seat)
    hand = list(state.seats[i].hand) if i is not None else []
    deck = deck_of(state)
    out: list[int] = []
    for word in words:
        if word.isdigit():
            out.append(int(word))
            continue
        colour = COLOUR_CODES.get(word[:1])
        if colour is None or not word[1:].isdigit():
            raise CannotParse(msg("roadrally.cannot_parse", text=word[:40]))
        found = next((c for c in sorted(hand) if deck[c] == (colour, int(word[1:])) and c not in out), None)
        if found is None:
            raise CannotParse(msg("roadrally.no_such_card", card=word[:40]))
        out.append(found)
    return tuple(out)


def parse(text: str, state: RRState, seat: str) -> Action:
    words = text.lower().replace(",", " ").split()
    if not words:
        raise CannotParse(msg("roadrally.cannot_parse", text=""))
    head, rest = words[0], words[1:]
    if head == "play":
        flags = {w for w in rest if w in ("store", "shortcut", "drawfirst", "normal")}
        return Play(_cards([w for w in rest if w not in flags], state, seat),
                    "store" in flags, "shortcut" in flags, "drawfirst" in flags, "normal" in flags)
    if head == "reshuffle" and rest in (["yes"], ["no"], []):
        return Reshuffle(rest != ["no"])
    if head == "order":
        return Order(_cards(rest, state, seat))
    if head == "stage" and len(rest) == 2 and rest[0].isdigit() and rest[1] in ("play", "pass", "keep"):
        return StageAnswer(int(rest[0]), rest[1] == "play")
    if head in ("vp", "cards") and not rest:
        return Choose("vp" if head == "vp" else "cards")
    if head == "retire" and not rest:
        return Retire(seat)
    raise CannotParse(msg("roadrally.cannot_parse", text=text[:40]))


def encode(action: Action | Lifecycle) -> str:
    if isinstance(action, (Start, Status)):
        fields: dict[str, Any] = lifecycle_fields(action)
    elif isinstance(action, Play):
        fields = {"type": "play", "cards": list(action.cards), "store": action.store,
                  "shortcut": action.shortcut, "draw_first": action.draw_first,
                  **({"normal": True} if action.normal else {})}  # only when said: older logs have none
    elif isinstance(action, Reshuffle):
        fields = {"type": "reshuffle", "yes": action.yes}
    elif isinstance(action, Order):
        fields = {"type": "order", "cards": list(action.cards)}
    elif isinstance(action, StageAnswer):
        fields = {"type": "stage", "stage": action.stage, "play": action.play}
    elif isinstance(action, Choose):
        fields = {"type": "choose", "take": action.take}
    elif isinstance(action, Retire):
        fields = {"type": "retire", "seat": action.seat}
    else:
        fields = {"type": "timeout"}
    return to_text({"v": LOG_VERSION, **fields})


_FIELDS = {"play": {"cards", "store", "shortcut", "draw_first"}, "reshuffle": {"yes"}, "order": {"cards"},
           "stage": {"stage", "play"}, "choose": {"take"}, "retire": {"seat"}, "timeout": set(),
           "start": {"seats"}, "status": {"status"}}
#: fields an entry may leave out (added after logs were written without them)
_OPTIONAL = {"play": {"normal"}}


def _typed(d: dict[str, Any], name: str, kind: type) -> Any:
    value = d[name]
    if kind is int and (type(value) is not int):
        raise CodecError(f"{name}: must be an integer")
    if kind is bool and type(value) is not bool:
        raise CodecError(f"{name}: must be true or false")
    if kind is str and type(value) is not str:
        raise CodecError(f"{name}: must be a string")
    if kind is list and (type(value) is not list or any(type(x) is not int for x in value)):
        raise CodecError(f"{name}: must be a list of integers")
    return value


def decode(text: str) -> Action | Lifecycle:
    try:
        d = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CodecError(f"not JSON: {exc.msg}") from None
    if not isinstance(d, dict):
        raise CodecError("entry: must be an object")
    if d.get("v") != LOG_VERSION:
        raise CodecError(f"v: must be {LOG_VERSION}")
    kind = d.get("type")
    if kind not in _FIELDS:
        raise CodecError(f"type: unknown {kind!r}")
    if not _FIELDS[kind] | {"v", "type"} <= set(d) <= _FIELDS[kind] | _OPTIONAL.get(kind, set()) | {"v", "type"}:
        raise CodecError(f"{kind}: fields must be {', '.join(sorted(_FIELDS[kind]))}")
    action: Action | Lifecycle
    if kind == "play":
        action = Play(tuple(_typed(d, "cards", list)), _typed(d, "store", bool), _typed(d, "shortcut", bool),
                      _typed(d, "draw_first", bool), _typed(d, "normal", bool) if "normal" in d else False)
    elif kind == "reshuffle":
        action = Reshuffle(_typed(d, "yes", bool))
    elif kind == "order":
        action = Order(tuple(_typed(d, "cards", list)))
    elif kind == "stage":
        action = StageAnswer(_typed(d, "stage", int), _typed(d, "play", bool))
    elif kind == "choose":
        take = _typed(d, "take", str)
        if take not in ("vp", "cards"):
            raise CodecError("take: must be vp or cards")
        action = Choose("vp" if take == "vp" else "cards")
    elif kind == "retire":
        action = Retire(_typed(d, "seat", str))
    elif kind == "timeout":
        action = Timeout()
    elif kind == "start":
        seats = d["seats"]
        if type(seats) is not list or any(type(s) is not str for s in seats):
            raise CodecError("seats: must be a list of strings")
        action = Start(tuple(seats))
    else:
        action = Status(_typed(d, "status", str))
    if encode(action) != text:
        raise CodecError("entry: not in canonical form")
    return action
