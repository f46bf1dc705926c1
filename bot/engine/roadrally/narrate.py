"""Road Rally USA's events as the channel's story of an action (RULES C3-C8, C10.8): public facts
only, as message keys. The events already hold nothing secret (played cards are public, a draw is a
count, a bypassed stage names no seat, a Mechanic's new order is no event); this module adds
nothing but words.

A turn's events are grouped into one line per seat ("Alice plays 🟩1 🟩2, moves to space 14 (gas
station), draws 2 cards"); the points of a scored stage make one line. With the `road`, a move
names the kind of space it ends on (D3's words) and says when it took a shortcut.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.engine.core.text import Listed, counted, msg
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.road import Road, SpaceKind
from bot.engine.roadrally.words import DECK, cards_text

#: the kinds of space a move may end on, in words (a closed table; a plain road space has none)
SPACE_WORDS = {
    SpaceKind.DINER: "roadrally.space_diner", SpaceKind.CHECKPOINT: "roadrally.space_checkpoint",
    SpaceKind.GAS: "roadrally.space_gas", SpaceKind.SHORTCUT: "roadrally.space_shortcut",
    SpaceKind.STORE: "roadrally.space_store", SpaceKind.MECHANIC: "roadrally.space_mechanic",
    SpaceKind.START: "roadrally.space_start", SpaceKind.FINAL: "roadrally.space_final",
}
#: the events that make up a turn, told on their seat's line
TURN_KINDS = frozenset({"played", "moved", "finished", "checkpoint", "drew", "reshuffled"})
#: the events whose points are told together on one line
POINT_KINDS = {"vp": "roadrally.n.points", "final_vp": "roadrally.n.final_points"}
#: the events told on a line of their own
SINGLE_KINDS = frozenset({"dealt", "round", "stage_window", "stage_bypassed", "stage_scored", "stage_tile",
                          "retired", "over"})


def space_text(road: Road | None, index: int) -> str:
    """`space 14 (gas station)`; a plain road space, or no road known: `space 14`."""
    kind = road.spaces[index].kind if road is not None and 0 <= index < len(road.spaces) else None
    if kind in SPACE_WORDS:
        return msg("roadrally.n.space_kind", n=index, kind=msg(SPACE_WORDS[kind]))
    return msg("roadrally.n.space", n=index)


def _moved(event: RoadEvent, played: tuple[int, ...], road: Road | None) -> str:
    start, end = event.data
    if start == end:
        return msg("roadrally.n.stays", space=space_text(road, end))
    if road is not None and played:
        reach = min(start + sum(DECK[c][1] for c in played), road.final)
        if reach != end and road.spaces[reach].shortcut_to == end:  # C5, OPEN-R2
            return msg("roadrally.n.moves_shortcut", space=space_text(road, end))
    return msg("roadrally.n.moves", space=space_text(road, end))


def _part(event: RoadEvent, played: tuple[int, ...], road: Road | None) -> str:
    kind = event.kind
    if kind == "played":
        return msg("roadrally.n.plays", cards=cards_text(event.data))
    if kind == "moved":
        return _moved(event, played, road)
    if kind == "finished":
        return msg("roadrally.n.finished", mark=event.data[0])
    if kind == "checkpoint":
        return msg("roadrally.n.checkpoint")
    if kind == "drew":
        return counted("roadrally.n.draws", event.data[0])
    return counted("roadrally.n.reshuffles", event.data[0])  # reshuffled: the new deck's size


def _name(names: Mapping[str, str], seat: str | None) -> str:
    return names.get(seat or "", seat or "")


def narrate(events: Sequence[RoadEvent], names: Mapping[str, str], road: Road | None = None) -> list[str]:
    """The channel's lines for `events` (one action's), `names` naming the seats (seat id → name)."""
    lines: list[str] = []
    k = 0
    while k < len(events):
        event = events[k]
        if event.kind in TURN_KINDS:
            end = k
            while end < len(events) and events[end].kind in TURN_KINDS:
                end += 1
            lines += _turn(events[k:end], names, road)
            k = end
        elif event.kind in POINT_KINDS:
            end = k
            while end < len(events) and events[end].kind == event.kind:
                end += 1
            points = [msg("roadrally.n.seat_points", name=_name(names, e.seat), n=e.data[0]) for e in events[k:end]]
            lines.append(msg(POINT_KINDS[event.kind], points=Listed(points, "comma")))
            k = end
        else:
            lines.append(_single(event, names))
            k += 1
    return lines


def _turn(events: Sequence[RoadEvent], names: Mapping[str, str], road: Road | None) -> list[str]:
    """One line per seat, in the order the seats appear (a checkpoint's draw by the last car is
    on that car's own line)."""
    parts: dict[str, list[str]] = {}
    played: dict[str, tuple[int, ...]] = {}
    for event in events:
        seat = event.seat or ""
        if event.kind == "played":
            played[seat] = event.data
        parts.setdefault(seat, []).append(_part(event, played.get(seat, ()), road))
    return [msg("roadrally.n.turn", name=_name(names, seat), parts=Listed(items, "comma"))
            for seat, items in parts.items()]


def _single(event: RoadEvent, names: Mapping[str, str]) -> str:
    name = _name(names, event.seat)
    kind = event.kind
    if kind == "round":
        return msg("roadrally.n.round", n=event.data[0])
    if kind == "dealt":  # the deal's commitment, a 256-bit number shown as the SHA-256 it is
        return msg("roadrally.n.dealt", sha=f"{event.data[0]:064x}")
    if kind == "stage_window":
        return msg("roadrally.n.stage_window", stage=event.data[0])
    if kind == "stage_bypassed":  # C10.8: names no seat
        return msg("roadrally.n.stage_bypassed", stage=event.data[0])
    if kind == "stage_scored":
        return msg("roadrally.n.stage_scored", name=name, stage=event.data[0])
    if kind == "stage_tile":
        return msg("roadrally.n.stage_tile", name=name, stage=event.data[0])
    if kind == "retired":
        return msg("roadrally.n.retired", name=name)
    if kind == "over":
        return msg("roadrally.n.over")
    return msg("roadrally.n.other")
