"""Actions a driver can take, and the events the engine reports back.

Every action has a canonical text (`str(action)`) that `parse` reads back to the same action: the
action log stores that text, so a stage replays from its seed and log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


Action = Roll | Stop | Spare | ChooseLine | Retire | Timeout


@dataclass(frozen=True, slots=True)
class Event:
    """Something a spectator should be told. `kind` is the message id suffix in data/i18n
    (`event.<kind>`); `params` fill its placeholders."""

    kind: str
    driver: str | None = None
    params: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "driver": self.driver, "params": dict(self.params)}
