"""The state of a DIRT rally (RULES B2–B13): the cars, the stage being driven, the round and the
turn in progress, the damage-token bag and the "−1" tokens on tiles.

Plain data, changed in place by the rally's `apply` (third pass: no copy per action, as
python-chess pushes moves onto one board and OpenSpiel's `apply_action` changes its state): a caller
that needs the state as it was `clone`s it first (the `Game` adapter does, once per command).
Written to a deterministic JSON-safe dict; the loaded stage and ruleset are not serialised: they
are reloaded by name. A state from `new_rally`, `clone` or `from_dict` shares nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.engine.core.dice import DiceSource, dice_from_dict
from bot.engine.dirt.ruleset import DAMAGE_TOKENS, DirtRuleset, load_ruleset
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.stages.model import DirtStage

Pose = Literal["normal", "drift", "slide"]
Status = Literal["waiting", "racing", "finished", "out", "retired"]
#: why a car is out of the rally (its `reason`)
OUT_REASONS = ("knocked_out", "overspeed", "jump", "damage", "retired")
SCHEMA = 1
_new = object.__new__


def no_tokens() -> dict[str, int]:
    """No token of any kind, in `DAMAGE_TOKENS`' order (a new one per turn: `dict.fromkeys` is quickest)."""
    return dict.fromkeys(DAMAGE_TOKENS, 0)


def token_counts(d: dict[str, Any], what: str) -> dict[str, int]:
    """Counts by token kind read back from JSON, in `DAMAGE_TOKENS`' order whatever order the text
    had (a snapshot's keys are sorted): what iterates over them, the bag's draw first of all, then
    goes the same way in a reloaded state as in the state that was saved (B13.8.8)."""
    if set(d) != set(DAMAGE_TOKENS):
        raise ValueError(f"{what}: must count exactly the token kinds {', '.join(DAMAGE_TOKENS)}, not {sorted(d)}")
    return {kind: int(d[kind]) for kind in DAMAGE_TOKENS}


@dataclass
class Car:
    """One driver's car: where it is, its gear and dashboard, and its times."""

    space: int | None = None  # None before entering the stage (on the grid) and when out
    gear: int = 0
    pose: Pose = "normal"
    status: Status = "waiting"
    reason: str | None = None
    tokens: dict[str, int] = field(default_factory=no_tokens)  # damage tokens on the dashboard (B13.4)
    spare: bool = True  # the spare tire card (B13.6, A14)
    sisu: bool = True  # the SISU token, when the module is on (B13.6, A22)
    seconds_tokens: int = 0
    cards: list[int] = field(default_factory=list)  # this stage's time cards, in seconds (B13.2)
    stage_times: list[int | None] = field(default_factory=list)
    lane: int = 0  # the lane a car keeps when no direction is named (0 left, 1 right)

    def clone(self) -> Car:
        """A copy sharing nothing that changes in place (the tokens, the cards, the stage times)."""
        car = _new(Car)
        car.__dict__.update(self.__dict__)
        car.tokens, car.cards, car.stage_times = self.tokens.copy(), self.cards.copy(), self.stage_times.copy()
        return car

    def damage(self) -> int:
        """Tokens that count toward the knock-out: every dashboard token but OK! (B13.4, B13.8.4)."""
        return sum(n for kind, n in self.tokens.items() if kind != "ok")

    def to_dict(self) -> dict[str, Any]:
        return {"space": self.space, "gear": self.gear, "pose": self.pose, "status": self.status,
                "reason": self.reason, "tokens": dict(self.tokens), "spare": self.spare, "sisu": self.sisu,
                "seconds_tokens": self.seconds_tokens, "cards": list(self.cards),
                "stage_times": list(self.stage_times), "lane": self.lane}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Car:
        return Car(d["space"], d["gear"], d["pose"], d["status"], d["reason"], token_counts(d["tokens"], "tokens"),
                   d["spare"],
                   d["sisu"], d["seconds_tokens"], list(d["cards"]), list(d["stage_times"]), d["lane"])


class Readings:
    """What the state and its public part (`public.PublicState`, what a view holds) both answer:
    the ruleset and stage by name, and the seat to act."""

    __slots__ = ()
    ruleset: str
    stages: Sequence[str]
    stage_index: int
    order: Sequence[str]
    turn: int
    over: bool
    someone_finished: bool

    @property
    def rules(self) -> DirtRuleset:
        return load_ruleset(self.ruleset)

    @property
    def stage(self) -> DirtStage:
        return load_stage(self.stages[self.stage_index])

    # what the protocol, the board and the AI read
    def to_act(self) -> str | None:
        if self.over or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    @property
    def leading(self) -> bool:
        """Whether the seat to act is the round's first player while leader dice are in play (B6.4)."""
        return bool(self.order) and self.turn == 0 and not self.someone_finished


