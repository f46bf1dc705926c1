"""Which dice a DIRT car may use next, and why any other is refused (RULES B6.2–B6.6, B13.4).

Works on a small explicit input, not on a game state: the gear of the car's last space, the dice
already used this turn, whether the car leads the round on gravel, and the dice its dashboard
still offers after damage (`DiceLeft`). A step is what moves the car one space: a gear die (with
0 or more brake dice, B6.5), a coast die or a leader die. Each refusal is its own message naming
what is allowed now; the keys are literal (a house test checks each exists in every language).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import Listed, counted, msg
from bot.engine.dirt.dice import BRAKE, COAST, GEAR_DICE, LEADER, Die, gear_die, is_gear_die
from bot.engine.dirt.ruleset import DirtRuleset


@dataclass(frozen=True)
class DiceLeft:
    """The dice a dashboard offers a car this turn, after its damage tokens (B6.6, B13.4)."""

    gears: tuple[int, ...]
    coast: int
    leader: int
    brake: int


def dice_left(rules: DirtRuleset, *, leading: bool, coast_tokens: int = 0, brake_tokens: int = 0,
              minus_one_tokens: int = 0) -> DiceLeft:
    """The column in use minus damage (B13.4): a coast-die token takes a die of whichever side
    column is in use (coast or leader, B13.8.4), a brake-die token a brake die, a "−1" token the
    highest gear die left (gear 6 first)."""
    column = rules.column(leading)
    gears = column.gears[:max(0, len(column.gears) - minus_one_tokens)]
    return DiceLeft(gears, max(0, column.coast - coast_tokens), max(0, column.leader - coast_tokens),
                    max(0, column.brake - brake_tokens))


@dataclass(frozen=True)
class Step:
    """One space of a move: `die` (a gear die, coast or leader), with `brakes` brake dice when it
    is a gear die (B6.5)."""

    die: str
    brakes: int = 0

    def __post_init__(self) -> None:
        if self.brakes < 0:
            raise ValueError("a step has 0 or more brake dice")

    def dice(self) -> tuple[str, ...]:
        return (self.die,) + (BRAKE,) * self.brakes


@dataclass(frozen=True)
class DiceTurn:
    """Where a car's turn stands: the gear of its last space (0 at standstill), the dice used so
    far this turn, and whether the leader dice are its side dice (B6.4: the round's first player,
    on gravel, while nobody has finished)."""

    gear: int
    used: tuple[str, ...] = ()
    leading: bool = False
    someone_finished: bool = False

    @property
    def leader_dice(self) -> bool:
        return self.leading and not self.someone_finished


@lru_cache(maxsize=64)
def known_step(die: str, brakes: int) -> Step:
    """`Step(die, brakes)`, one object per value (speed): the engine makes every step it
    offers through here, so that looking one up among the steps allowed finds the same object
    (an identity check) before comparing fields. Both arguments always given: the cache tells
    `(die,)` from `(die, 0)`."""
    return Step(die, brakes)


def _brakes_left(turn: DiceTurn, left: DiceLeft) -> int:
    return left.brake - turn.used.count(BRAKE)


def _side_die(turn: DiceTurn) -> Die:
    return LEADER if turn.leader_dice else COAST


def _side_left(turn: DiceTurn, left: DiceLeft) -> int:
    side = _side_die(turn)
    return (left.leader if side == LEADER else left.coast) - turn.used.count(side)


def allowed_steps(turn: DiceTurn, left: DiceLeft) -> list[Step]:
    """Every step the dice rules allow now, gear dice first (highest gear first)."""
    return list(_allowed_steps(turn, left))


@lru_cache(maxsize=4096)
def _allowed_steps(turn: DiceTurn, left: DiceLeft) -> tuple[Step, ...]:
    """`allowed_steps`, cached: a pure function of two small frozen values."""
    out: list[Step] = []
    g = turn.gear
    brakes = _brakes_left(turn, left)
    for gear in sorted(left.gears, reverse=True):
        if gear_die(gear) in turn.used:
            continue
        if g == 0:
            if gear == 1:
                out.append(known_step(gear_die(1), 0))
        elif gear >= g - 1 and gear <= g + 1:
            out.append(known_step(gear_die(gear), 0))
        elif gear < g - 1 and g - gear - 1 <= brakes:
            out.append(known_step(gear_die(gear), g - gear - 1))
    if g >= 1 and _side_left(turn, left) > 0:
        out.append(known_step(_side_die(turn), 0))
    return tuple(out)


def step_words(step: Step) -> str:
    """A step as words: `gear die 4`, `gear die 2 with 1 brake die`, `coast die`."""
    if step.die == COAST:
        return msg("dirt.word_coast_die")
    if step.die == LEADER:
        return msg("dirt.word_leader_die")
    if step.brakes:
        return msg("dirt.word_braked_gear_die", gear=step.die, brakes=counted("dirt.word_brake_dice", step.brakes))
    return msg("dirt.word_gear_die", gear=step.die)


def allowed_words(steps: list[Step]) -> str:
    """What may be played now, in words; `nothing` when the move is over."""
    if not steps:
        return msg("dirt.word_nothing")
    return Listed([step_words(s) for s in steps], "either")


def _code(step: Step) -> str:
    return step.die + "+brake" * step.brakes


def check_step(turn: DiceTurn, left: DiceLeft, step: Step) -> None:
    """Refuse `step` if the dice rules forbid it now, saying why and what is allowed."""
    if step in _allowed_steps(turn, left):
        return
    allowed = allowed_steps(turn, left)
    words = allowed_words(allowed)
    codes = tuple(_code(s) for s in allowed)
    die, g, k = step.die, turn.gear, step.brakes
    if die == BRAKE or (k and not is_gear_die(die)):
        raise NotAllowed(msg("dirt.brake_alone", allowed=words), codes)
    if k > _brakes_left(turn, left):
        raise NotAllowed(msg("dirt.no_brake_left", n=max(0, _brakes_left(turn, left)), allowed=words), codes)
    if die in (COAST, LEADER):
        if die == LEADER and not turn.leading:
            raise NotAllowed(msg("dirt.leader_not_leading", allowed=words), codes)
        if die == LEADER and turn.someone_finished:
            raise NotAllowed(msg("dirt.leader_lapsed", allowed=words), codes)
        if die == COAST and turn.leader_dice:
            raise NotAllowed(msg("dirt.coast_when_leading", allowed=words), codes)
        if g == 0:
            raise NotAllowed(msg("dirt.side_die_at_standstill", die=step_words(step), allowed=words), codes)
        raise NotAllowed(msg("dirt.no_side_die_left", die=step_words(step), allowed=words), codes)
    if die not in GEAR_DICE:
        raise NotAllowed(msg("dirt.unknown_die", die=die, allowed=words), codes)
    gear = int(die)
    if gear not in left.gears:
        raise NotAllowed(msg("dirt.gear_die_lost", gear=die, allowed=words), codes)
    if die in turn.used:
        raise NotAllowed(msg("dirt.die_used", gear=die, allowed=words), codes)
    if g == 0:
        if gear != 1:
            raise NotAllowed(msg("dirt.standstill_first_gear", allowed=words), codes)
        raise NotAllowed(msg("dirt.brake_not_needed", current=g, allowed=words), codes)
    if gear > g + 1:
        raise NotAllowed(msg("dirt.gear_not_adjacent", gear=die, current=g, allowed=words), codes)
    needed = max(0, g - gear - 1)
    if k < needed:
        raise NotAllowed(msg("dirt.gear_drop_needs_brake", gear=die, current=g,
                             brakes=counted("dirt.word_brake_dice", needed), allowed=words), codes)
    raise NotAllowed(msg("dirt.brake_not_needed", current=g, allowed=words), codes)
