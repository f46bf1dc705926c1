"""Road Rally USA's game state (RULES C2-C8): the whole truth, hidden parts included. Never shown:
`view.py` builds what a seat may see. Mutable for speed; `clone` before changing (play.apply does)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.engine.core.dice import DiceSource
from bot.engine.roadrally.presets import Preset
from bot.engine.roadrally.road import Road

Phase = Literal["turn", "reshuffle", "mechanic", "stage", "choose", "over"]


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
        return RRState(self.preset, self.sprint, self.road, self.dice.clone(), [s.clone() for s in self.seats],
                       list(self.order), self.turn, self.round, self.phase, self.stamp, dict(self.stage_tiles),
                       set(self.checkpoint_tiles), set(self.reached), list(self.pending), dict(self.answers),
                       self.scored_this_round, list(self.choices), self.mechanic_draw, list(self.revealed),
                       self.final_scored)

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