@dataclass
class DirtState(Readings):
    """A whole rally. `order` is this round's order of play (B4, B13.8.1), `turn` the index in it
    of the seat to act; `turn_dice` holds (die, ⚠ shown, space) of each die rolled this turn."""

    seats: list[tuple[str, str]]
    stages: list[str]
    assistance: list[bool]
    modules: dict[str, bool]
    ruleset: str
    dice: DiceSource
    cars: dict[str, Car]
    stage_index: int = 0
    start_order: list[str] = field(default_factory=list)  # this stage's start order (B5, B13.8.10)
    round: int = 1
    order: list[str] = field(default_factory=list)
    previous_order: list[str] = field(default_factory=list)  # ties keep it (B13.6)
    turn: int = 0
    turn_dice: list[tuple[str, bool, int]] = field(default_factory=list)
    turn_path: list[int] = field(default_factory=list)
    hazards: int = 0
    #: the dice and the path of the turn played last, kept for the board posted after it
    last_dice: list[tuple[str, bool, int]] = field(default_factory=list)
    last_path: list[int] = field(default_factory=list)
    fresh: dict[str, int] = field(default_factory=no_tokens)  # drawn this turn: in effect from the next
    sisu_active: bool = False  # SISU used this turn: ⚠ ignored for the rest of it (A22)
    minus: dict[int, list[str]] = field(default_factory=dict)  # tile → who drew each "−1" token (B10)
    bag: dict[str, int] = field(default_factory=no_tokens)
    someone_finished: bool = False
    over: bool = False
    #: what the engine worked out for the seat to act on the state as it is (a `probe.Probe`,
    #: which knows the state: here only held, so typed `object`): not part of the game, never
    #: serialised, compared or copied; dropped by any change
    probe: object | None = field(default=None, init=False, repr=False, compare=False)

    def clone(self) -> DirtState:
        """A copy sharing nothing that changes: what a caller keeps before `apply` changes a state."""
        return replace(self, seats=list(self.seats), stages=list(self.stages),
                       assistance=list(self.assistance),
                       modules=dict(self.modules), dice=self.dice.clone(),
                       cars={s: c.clone() for s, c in self.cars.items()}, start_order=list(self.start_order),
                       order=list(self.order), previous_order=list(self.previous_order),
                       turn_dice=list(self.turn_dice), turn_path=list(self.turn_path), fresh=dict(self.fresh),
                       last_dice=list(self.last_dice), last_path=list(self.last_path),
                       minus={t: list(v) for t, v in self.minus.items()}, bag=dict(self.bag))

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "seats": [list(s) for s in self.seats], "stages": list(self.stages),
                "assistance": list(self.assistance), "modules": dict(sorted(self.modules.items())),
                "ruleset": self.ruleset, "dice": self.dice.to_dict(),
                "cars": {s: self.cars[s].to_dict() for s, _ in self.seats}, "stage_index": self.stage_index,
                "start_order": list(self.start_order), "round": self.round, "order": list(self.order),
                "previous_order": list(self.previous_order), "turn": self.turn,
                "turn_dice": [[d, h, s] for d, h, s in self.turn_dice], "turn_path": list(self.turn_path),
                "last_dice": [[d, h, s] for d, h, s in self.last_dice], "last_path": list(self.last_path),
                "hazards": self.hazards, "fresh": dict(self.fresh), "sisu_active": self.sisu_active,
                "minus": {str(t): list(v) for t, v in sorted(self.minus.items())}, "bag": dict(self.bag),
                "someone_finished": self.someone_finished, "over": self.over}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> DirtState:
        if d.get("schema") != SCHEMA:
            raise ValueError(f"schema: a DIRT state of schema {SCHEMA} is expected, not {d.get('schema')!r}")
        return DirtState(
            seats=[(str(a), str(b)) for a, b in d["seats"]], stages=list(d["stages"]),
            assistance=list(d["assistance"]), modules=dict(d["modules"]), ruleset=d["ruleset"],
            dice=dice_from_dict(d["dice"]), cars={str(s): Car.from_dict(d["cars"][str(s)]) for s, _ in d["seats"]},
            stage_index=d["stage_index"], start_order=list(d["start_order"]), round=d["round"],
            order=list(d["order"]), previous_order=list(d["previous_order"]), turn=d["turn"],
            turn_dice=[(str(a), bool(b), int(c)) for a, b, c in d["turn_dice"]], turn_path=list(d["turn_path"]),
            last_dice=[(str(a), bool(b), int(c)) for a, b, c in d["last_dice"]], last_path=list(d["last_path"]),
            hazards=d["hazards"], fresh=token_counts(d["fresh"], "fresh"), sisu_active=d["sisu_active"],
            minus={int(t): list(v) for t, v in sorted(d["minus"].items(), key=lambda tv: int(tv[0]))},
            bag=token_counts(d["bag"], "bag"),
            someone_finished=d["someone_finished"], over=d["over"])
