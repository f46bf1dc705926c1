"""Dice sources: the only randomness of the engine, injected and part of the game state.

`SeededDice` is a counter-based generator (splitmix64 of seed and draw number): its whole state is
two integers, so a snapshot stores it and a stage replays exactly from its seed and action log.
`ScriptedDice` plays faces and events written by a test or a console script.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

_MASK = (1 << 64) - 1

#: What `pick` draws: the keys of its weights (`Literal` event names keep their type).
Name = TypeVar("Name", bound=str)


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class DiceSource(Protocol):
    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        """Roll `die`; True when the face shows ⚠."""

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        """Draw one of `weights` (loss-of-control event, ...) in proportion to its weight."""

    def shuffle(self, items: list[str]) -> list[str]:
        """A shuffled copy of `items` (shortcut deck at the start of a special)."""

    def clone(self) -> DiceSource: ...

    def to_dict(self) -> dict: ...


class SeededDice:
    """Reproducible dice from a seed; each draw advances a counter."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & _MASK
        self.counter = counter

    def _next(self) -> int:
        self.counter += 1
        return _splitmix64(self.seed ^ _splitmix64(self.counter))

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        return self._next() % faces < hazard_faces

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        total = sum(weights.values())
        r = self._next() % total
        for name, w in weights.items():
            if r < w:
                return name
            r -= w
        raise AssertionError("unreachable: weights sum checked by the ruleset")

    def shuffle(self, items: list[str]) -> list[str]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self._next() % (i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def clone(self) -> SeededDice:
        return SeededDice(self.seed, self.counter)

    def to_dict(self) -> dict:
        return {"type": "seeded", "seed": self.seed, "counter": self.counter}


class ScriptedDiceExhausted(RuntimeError):
    """A scripted scenario asked for more dice than it wrote (a bug in the script, not a rule)."""


class ScriptedDice:
    """Faces and events in the order they will be used: `faces` are ⚠ booleans, `events` names."""

    __slots__ = ("ei", "events", "faces", "fi")

    def __init__(self, faces: list[bool] | None = None, events: list[str] | None = None,
                 fi: int = 0, ei: int = 0) -> None:
        self.faces = list(faces or [])
        self.events = list(events or [])
        self.fi = fi
        self.ei = ei

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        if self.fi >= len(self.faces):
            raise ScriptedDiceExhausted(f"the dice script has no face left for die {die}")
        self.fi += 1
        return self.faces[self.fi - 1]

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        if self.ei >= len(self.events):
            raise ScriptedDiceExhausted(f"the dice script has no {kind} left")
        self.ei += 1
        value = self.events[self.ei - 1]
        for name in weights:  # the key equal to the scripted text, typed as the weights are
            if name == value:
                return name
        raise ScriptedDiceExhausted(f"scripted {kind} '{value}' is not one of {', '.join(weights)}")

    def shuffle(self, items: list[str]) -> list[str]:
        return list(items)

    def clone(self) -> ScriptedDice:
        return ScriptedDice(self.faces, self.events, self.fi, self.ei)

    def to_dict(self) -> dict:
        return {"type": "scripted", "faces": self.faces, "events": self.events, "fi": self.fi, "ei": self.ei}


def dice_from_dict(d: dict) -> DiceSource:
    if d["type"] == "seeded":
        return SeededDice(d["seed"], d["counter"])
    return ScriptedDice(d["faces"], d["events"], d["fi"], d["ei"])


class CleanDice:
    """Dice that never show ⚠: a dry run finds refusals before any real die is rolled."""

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        return False

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        return next(iter(weights))

    def shuffle(self, items: list[str]) -> list[str]:
        return list(items)

    def clone(self) -> CleanDice:
        return self

    def to_dict(self) -> dict:
        """Never called: a dry-run state is thrown away, never saved."""
        raise TypeError("the dice of a dry run are never saved")
