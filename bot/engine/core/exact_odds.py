"""Exact odds of what an action does, by playing it with every draw the dice could make.

The odds a driver is told must come from the rules code that applies the move, not from a model
of it kept on the side: a model forgets a rule (a speed limit, a damage token, a jump) and says
"0 %" for a move that is certain to go wrong. So the action is played on clones of the state
with a `ForcedDice` source: it answers each draw from a path of outcomes chosen so far, and at
the first draw past that path it stops the play (`Fork`) and lists the draw's outcomes with
their exact chances (a die: ⚠ or not; a pick: each name by its weight). Every outcome extends
the path and the play starts again from a fresh clone, until every path ends: the chance of an
outcome is the sum of the weights of the paths that end in it. Fractions: no sampling, no
rounding. A play stops drawing once its move is over, so the tree stays small (a step of one
die: 2 paths, a few more when a damage token is drawn).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from bot.engine.core.dice import Name

#: the most plays one answer may take (a time attack of many dice stays far below it); more is a
#: bug in the caller (a loop that keeps drawing): a RuntimeError
MAX_PLAYS = 20_000


class Fork(Exception):
    """A play asked for a draw its path has not chosen: the draw's outcomes and their chances
    (in the order the source lists them: for a die, ⚠ first)."""

    def __init__(self, outcomes: Sequence[tuple[object, Fraction]]) -> None:
        super().__init__()
        self.outcomes = tuple(outcomes)


class ForcedDice:
    """A `DiceSource` whose draws follow `path`; the draw after it raises `Fork`. Clones share the
    path and go on from the same place (a dry run inside the engine clones the state)."""

    __slots__ = ("at", "path")

    def __init__(self, path: tuple[object, ...], at: int = 0) -> None:
        self.path = path
        self.at = at

    def _next(self, outcomes: Callable[[], list[tuple[object, Fraction]]]) -> Any:
        if self.at < len(self.path):
            self.at += 1
            return self.path[self.at - 1]
        raise Fork([(value, p) for value, p in outcomes() if p])

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        return bool(self._next(lambda: [(True, Fraction(hazard_faces, faces)),
                                        (False, Fraction(faces - hazard_faces, faces))]))

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        total = sum(weights.values())
        value: Name = self._next(lambda: [(name, Fraction(w, total)) for name, w in weights.items()])
        return value

    def shuffle(self, items: list[str]) -> list[str]:
        """A shuffle has too many outcomes to enumerate: no move of a turn shuffles."""
        raise TypeError("exact odds cannot follow a shuffle")

    def clone(self) -> ForcedDice:
        return ForcedDice(self.path, self.at)

    def common(self) -> ForcedDice:
        return self

    def to_dict(self) -> dict:
        """Never called: the states played here are thrown away, never saved."""
        raise TypeError("the dice of an odds play are never saved")


class Playable(Protocol):
    dice: Any

    def clone(self) -> Any: ...


State = TypeVar("State", bound=Playable)


@dataclass(frozen=True)
class Chances:
    """The exact chance that a play `lost` (as the caller judges)."""

    lost: Fraction
    ways: int  # how many ways the play can end (paths of draws)

    @property
    def certain(self) -> bool:
        return self.lost == 1


def _leaves(state: State, play: Callable[[State], Any]) -> Iterator[tuple[State, Any, Fraction]]:
    """Every way `play` can end on a clone of `state`: (the clone, what the play returned, the
    chance of that way). Clean dice first (a die lists ⚠ then no ⚠, and the last listed is tried
    first), so a move that can go well is seen to at once."""
    stack: list[tuple[tuple[object, ...], Fraction]] = [((), Fraction(1))]
    plays = 0
    while stack:
        path, weight = stack.pop()
        plays += 1
        if plays > MAX_PLAYS:
            raise RuntimeError(f"exact odds: more than {MAX_PLAYS} plays to enumerate")
        twin = state.clone()
        twin.dice = ForcedDice(path)
        try:
            result = play(twin)
        except Fork as fork:
            stack.extend((path + (value,), weight * p) for value, p in fork.outcomes)  # the last listed first
            continue
        yield twin, result, weight


def chances(state: State, play: Callable[[State], Any], lost: Callable[[State, Any], bool]) -> Chances:
    """The exact chance that `play` (an action applied to a clone of `state`, returning what it
    returns: the events) ends so that `lost(clone, result)` holds. `state` never changes; a
    refusal the play raises (the move is not allowed now) goes to the caller."""
    total = Fraction(0)
    ways = 0
    for twin, result, weight in _leaves(state, play):
        ways += 1
        if lost(twin, result):
            total += weight
    return Chances(total, ways)


def above(state: State, play: Callable[[State], Any], lost: Callable[[State, Any], bool],
          threshold: float | Fraction) -> bool:
    """Whether the chance that `play` ends so that `lost` holds is above `threshold`: exactly
    `chances(...).lost > threshold`, stopping as soon as the ways seen settle it (the lost weight
    already above it, or too little weight left to reach it). A certain loss is settled by its
    first play, with clean dice, where `chances` plays every way (the AI asks this at each step)."""
    lost_weight, left = Fraction(0), Fraction(1)
    for twin, result, weight in _leaves(state, play):
        left -= weight
        if lost(twin, result):
            lost_weight += weight
            if lost_weight > threshold:
                return True
        elif lost_weight + left <= threshold:
            return False
    return lost_weight > threshold


def certain(state: State, play: Callable[[State], Any], lost: Callable[[State, Any], bool]) -> bool:
    """Whether `play` ends so that `lost` holds whatever the dice show: `chances(...).certain`,
    stopping at the first way it does not (usually the first play, with clean dice)."""
    return all(lost(twin, result) for twin, result, _ in _leaves(state, play))
