"""What the engine worked out for the seat to act, kept on the state for the next question
(third pass: the legal-roll work of the AI's choice, `apply`'s check and the end-of-turn
check done once per step instead of three times).

When a step leaves the driver's turn running, `roll_step`'s end-of-turn check has just worked out,
for the state as the step left it, the driver's dice key, the steps those dice allow and the
`Reach` of the car (moved along with it). The next questions about that seat — the AI's choice,
the check of its next step — ask exactly that again: they take it from the state's `probe`
instead. A probe describes the state only as long as nothing changes it, so:

- the engine drops it before any other change (`rally.apply` on every action but a step, and a
  step as soon as it is checked), and `course.clear_turn` (a new turn, also a test's set-up that
  puts a car by hand) drops it; `clone` and `from_dict` never copy it;
- `probe_of` still checks that it was made for that seat, on that very list of the turn's dice
  with as many dice in it, and in the car's gear, so a state changed by hand (never done but in
  tests' set-up) answers from scratch.

Not part of the game: never serialised, compared or shown.
"""

from __future__ import annotations

from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.reach import Reach
from bot.engine.dirt.state import DirtState


class Probe:
    """The dice key (`moves.dice_key`), the steps allowed (`moves.steps_of`) and the `Reach` of
    `seat`, worked out on a state whose turn's dice were `noted` with `rolled` dice in them."""

    __slots__ = ("gear", "key", "noted", "reach", "rolled", "seat", "steps")

    def __init__(self, seat: str, key: tuple, steps: tuple[Step, ...], reach: Reach,
                 noted: list[tuple[str, bool, int]]) -> None:
        self.seat, self.key, self.steps, self.reach = seat, key, steps, reach
        self.noted, self.rolled, self.gear = noted, len(noted), key[1]

    def renew(self, key: tuple, steps: tuple[Step, ...], noted: list[tuple[str, bool, int]]) -> None:
        """The same seat's probe after its next step, its `Reach` moved along with the car
        (for speed: kept, not made anew, for the step after)."""
        self.key, self.steps, self.noted, self.rolled, self.gear = key, steps, noted, len(noted), key[1]


def probe_of(state: DirtState, seat: str) -> Probe | None:
    """The state's probe if it was worked out for `seat` on the state as it is now, else None."""
    probe = state.probe
    if (isinstance(probe, Probe) and probe.seat == seat and probe.noted is state.turn_dice
            and probe.rolled == len(state.turn_dice) and probe.gear == state.cars[seat].gear):
        return probe
    return None
