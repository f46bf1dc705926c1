"""The game state of one special stage (RULES A24 "Driver state"), and its JSON form.

`apply` never mutates the state it is given: it forks it (`GameState.fork`: a copy in which the
cars the action does not change are shared until `own` copies one), changes the fork and returns
it, so a refused action (an exception) leaves the caller's state untouched. Copies are written
out by hand because the AI and the benchmarks make thousands of them per second; the deck, the
dirt markers and the round's queues are replaced, never changed in place, so copies share them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from bot.engine.core.dice import DiceSource, dice_from_dict
from bot.engine.rallyman.course import Course
from bot.engine.rallyman.out_reasons import OutReason
from bot.engine.rallyman.ruleset import Ruleset, load_ruleset
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import START, Stage
from bot.engine.rallyman.stages.weather import with_weather

WAITING, RACING, FINISHED, OUT = "waiting", "racing", "finished", "out"

_new = object.__new__  # the clones below fill every slot themselves

#: How a car stands on its space: facing forward, spun, or off the road on one side (A11.2).
Pose = Literal["normal", "spun", "off_left", "off_right"]


@dataclass(slots=True)
class Card:
    """A card on a chrono pile: gear card (face up), loss of control (back), spare tire, no move."""

    kind: str  # gear | loc | spare | nomove
    gear: int  # the gear it leaves the car in (loss of control and spare: 0)
    seconds: int
    event: str | None = None  # loss of control: spin | off_left | off_right

    def to_list(self) -> list:
        return [self.kind, self.gear, self.seconds, self.event]


@dataclass(slots=True)
class Car:
    id: str
    name: str
    seat: int
    tires: str = "asphalt"
    status: str = WAITING
    position: int = START
    pose: Pose = "normal"
    resume: int | None = None  # where the car goes back on the road (A11.6)
    arrived: int = 0  # arrival stamp on its space (A5.2)
    pile: list[Card] = field(default_factory=list)
    lost_black: int = 0
    flats: int = 0
    spare: bool = True
    sisu: bool = True
    seconds: int = 0  # second markers held: won by time attacks (A18.4), spent by A19
    line: str | None = None  # trajectory chosen ahead for the next corner
    splits: list[list[int]] = field(default_factory=list)  # [space id, time] (A21)
    finish_rank: int | None = None
    out_reason: OutReason | None = None  # why out of the special (`bot.engine.rallyman.out_reasons`)
    last_hazards: int = 0
    corner_dirt: list[int] | None = None  # [corner id, dirt markers when the car arrived in it] (A8.5)

    @property
    def gear(self) -> int:
        """Current gear between turns: the gear of the top card of the chrono pile (RULES 0.2)."""
        return self.pile[-1].gear if self.pile else 0

    @property
    def time(self) -> int:
        """Stage time so far: chrono pile minus second markers (A15.2)."""
        return sum([c.seconds for c in self.pile]) - self.seconds

    @property
    def on_road(self) -> bool:
        return self.pose not in ("off_left", "off_right")

    def clone(self) -> Car:
        # Written out field by field (`tests/engine/test_engine_state_clone.py` checks that every
        # slot is copied): the AI and the benchmarks clone cars millions of times. Cards are never
        # mutated once on the pile, so the pile list is copied but not its cards.
        c = _new(Car)
        c.id, c.name, c.seat, c.tires, c.status = self.id, self.name, self.seat, self.tires, self.status
        c.position, c.pose, c.resume, c.arrived = self.position, self.pose, self.resume, self.arrived
        c.pile, c.lost_black, c.flats, c.spare = self.pile[:], self.lost_black, self.flats, self.spare
        c.sisu, c.seconds, c.line, c.splits = self.sisu, self.seconds, self.line, self.splits[:]
        c.finish_rank, c.out_reason, c.last_hazards = self.finish_rank, self.out_reason, self.last_hazards
        c.corner_dirt = self.corner_dirt  # replaced, never changed in place (`dirt.note_corner_arrival`)
        return c

    def to_dict(self) -> dict:
        d = {name: getattr(self, name) for name in Car.__slots__}
        d["pile"] = [card.to_list() for card in self.pile]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Car:
        d = dict(d)
        d["pile"] = [Card(*c) for c in d["pile"]]
        return cls(**d)


@dataclass(slots=True)
class TurnState:
    """The turn being played: dice used, ⚠ counted, gear reached (A6)."""

    car: int
    gear: int  # current gear (A6.2): top card at start, then the last gear die used
    used: list[str] = field(default_factory=list)  # dice in the order used ('1'..'5', 'W')
    hazards: int = 0
    snow_hazards: int = 0
    whites: int = 0
    whites_asphalt: int = 0
    last_gear_die: int | None = None
    sisu_active: bool = False
    path: list[list] = field(default_factory=list)  # [space, die, hazard]
    # Rules+ (absent from the JSON while unused, so snapshots without the modules stay identical):
    attack: list[list] | None = None  # time attack rolled, waiting for its order: [die, hazard] (A18.3)
    placed: int = 0  # dice placed with second markers this turn (A19.1 cost)

    @classmethod
    def begin(cls, car: int, gear: int) -> TurnState:
        """`TurnState(car=car, gear=gear)`, written out: a turn starts after every few actions."""
        t = _new(cls)
        t.car, t.gear, t.used, t.hazards, t.snow_hazards, t.whites, t.whites_asphalt = car, gear, [], 0, 0, 0, 0
        t.last_gear_die, t.sisu_active, t.path, t.attack, t.placed = None, False, [], None, 0
        return t

    @property
    def started(self) -> bool:
        return bool(self.used)

    @property
    def black_used(self) -> int:
        return len(self.used) - self.whites

    def clone(self) -> TurnState:
        # Written out, as `Car.clone`; `attack` is replaced, never changed in place (attack.py).
        t = _new(TurnState)
        t.car, t.gear, t.used, t.hazards = self.car, self.gear, self.used[:], self.hazards
        t.snow_hazards, t.whites, t.whites_asphalt = self.snow_hazards, self.whites, self.whites_asphalt
        t.last_gear_die, t.sisu_active, t.path = self.last_gear_die, self.sisu_active, self.path[:]
        t.attack, t.placed = self.attack, self.placed
        return t

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in TurnState.__slots__
                if name not in _OPTIONAL_TURN or getattr(self, name) != _OPTIONAL_TURN[name]}


#: TurnState fields written to JSON only when they differ from these defaults (Rules+ modules).
_OPTIONAL_TURN: dict[str, object] = {"attack": None, "placed": 0}


@dataclass(slots=True)
class GameConfig:
    """What a special is set up with; together with the action log it rebuilds the state."""

    stage: str
    ruleset: str = "classic"
    seed: int = 0
    modules: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"stage": self.stage, "ruleset": self.ruleset, "seed": self.seed, "modules": dict(self.modules)}


class Readings:
    """What the state and its public part (`public.PublicState`, what a view holds) both answer,
    read from the cars and the turn alone."""

    __slots__ = ()
    cars: Sequence[Car]
    turn: TurnState | None

    @property
    def finished(self) -> bool:
        """The whole rally is over (with a course, the last special is over: `apply` moves on to
        the next special as soon as one ends)."""
        return self.turn is None and all(c.status in (FINISHED, OUT) for c in self.cars)

    @property
    def active(self) -> Car | None:
        return self.cars[self.turn.car] if self.turn else None

    def current_turn(self) -> TurnState:
        """The turn being played, for code that only runs during one (`apply` refuses every
        action once no turn is left): no turn here is a bug in the caller, not a user error."""
        if self.turn is None:
            raise AssertionError("no turn is being played")
        return self.turn

    def car_by_id(self, driver_id: str) -> Car | None:
        for car in self.cars:
            if car.id == driver_id:
                return car
        return None


@dataclass(slots=True)
class GameState(Readings):
    stage: Stage
    rules: Ruleset
    config: GameConfig
    cars: list[Car]
    dice: DiceSource
    deck: list[str]
    dirt: dict[int, int] = field(default_factory=dict)  # corner id → markers (A8.5)
    round: int = 0
    queue: list[int] = field(default_factory=list)  # cars still to play this round, in order
    entry: list[int] = field(default_factory=list)  # consecutive stagger: remaining entry turns (A4.2 FR)
    turn: TurnState | None = None
    arrival: int = 0
    finishers: int = 0
    last_path: list[list] = field(default_factory=list)
    last_driver: int | None = None
    moves: int = 0  # actions applied; also the version the engine knows
    course: Course | None = None  # a rally of several specials (A2); None for a single special
    weather: tuple[str, ...] | None = None  # zones on their snow side (A20.1, weather module); None: off
    # Bit i set: `cars[i]` belongs to this state alone and may be changed in place. A state made
    # any way but `fork` owns all its cars (-1); see `fork` and `own`. Not part of the game.
    owned: int = field(default=-1, repr=False, compare=False)

    def clone(self) -> GameState:
        """A copy sharing nothing that the engine changes in place: every car is copied."""
        s = self._copy_rest()
        s.cars = [c.clone() for c in self.cars]
        s.owned = -1
        return s

    def fork(self, ci: int) -> GameState:
        """A copy for one action of car `ci` (`game.apply`): car `ci` is copied and
        the others are shared with `self` until `own` copies one, so an action pays for the car
        it moves, not for the whole field. Code that changes any car but the one whose turn it
        is calls `own` first (today: the car whose turn starts, `order._start_turn`);
        `tests/engine/test_engine_state_clone.py` plays whole rallies with every module and
        checks that `apply` never changes the state it is given."""
        s = self._copy_rest()
        cars = s.cars = self.cars[:]
        cars[ci] = cars[ci].clone()
        s.owned = 1 << ci
        return s

    def own(self, ci: int) -> Car:
        """Car `ci`, copied first if it is still shared with the state this one was forked from;
        call it before changing a car that may not be the one the action started with."""
        if not self.owned >> ci & 1:
            self.cars[ci] = self.cars[ci].clone()
            self.owned |= 1 << ci
        return self.cars[ci]

    def _copy_rest(self) -> GameState:
        s = _new(GameState)
        s.stage, s.rules, s.config = self.stage, self.rules, self.config
        s.dice = self.dice.clone()
        # the engine replaces these four, never changes them in place (turn.py, order.py), so
        # copies share them
        s.deck, s.dirt, s.queue, s.entry = self.deck, self.dirt, self.queue, self.entry
        s.round, s.arrival, s.finishers, s.moves = self.round, self.arrival, self.finishers, self.moves
        turn = self.turn
        s.turn = turn.clone() if turn is not None else None
        s.last_path = self.last_path  # replaced at the end of a turn, never changed in place
        s.last_driver = self.last_driver
        s.course = self.course  # never changed in place: the move to the next special replaces it
        s.weather = self.weather
        return s

    def to_dict(self) -> dict:
        data = self._special_dict()
        if self.course is not None:  # absent for a single special, so older snapshots stay identical
            data["course"] = self.course.to_dict()
        if self.weather is not None:  # absent without the weather module (A20), as for the course
            data["weather"] = list(self.weather)
        return data

    def _special_dict(self) -> dict:
        return {
            "config": self.config.to_dict(),
            "cars": [c.to_dict() for c in self.cars],
            "dice": self.dice.to_dict(),
            "deck": list(self.deck),
            "dirt": {str(k): v for k, v in sorted(self.dirt.items())},
            "round": self.round,
            "queue": list(self.queue),
            "entry": list(self.entry),
            "turn": self.turn.to_dict() if self.turn else None,
            "arrival": self.arrival,
            "finishers": self.finishers,
            "last_path": self.last_path,
            "last_driver": self.last_driver,
            "moves": self.moves,
        }

    @classmethod
    def from_dict(cls, d: dict, stage: Stage | None = None, rules: Ruleset | None = None) -> GameState:

        config = GameConfig(**d["config"])
        stage = stage or load_stage(config.stage)
        rules = rules or load_ruleset(config.ruleset).with_modules(**config.modules)
        weather = tuple(d["weather"]) if d.get("weather") is not None else None
        if weather is not None:  # the special's weather roll (A20.1) on the cached stage

            stage = with_weather(stage, weather)
        turn = TurnState(**d["turn"]) if d["turn"] else None
        return cls(stage=stage, rules=rules, config=config, cars=[Car.from_dict(c) for c in d["cars"]],
                   dice=dice_from_dict(d["dice"]), deck=list(d["deck"]),
                   dirt={int(k): v for k, v in d["dirt"].items()}, round=d["round"], queue=list(d["queue"]),
                   entry=list(d["entry"]), turn=turn, arrival=d["arrival"], finishers=d["finishers"],
                   last_path=d["last_path"], last_driver=d["last_driver"], moves=d["moves"],
                   course=Course.from_dict(d["course"]) if d.get("course") else None, weather=weather)
