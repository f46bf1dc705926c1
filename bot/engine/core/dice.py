"""Dice sources: the only randomness of the engine, injected and part of the game state.

`SeededDice` is a counter-based generator (splitmix64 of seed and draw number): its whole state is
two integers, so a snapshot stores it and a stage replays exactly from its seed and action log.
`ScriptedDice` plays faces and events written by a test or a console script. `StreamDice` serves
league rounds (DESIGN §6 fair dice): every die, event kind and deck has its own named stream
derived from a secret round seed, so a run is a pure function of (seed, driver, actions).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Protocol, TypeVar

_MASK = (1 << 64) - 1
_new = object.__new__

#: What `pick` draws: the keys of its weights (`Literal` event names keep their type).
Name = TypeVar("Name", bound=str)


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


#: `_splitmix64(n)` for the first draw numbers: the half of a seeded draw that is the same for
#: every seed (a special draws a few hundred times, a rally a few thousand). Made at import and
#: never changed, so threads replaying results share it safely.
_COUNTERS: tuple[int, ...] = tuple(_splitmix64(n) for n in range(4096))


def _pick(value: int, weights: dict[Name, int]) -> Name:
    """The key of `weights` that a draw `value` falls on, in proportion to the weights."""
    r = value % sum(weights.values())
    for name, w in weights.items():
        if r < w:
            return name
        r -= w
    raise AssertionError("unreachable: weights sum checked by the ruleset")


def _shuffle(draw: Callable[[], int], items: list[str]) -> list[str]:
    """Fisher–Yates with one draw per position, from the last."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = draw() % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


class DiceSource(Protocol):
    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        """Roll `die`; True when the face shows ⚠."""

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        """Draw one of `weights` (loss-of-control event, ...) in proportion to its weight.

        The draw walks `weights` in its iteration order, so a caller passes them in a fixed order
        (a ruleset's, a tuple of kinds): never a dict of the game state as read back from a
        snapshot, whose keys are sorted (a reloaded rally would draw another outcome, RULES B13.8)."""

    def shuffle(self, items: list[str]) -> list[str]:
        """A shuffled copy of `items` (shortcut deck at the start of a special)."""

    def clone(self) -> DiceSource: ...

    def to_dict(self) -> dict: ...

    def common(self) -> DiceSource:
        """The dice of what is the same for every driver of a round (the weather roll, A20.1);
        for a seeded or scripted source, the source itself."""


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
        # `self._next() % faces < hazard_faces`, written out: one die is rolled per die played
        self.counter = n = self.counter + 1
        x = self.seed ^ (_COUNTERS[n] if 0 <= n < 4096 else _splitmix64(n))
        x = (x + 0x9E3779B97F4A7C15) & _MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        return (x ^ (x >> 31)) % faces < hazard_faces

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        return _pick(self._next(), weights)

    def shuffle(self, items: list[str]) -> list[str]:
        return _shuffle(self._next, items)

    def clone(self) -> SeededDice:
        d = _new(SeededDice)  # the seed is already masked
        d.seed, d.counter = self.seed, self.counter
        return d

    def common(self) -> SeededDice:
        return self

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

    def common(self) -> ScriptedDice:
        return self

    def to_dict(self) -> dict:
        return {"type": "scripted", "faces": self.faces, "events": self.events, "fi": self.fi, "ei": self.ei}


DICE_MODES = ("personal", "shared")


def stream_keys(seed_hex: str, driver: str, mode: str) -> tuple[str, str]:
    """(key of the driver's dice, key of the round's common dice) from a round's secret seed.

    `personal`: the driver's key hashes the seed with the driver id, so a second account learns
    nothing of anybody else's dice. `shared`: one key for everybody, so the k-th roll of each die
    is the same for every driver. The common key (weather) is the same for all in both modes.
    SHA-256 with distinct prefixes: no key reveals the seed or another key."""
    if mode not in DICE_MODES:
        raise ValueError(f"dice mode must be one of {', '.join(DICE_MODES)}, not {mode!r}")
    seed = bytes.fromhex(seed_hex)
    own = b"rallybot/personal/" + seed + b"/" + driver.encode() if mode == "personal" else b"rallybot/shared/" + seed
    return hashlib.sha256(own).hexdigest(), hashlib.sha256(b"rallybot/common/" + seed).hexdigest()


class StreamDice:
    """Named streams: die `3` draws its k-th face from stream `die:3`, a loss-of-control event
    from `pick:<kind>`, the shortcut deck from `deck`; `common()` gives the round's common
    streams (`weather:…`). Each stream is splitmix64 of (SHA-256 of key and stream name) and its
    own counter, so what one die shows never depends on how many other dice were rolled; the
    counters live in the game state with the keys."""

    __slots__ = ("_seeds", "common_key", "counters", "key", "prefix")

    def __init__(self, key: str, common_key: str, counters: dict[str, int] | None = None,
                 prefix: str = "") -> None:
        self.key = key
        self.common_key = common_key
        self.counters = counters if counters is not None else {}
        self.prefix = prefix  # "" for the driver's dice, "weather:" for the common view
        self._seeds: dict[str, int] = {}

    def _next(self, stream: str) -> int:
        name = self.prefix + stream
        seed = self._seeds.get(name)
        if seed is None:
            key = self.common_key if self.prefix else self.key
            seed = self._seeds[name] = int.from_bytes(
                hashlib.sha256(f"{key}/{name}".encode()).digest()[:8], "big")
        n = self.counters.get(name, 0) + 1
        self.counters[name] = n
        return _splitmix64(seed ^ _splitmix64(n))

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        return self._next(f"die:{die}") % faces < hazard_faces

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        return _pick(self._next(f"pick:{kind}"), weights)

    def shuffle(self, items: list[str]) -> list[str]:
        return _shuffle(lambda: self._next("deck"), items)

    def clone(self) -> StreamDice:
        twin = StreamDice(self.key, self.common_key, dict(self.counters), self.prefix)
        twin._seeds = self._seeds  # derived from the keys only: safe to share
        return twin

    def common(self) -> StreamDice:
        """A view on the common streams sharing this source's counters (so they are saved)."""
        view = StreamDice(self.key, self.common_key, self.counters, "weather:")
        return view

    def to_dict(self) -> dict:
        return {"type": "streams", "key": self.key, "common": self.common_key, "counters": dict(self.counters)}


def dice_from_dict(d: dict) -> DiceSource:
    if d["type"] == "seeded":
        return SeededDice(d["seed"], d["counter"])
    if d["type"] == "streams":
        return StreamDice(d["key"], d["common"], {str(k): int(v) for k, v in d["counters"].items()})
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

    def common(self) -> CleanDice:
        return self

    def to_dict(self) -> dict:
        """Never called: a dry-run state is thrown away, never saved."""
        raise TypeError("the dice of a dry run are never saved")
