"""Road Rally USA's game state (RULES C2-C8): the whole truth, hidden parts included. Never shown:
`view.py` builds what a seat may see. Mutable for speed; `clone` before changing (play.apply does).

Saved as canonical JSON (`RRState.to_dict` / `RRState.from_dict`, schema `SCHEMA`): the road by its
course name (`Road.name`, read back with `load_course`), the preset by its name, the dice by their
own `to_dict`. A hand-made road (tests) has no stored course: `from_dict` is then given it as `road`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from bot.engine.core.dice import DiceSource, dice_from_dict
from bot.engine.core.secret_dice import SecretDice
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.presets import Preset, preset
from bot.engine.roadrally.road import Road

Phase = Literal["turn", "reshuffle", "mechanic", "stage", "choose", "over"]
PHASES: tuple[Phase, ...] = ("turn", "reshuffle", "mechanic", "stage", "choose", "over")
SCHEMA = 1  # the saved form's version: `from_dict` refuses any other


@dataclass(slots=True)
class SeatState:
    id: str
    hand: list[int]
    deck: list[int]          # draw deck, top first
    discard: list[int]
    stage_cards: list[int]   # secret, unscored (C2)
    pos: int = 0             # road space index
    arrived: int = 0         # arrival stamp in its space: lower is ahead (C4)
    mark: int | None = None  # finish mark 1, 2, ... (C8)
    scored_cards: int = 0    # stage cards scored (C6.4)
    vp: int = 0              # VP tiles
    stage_tiles: list[int] = field(default_factory=list)
    checkpoints: int = 0
    retired: bool = False

    def clone(self) -> SeatState:
        return SeatState(self.id, list(self.hand), list(self.deck), list(self.discard), list(self.stage_cards),
                         self.pos, self.arrived, self.mark, self.scored_cards, self.vp, list(self.stage_tiles),
                         self.checkpoints, self.retired)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "hand": list(self.hand), "deck": list(self.deck), "discard": list(self.discard),
                "stage_cards": list(self.stage_cards), "pos": self.pos, "arrived": self.arrived, "mark": self.mark,
                "scored_cards": self.scored_cards, "vp": self.vp, "stage_tiles": list(self.stage_tiles),
                "checkpoints": self.checkpoints, "retired": self.retired}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> SeatState:
        return SeatState(str(d["id"]), _ints(d["hand"]), _ints(d["deck"]), _ints(d["discard"]),
                         _ints(d["stage_cards"]), int(d["pos"]), int(d["arrived"]),
                         None if d["mark"] is None else int(d["mark"]), int(d["scored_cards"]), int(d["vp"]),
                         _ints(d["stage_tiles"]), int(d["checkpoints"]), bool(d["retired"]))


def _dice(d: dict[str, Any]) -> DiceSource:
    """The saved dice: the secret deal's source (`SecretDice`), or one of the core's."""
    if d.get("type") == "secret":
        return SecretDice(str(d["key"]), int(d["counter"]))
    return dice_from_dict(d)


def _ints(items: list[Any]) -> list[int]:
    return [int(x) for x in items]


@dataclass(slots=True)
class RRState:
    preset: Preset
    sprint: bool
    road: Road
    dice: DiceSource
    seats: list[SeatState]
    order: list[int]                       # this round's turn order, seat indexes (C3)
    turn: int = 0                          # index in `order`
    round: int = 1
    phase: Phase = "turn"
    stamp: int = 0                         # last arrival stamp given
    stage_tiles: dict[int, int] = field(default_factory=dict)   # space -> stage number still on the road
    checkpoint_tiles: set[int] = field(default_factory=set)     # spaces whose checkpoint tile is there
    reached: set[int] = field(default_factory=set)              # stage numbers reached this round (C6.1)
    pending: list[int] = field(default_factory=list)            # reached stages still to resolve, ascending
    answers: dict[int, bool] = field(default_factory=dict)      # stage window: seat -> play (secret)
    scored_this_round: int = 0
    choices: list[tuple[int, int, bool]] = field(default_factory=list)  # (seat, points, doubled) to ask
    mechanic_draw: int = 0                 # the draw owed after a Mechanic reorder
    revealed: list[tuple[int, int]] = field(default_factory=list)       # (stage, seat) cards played
    final_scored: bool = False

    def clone(self) -> RRState:
        """A full copy: every seat and container copied, nothing shared but the frozen preset and
        road. Written out slot by slot (about twice as quick as calling the constructors)."""
        _new = object.__new__
        c = _new(RRState)
        c.preset, c.sprint, c.road, c.dice = self.preset, self.sprint, self.road, self.dice.clone()
        seats = []
        for s in self.seats:
            t = _new(SeatState)
            t.id, t.hand, t.deck, t.discard, t.stage_cards = s.id, s.hand[:], s.deck[:], s.discard[:], s.stage_cards[:]
            t.pos, t.arrived, t.mark, t.scored_cards, t.vp = s.pos, s.arrived, s.mark, s.scored_cards, s.vp
            t.stage_tiles, t.checkpoints, t.retired = s.stage_tiles[:], s.checkpoints, s.retired
            seats.append(t)
        c.seats, c.order, c.turn, c.round, c.phase = seats, self.order[:], self.turn, self.round, self.phase
        c.stamp, c.stage_tiles, c.checkpoint_tiles = self.stamp, self.stage_tiles.copy(), self.checkpoint_tiles.copy()
        c.reached, c.pending, c.answers = self.reached.copy(), self.pending[:], self.answers.copy()
        c.scored_this_round, c.choices, c.mechanic_draw = self.scored_this_round, self.choices[:], self.mechanic_draw
        c.revealed, c.final_scored = self.revealed[:], self.final_scored
        return c

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data, the same for the same state: sets sorted, the dicts
        keyed by numbers as [key, value] pairs in their own order (the order play iterates them)."""
        return {"schema": SCHEMA, "course": self.road.name, "preset": self.preset.name, "sprint": self.sprint,
                "dice": self.dice.to_dict(), "seats": [s.to_dict() for s in self.seats], "order": list(self.order),
                "turn": self.turn, "round": self.round, "phase": self.phase, "stamp": self.stamp,
                "stage_tiles": [[space, n] for space, n in self.stage_tiles.items()],
                "checkpoint_tiles": sorted(self.checkpoint_tiles), "reached": sorted(self.reached),
                "pending": list(self.pending), "answers": [[i, yes] for i, yes in self.answers.items()],
                "scored_this_round": self.scored_this_round,
                "choices": [[i, points, doubled] for i, points, doubled in self.choices],
                "mechanic_draw": self.mechanic_draw, "revealed": [[stage, i] for stage, i in self.revealed],
                "final_scored": self.final_scored}

    @staticmethod
    def from_dict(d: dict[str, Any], road: Road | None = None) -> RRState:
        """The state saved by `to_dict`. The road is `load_course(d["course"])`, or `road` when given
        (a hand-made test road, which no course name can load): its name must be the saved one."""
        if d.get("schema") != SCHEMA:
            raise ValueError(f"Road Rally USA state: schema {d.get('schema')!r} saved, {SCHEMA} expected")
        course = str(d["course"])
        if road is None:
            road = load_course(course)
        elif road.name != course:
            raise ValueError(f"Road Rally USA state: saved on course {course!r}, given road {road.name!r}")
        phase = next((p for p in PHASES if p == d["phase"]), None)
        if phase is None:
            raise ValueError(f"Road Rally USA state: phase {d['phase']!r} unknown")
        return RRState(preset(str(d["preset"])), bool(d["sprint"]), road, _dice(d["dice"]),
                       [SeatState.from_dict(s) for s in d["seats"]], _ints(d["order"]), int(d["turn"]),
                       int(d["round"]), phase, int(d["stamp"]),
                       {int(space): int(n) for space, n in d["stage_tiles"]}, set(_ints(d["checkpoint_tiles"])),
                       set(_ints(d["reached"])), _ints(d["pending"]),
                       {int(i): bool(yes) for i, yes in d["answers"]}, int(d["scored_this_round"]),
                       [(int(i), int(points), bool(doubled)) for i, points, doubled in d["choices"]],
                       int(d["mechanic_draw"]), [(int(stage), int(i)) for stage, i in d["revealed"]],
                       bool(d["final_scored"]))

    @property
    def players(self) -> int:
        return len(self.seats)

    def index(self, seat: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.id == seat:
                return i
        return None

    def current(self) -> int:
        return self.order[self.turn]

    def card_limit(self) -> int:
        return self.preset.sprint.card_limit if self.sprint else self.preset.card_limit[str(self.players)]

    def race_order(self) -> list[int]:
        """Active seats from the leader to the last (C3, C4: further along, then earlier arrival)."""
        active = [i for i, s in enumerate(self.seats) if not s.retired]
        return sorted(active, key=lambda i: (-self.seats[i].pos, self.seats[i].arrived))

    def active(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.retired]
