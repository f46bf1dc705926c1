"""Where a DIRT car may go with its next step (RULES B7–B11, B13.5, B13.8.3–B13.8.6).

A step moves the car onto one of its space's forward neighbours (a car waiting on the grid counts
as on the grid's front space, B5). The driver names the target by a word: `left`/`right` (lane 0/1
of a two-lane row), `slide` (a slide half), `cut` (a shortcut space); no word keeps the car's lane
when that is legal, else takes the only normal target. A target is refused when a car is on it or
on a space overlapping it (B7, B13.8.3) or when "−1" tokens closed it (B10, B13.8.4).
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import Listed, msg
from bot.engine.dirt.dice import COAST, LEADER
from bot.engine.dirt.dice_rules import DiceLeft, DiceTurn, Step, allowed_steps, dice_left
from bot.engine.dirt.ruleset import load_ruleset
from bot.engine.dirt.stages.model import DirtSpace, SpaceKind
from bot.engine.dirt.state import Car, DirtState

#: the direction words as shown in refusals (closed table: no key is built from a value)
DIRECTION_WORDS = {"": "dirt.word_ahead", "left": "dirt.word_left", "right": "dirt.word_right",
                   "slide": "dirt.word_slide", "cut": "dirt.word_cut"}


def here(state: DirtState, car: Car) -> int:
    """The car's space, or the grid's front space for a car not yet on the track (B5)."""
    return car.space if car.space is not None else state.stage.grid[0]


def word_of(space: DirtSpace) -> str:
    """The direction word that names `space` as a target."""
    return space.word


def occupied(state: DirtState, seat: str, target: int) -> str | None:
    """The seat of a car on `target` or on a space overlapping it (B7, B13.8.3)."""
    overlaps = state.stage.overlap_sets[target]
    for other, car in state.cars.items():
        where = car.space
        if where is not None and (where == target or where in overlaps) and other != seat and car.status == "racing":
            return other
    return None


def limit_for(state: DirtState, seat: str, space: DirtSpace) -> int | None:
    """The space's speed limit for this driver: a corner's limits drop by one per "−1" token on its
    tile drawn by someone else (B10, B13.8.4); a shortcut keeps its own limit."""
    if space.limit is None:
        return None
    if space.corner is None:
        return space.limit
    drawers = state.minus.get(space.tile, [])
    if state.rules.minus_one_affects == "behind":
        rank = {s: i for i, s in enumerate(state.start_order)}
        mine = rank.get(seat, len(rank))
        count = sum(1 for d in drawers if rank.get(d, len(rank)) < mine)
    else:
        count = sum(1 for d in drawers if d != seat)
    return space.limit - count


def closed(state: DirtState, seat: str, space: DirtSpace) -> bool:
    """A limit of 0 or less closes the space: no car may enter (B10)."""
    limit = limit_for(state, seat, space)
    return limit is not None and limit <= 0


def step_gear(car: Car, step: Step) -> int:
    """The gear a step puts the car in: a gear die's number, the current gear for a coast or leader
    die (B6.3; also on a jump, B13.8.6)."""
    return car.gear if step.die in (COAST, LEADER) else int(step.die)


def free(state: DirtState, seat: str, target: int) -> bool:
    return occupied(state, seat, target) is None and not closed(state, seat, state.stage.spaces[target])


def _named(state: DirtState, seat: str, to: str) -> list[int]:
    """The forward targets `to` names from the car's space (at most the first one counts); no word
    names the car's lane, else the only free normal space, else the only space ahead."""
    car = state.cars[seat]
    stage = state.stage
    spaces = stage.spaces
    start = car.space if car.space is not None else stage.grid[0]  # `here`
    named = list(stage.targets_by_word[start].get(to, ()))
    if to == "":
        targets = spaces[start].forward
        keep = [t for t in targets if spaces[t].kind is SpaceKind.NORMAL
                and (spaces[t].lanes == (car.lane,) or len(spaces[t].lanes) == 2)]
        if keep and free(state, seat, keep[0]):
            named = keep[:1]
        else:
            normal = [t for t in targets if spaces[t].kind is SpaceKind.NORMAL and free(state, seat, t)]
            if len(normal) == 1:
                named = normal
            elif keep:
                named = keep[:1]
            elif not named and len(targets) == 1:  # one way on (a slide's first half, B9): no word needed
                named = list(targets)
    return named


def find_target(state: DirtState, seat: str, to: str) -> int | None:
    """The target `choose` gives for `to`, or None where `choose` refuses it: the same rules with
    no message built, for the callers that only try (legal moves, the AI)."""
    named = _named(state, seat, to)
    if not named:
        return None
    target = named[0]
    if occupied(state, seat, target) is not None or closed(state, seat, state.stage.spaces[target]):
        return None
    return target


def choose(state: DirtState, seat: str, to: str) -> int:
    """The target named by `to` from the car's space, or a refusal naming the words allowed."""
    spaces = state.stage.spaces
    named = _named(state, seat, to)
    if not named:
        targets = spaces[here(state, state.cars[seat])].forward
        words = Listed([msg(DIRECTION_WORDS[word_of(spaces[t])]) for t in targets], "either")
        raise NotAllowed(msg("dirt.no_such_direction", to=msg(DIRECTION_WORDS[to]), allowed=words),
                         tuple(word_of(spaces[t]) for t in targets))
    target = named[0]
    blocker = occupied(state, seat, target)
    if blocker is not None:
        raise NotAllowed(msg("dirt.space_occupied", name=dict(state.seats)[blocker], allowed=_free_words(state, seat)))
    if closed(state, seat, spaces[target]):
        raise NotAllowed(msg("dirt.space_closed", allowed=_free_words(state, seat)))
    return target


