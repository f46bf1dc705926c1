"""Actions a driver can take, and the events the engine reports back.

Every action has a text (`str(action)`) that `parse` reads back to the same action (the console,
the buttons); the action log stores the versioned JSON form of `bot.engine.rallyman.action_codec`
instead, so a stage replays from its seed and log whatever words were typed.
"""

from __future__ import annotations

from dataclasses import dataclass

LINES = ("interior", "skid", "shortcut")


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll dice one at a time, in order (A6.2–A6.3); `line` names the trajectory (A8) taken by
    the die `dice[line_at]` (the die the line word follows, see `parse`); `end` takes the gear
    card after the last die if the turn is still on."""

    dice: tuple[str, ...]
    line: str | None = None
    end: bool = False
    driver: str | None = None
    line_at: int = 0

    def __str__(self) -> str:
        words = ["roll"]
        for i, die in enumerate(self.dice):
            words.append(die)
            if self.line and i == self.line_at:
                words.append(self.line)
        if self.end:
            words.append("stop")
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn and take the gear card (A6.4)."""

    driver: str | None = None

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Spare:
    """Fit the spare tire at the start of the turn (A14.1)."""

    driver: str | None = None

    def __str__(self) -> str:
        return "spare"


@dataclass(frozen=True, slots=True)
class ChooseLine:
    """Choose the trajectory for the next corner ahead, before rolling into it (A8)."""

    line: str
    driver: str | None = None

    def __str__(self) -> str:
        return f"line {self.line}"


@dataclass(frozen=True, slots=True)
class Retire:
    """Take a car out of the special (the driver left or the host removed them); not a rule of
    the game but of the rally, so it is authorised by the services, not by whose turn it is."""

    target: str
    driver: str | None = None

    def __str__(self) -> str:
        return f"retire {self.target}"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn's deadline passed and the bot ends the turn for the driver (a rally rule, not a
    game rule): with dice used it is a stop (A6.4); with none, the car stands still and takes
    the card of A13.5 (a copy of its top card; 60 s in neutral after a loss of control, OPEN-12)."""

    driver: str | None = None

    def __str__(self) -> str:
        return "timeout"


@dataclass(frozen=True, slots=True)
class Tires:
    """Choose asphalt or snow tires before the first die of a special where tires may be
    changed (RULES A20.2: before SS1 and after an assistance; weather module only). Off-turn
    too: a driver waiting behind the start line may choose while others drive."""

    tires: str  # asphalt | snow
    driver: str | None = None

    def __str__(self) -> str:
        return f"tires {self.tires}"


@dataclass(frozen=True, slots=True)
class Attack:
    """Time attack (A18, module): roll this group of at least 2 dice at once, at the start of a
    turn; the turn then waits for an `Order`. `dice` as written: '1'..'5', 'W'."""

    dice: tuple[str, ...]
    driver: str | None = None

    def __str__(self) -> str:
        return " ".join(["attack", *self.dice])


@dataclass(frozen=True, slots=True)
class Order:
    """The order in which the dice of a time attack are used (A18.3): exactly the rolled dice,
    a white die showing ⚠ written `W!` (plain `W` takes a white without ⚠ first); `line` is taken
    by the die `dice[line_at]` as in `Roll`. `best`: the order the bot proposes (see attack.py)."""

    dice: tuple[str, ...] = ()
    line: str | None = None
    line_at: int = 0
    best: bool = False
    driver: str | None = None

    def __str__(self) -> str:
        if self.best:
            return "order best"
        words = ["order"]
        for i, die in enumerate(self.dice):
            words.append(die)
            if self.line and i == self.line_at:
                words.append(self.line)
        return " ".join(words)


@dataclass(frozen=True, slots=True)
class Place:
    """Place the next die with second markers instead of rolling it (A19, module): one space,
    no face; `line` as for a one-die `Roll`."""

    die: str
    line: str | None = None
    driver: str | None = None

    def __str__(self) -> str:
        return " ".join(["place", self.die, *([self.line] if self.line else [])])


Action = Roll | Stop | Spare | ChooseLine | Retire | Timeout | Tires | Attack | Order | Place
