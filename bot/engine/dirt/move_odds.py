"""The exact odds that a DIRT move loses control, from the code that plays it (RULES B13.1, B13.3,
B13.4, B13.5, B8, B10).

`/odds` and the prompt's marks ask this: the move is played on clones of the state with every
draw the dice and the damage bag could make (`bot.engine.core.exact_odds`), so every way to lose
control counts: the ⚠ limit (B13.1), entering a space over its speed limit (B8, B13.3), a jump
flown too fast (B13.5), a damage token that knocks the car out (B10, B13.4), SISU cancelling a
loss (A22). A move the rules refuse now is refused here with the same words (`rally.apply`'s).
A knock-out counts as losing control (the move ends the car's rally: worse, never safer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from bot.engine.core.events import Event
from bot.engine.core.exact_odds import above, certain, chances
from bot.engine.dirt import rally
from bot.engine.dirt.actions import Action
from bot.engine.dirt.state import DirtState

#: the events that mean the move lost control (a knock-out is worse, never safer)
LOST = frozenset({"dirt_lost_control", "dirt_knocked_out"})


def _play(seat: str, action: Action) -> Callable[[DirtState], list[Event]]:
    def play(twin: DirtState) -> list[Event]:
        return rally.apply(twin, seat, action)[1]

    return play


def _lost(seat: str) -> Callable[[DirtState, list[Event]], bool]:
    def lost(twin: DirtState, events: list[Event]) -> bool:
        return any(e.kind in LOST and e.driver == seat for e in events)

    return lost


def loss_chance(state: DirtState, seat: str, action: Action) -> Fraction:
    """The exact chance that `seat` playing `action` now loses control or is knocked out; a move
    not allowed now is refused (`NotAllowed`, as `/roll` would refuse it). `state` never changes."""
    return chances(state, _play(seat, action), _lost(seat)).lost


def loss_above(state: DirtState, seat: str, action: Action, risk: float) -> bool:
    """Whether `loss_chance(state, seat, action) > risk`, the plays stopped once that is settled
    (the AI's question at each step: a certain loss needs one play, not every draw)."""
    return above(state, _play(seat, action), _lost(seat), risk)


def certain_losses(state: DirtState, seat: str, actions: Iterable[Action]) -> list[Action]:
    """The `actions` (all allowed now) that lose control whatever the dice show."""
    play_lost = _lost(seat)
    return [a for a in actions if certain(state, _play(seat, a), play_lost)]