def _free_words(state: DirtState, seat: str) -> str:
    spaces = state.stage.spaces
    words = [msg(DIRECTION_WORDS[word_of(spaces[t])]) for t in spaces[here(state, state.cars[seat])].forward
             if free(state, seat, t)]
    return Listed(words, "either") if words else msg("dirt.word_no_space")


def landing(state: DirtState, seat: str, jump: int, lane: int) -> int | None:
    """Where a car flying off the jump space lands: straight on in its lane if free, else the free
    diagonal (B11, B13.5); None when every landing space is taken (B13.8.6)."""
    spaces = state.stage.spaces
    options = [t for t in spaces[jump].forward if spaces[t].kind is SpaceKind.NORMAL and free(state, seat, t)]
    options.sort(key=lambda t: (spaces[t].lanes != (lane,) and len(spaces[t].lanes) == 1, t))
    return options[0] if options else None


def pose_of(space: DirtSpace) -> str:
    """normal, drift (the outside line of a corner, B8) or slide (B9)."""
    if space.kind is SpaceKind.SLIDE:
        return "slide"
    if space.corner is not None and space.inside is False:
        return "drift"
    return "normal"


def dice_turn(state: DirtState, seat: str) -> DiceTurn:
    car = state.cars[seat]
    return DiceTurn(car.gear, tuple(d for d, _, _ in state.turn_dice), leading=state.turn == 0,
                    someone_finished=state.someone_finished)


def dice_left_of(state: DirtState, seat: str) -> DiceLeft:
    """The dashboard's dice after the damage tokens in effect (those drawn this turn act from the
    next turn, B10)."""
    car = state.cars[seat]
    def held(kind: str) -> int:
        return car.tokens[kind] - state.fresh[kind]
    return _dice_left(state.ruleset, state.leading, held("coast"), held("brake"), held("minus_one"))


@lru_cache(maxsize=1024)
def _dice_left(ruleset: str, leading: bool, coast: int, brake: int, minus_one: int) -> DiceLeft:
    """`dice_left` of a ruleset by name, cached: a pure function of these numbers."""
    return dice_left(load_ruleset(ruleset), leading=leading, coast_tokens=coast, brake_tokens=brake,
                     minus_one_tokens=minus_one)


def steps_now(state: DirtState, seat: str) -> tuple[Step, ...]:
    """`allowed_steps(dice_turn(...), dice_left_of(...))`: the steps the dice rules allow `seat`
    now, cached on the few numbers they depend on (`dice_key`, for speed)."""
    return steps_of(dice_key(state, seat))


def dice_key(state: DirtState, seat: str) -> tuple:
    """What the steps allowed `seat` now depend on, as a tuple of plain values: the ruleset, the
    car's gear, the dice used this turn, whether it is the round's first turn, whether someone
    finished, whether the leader column is in use, and the coast, brake and "−1" tokens in effect."""
    car = state.cars[seat]
    tokens, fresh = car.tokens, state.fresh
    first, done = state.turn == 0, state.someone_finished
    return (state.ruleset, car.gear, tuple(map(_die_of, state.turn_dice)), first, done,
            first and not done and bool(state.order),  # `state.leading`
            tokens["coast"] - fresh["coast"], tokens["brake"] - fresh["brake"],
            tokens["minus_one"] - fresh["minus_one"])


def steps_of(key: tuple) -> tuple[Step, ...]:
    """The steps allowed for a `dice_key`, remembered by the key itself (speed: one dict
    lookup, where a cache on the key's nine parts rebuilds and hashes a tuple of them)."""
    try:
        return _STEPS[key]
    except KeyError:
        if len(_STEPS) >= 4096:
            _STEPS.clear()
        steps = _STEPS[key] = _steps_now(*key)
        return steps


#: `steps_of` by dice key, bounded like `_steps_now`'s cache
_STEPS: dict[tuple, tuple[Step, ...]] = {}


_die_of = itemgetter(0)  # the die of a `turn_dice` entry (die, ⚠ shown, space)


@lru_cache(maxsize=4096)
def _steps_now(ruleset: str, gear: int, used: tuple[str, ...], first: bool, someone_finished: bool, leading: bool,
               coast: int, brake: int, minus_one: int) -> tuple[Step, ...]:
    turn = DiceTurn(gear, used, leading=first, someone_finished=someone_finished)
    return tuple(allowed_steps(turn, _dice_left(ruleset, leading, coast, brake, minus_one)))


def hazard_limit(state: DirtState) -> int:
    """The ⚠ limit of the column in use (B6.1, B13.1)."""
    return _hazard_limits(state.ruleset)[bool(state.order) and state.turn == 0 and not state.someone_finished]


@lru_cache(maxsize=8)
def _hazard_limits(ruleset: str) -> tuple[int, int]:
    """The ⚠ limits of a ruleset's gravel column and leader column, by `state.leading`."""
    rules = load_ruleset(ruleset)
    return rules.column(False).hazard_limit, rules.column(True).hazard_limit
