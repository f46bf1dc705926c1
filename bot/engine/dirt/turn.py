"""One driver's turn in DIRT (RULES B6–B11, B13.1–B13.5, B13.8.2–B13.8.7): a step at a time,
pushing one's luck, or a time attack; a loss of control, a finish or a knock-out ends it.

`check_roll` refuses an illegal step without touching anything; `roll_step` checks first, then
rolls its dice and moves the car. Both work on the state they are given, which the rally's `apply`
changes in place (third pass): every refusal comes before the first change (a time
attack is first played whole on a clone with clean dice, so its real run refuses nothing).
"""

from __future__ import annotations

from functools import lru_cache

from bot.engine.core.dice import CleanDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.dirt.actions import DIRECTIONS, Attack, Roll
from bot.engine.dirt.course import advance, end_turn, stage_time
from bot.engine.dirt.damage import damage_token, shortcut_token, wrecked
from bot.engine.dirt.dice import GEAR_DICE, STREAMS
from bot.engine.dirt.dice_rules import Step, check_step, known_step
from bot.engine.dirt.events import ev
from bot.engine.dirt.moves import (
    DIRECTION_WORDS,
    choose,
    dice_key,
    dice_left_of,
    dice_turn,
    hazard_limit,
    limit_for,
    step_gear,
    steps_now,
    steps_of,
)
from bot.engine.dirt.probe import Probe, probe_of
from bot.engine.dirt.reach import Reach
from bot.engine.dirt.ruleset import DirtRuleset
from bot.engine.dirt.stages.model import DirtSpace, SpaceKind
from bot.engine.dirt.state import DirtState

#: the gear each gear die puts the car in; the other dice keep the car's gear (B6.2–B6.4)
GEARS: dict[str, int] = {die: int(die) for die in GEAR_DICE}


def check_roll(state: DirtState, seat: str, action: Roll) -> int:
    """The target of a legal step, or a refusal saying why and what is allowed (B6, B7, B13.8.6)."""
    return _checked(state, seat, action)[0]


def _checked(state: DirtState, seat: str, action: Roll) -> tuple[int, Reach, tuple]:
    """`check_roll`'s target with the `Reach` it was found by and the `dice_key` it was checked
    on (for `roll_step` to go on with); both from the state's probe when it has them."""
    probe = probe_of(state, seat)
    if probe is None:
        key, steps, reach = dice_key(state, seat), None, None
    else:
        key, steps, reach = probe.key, probe.steps, probe.reach
    if action.to in DIRECTIONS and _allows(steps_of(key) if steps is None else steps, action.step):
        if reach is None:
            reach = Reach(state, seat)
        target = reach.target(action.to)
        if target is not None and ((reach.tables.jump[target] is None and not action.land) or
                                   lands(reach, GEARS.get(action.step.die, state.cars[seat].gear), target,
                                         action.land)):
            return target, reach, key
    return _refuse_roll(state, seat, action), Reach(state, seat), key


def _allows(steps: tuple[Step, ...], step: Step) -> bool:
    """`step in steps`, by identity first (speed): the steps allowed and the AI's rolls
    are one object per value (`known_step`), so the common lookup never calls the dataclass's
    `__eq__` on the steps before it; a step made elsewhere is compared by value."""
    for known in steps:
        if known is step:
            return True
    return step in steps


def _refuse_roll(state: DirtState, seat: str, action: Roll) -> int:
    """`check_roll` the plain way, each rule in turn, so that a refusal says which one (the quick
    path of `check_roll` only tells that the step is legal)."""
    if action.to not in DIRECTIONS:
        raise NotAllowed(msg("dirt.bad_direction", to=action.to[:20]))
    if action.step not in steps_now(state, seat):
        check_step(dice_turn(state, seat), dice_left_of(state, seat), action.step)  # says why not
    target = choose(state, seat, action.to)
    gear = step_gear(state.cars[seat], action.step)
    reach = Reach(state, seat)
    if not lands(reach, gear, target, action.land):
        if action.land and not _flies(reach, gear, target):
            raise NotAllowed(msg("dirt.no_landing_here", land=msg(DIRECTION_WORDS[action.land])))
        if action.land:
            raise NotAllowed(msg("dirt.landing_taken", land=msg(DIRECTION_WORDS[action.land])))
        raise NotAllowed(msg("dirt.jump_blocked", gear=gear))
    return target


def _flies(reach: Reach, gear: int, target: int) -> bool:
    """A step in `gear` onto `target` flies off a jump (B11, B13.5: its gear or one above)."""
    jump = reach.tables.jump[target]
    return jump is not None and 0 <= gear - jump < reach.state.rules.jump_knockout_over


def landing_of(reach: Reach, jump: int, lane: int, land: str) -> int | None:
    """Where a car flying off `jump` lands: the space `land` names (B11: straight on or
    diagonally, the driver's choice) when free; no word: straight on in `lane` when free, else
    the free diagonal (`Reach.landing`). None when that landing is taken."""
    if not land:
        return reach.landing(jump, lane)
    spaces = reach.state.stage.spaces
    for spot in spaces[jump].forward:
        if spaces[spot].kind is SpaceKind.NORMAL and spaces[spot].word == land and reach.free(spot):
            return spot
    return None


def lands(reach: Reach, gear: int, target: int, land: str = "") -> bool:
    """False when a step in `gear` onto `target` would fly off a jump with no free landing (or
    not the one `land` names), or names a landing without flying (B13.8.6: a die that would fly
    needs one); True for every other step."""
    if _flies(reach, gear, target):
        lanes = reach.state.stage.spaces[target].lanes
        return landing_of(reach, target, lanes[0] if len(lanes) == 1 else reach.lane, land) is not None
    return not land


def legal_rolls(state: DirtState, seat: str) -> list[Roll]:
    """Every step × direction allowed now: `check_roll`'s rules, each part worked out once (the
    dice allowed, the target of each direction word; only a jump's landing depends on both)."""
    return [roll for roll, _ in roll_targets(state, seat)]


def roll_targets(state: DirtState, seat: str) -> list[tuple[Roll, int]]:
    """`legal_rolls` with the space each one targets, steps first."""
    steps = steps_now(state, seat)
    if not steps:
        return []
    reach = Reach(state, seat)
    targets = reach.targets()
    jumps = reach.tables.jump
    gear = state.cars[seat].gear
    out = []
    for step in steps:
        moved = GEARS.get(step.die, gear)  # the step's gear (`moves.step_gear`)
        rolls = rolls_of(step.die, step.brakes)
        for word, target in targets:
            if jumps[target] is None or lands(reach, moved, target):  # only a jump has a landing
                out.append((rolls[word], target))
    return out


def landing_choices(state: DirtState, seat: str) -> list[Roll]:
    """The steps allowed now that fly off a jump with both landings free: the driver may name
    where they land (`Roll.land`, B11, B13.5)."""
    reach = Reach(state, seat)
    car = state.cars[seat]
    out = []
    for roll, target in roll_targets(state, seat):
        gear = step_gear(car, roll.step)
        if _flies(reach, gear, target):
            lanes = state.stage.spaces[target].lanes
            lane = lanes[0] if len(lanes) == 1 else reach.lane
            if all(landing_of(reach, target, lane, land) is not None for land in ("left", "right")):
                out.append(roll)
    return out


def can_roll(state: DirtState, seat: str) -> bool:
    """Whether any step is allowed now (`legal_rolls` not empty), stopping at the first found."""
    return _can_roll(state, seat, None, None)


def _can_roll(state: DirtState, seat: str, reach: Reach | None, key: tuple | None) -> bool:
    """`can_roll`, with the `Reach` of `seat` and the `dice_key` when the caller has them for the
    state as it is."""
    steps = steps_of(dice_key(state, seat) if key is None else key)
    if not steps:
        return False
    return _can_roll_on(state, seat, Reach(state, seat) if reach is None else reach, steps)


def _can_roll_on(state: DirtState, seat: str, reach: Reach, steps: tuple[Step, ...]) -> bool:
    """`can_roll` with the steps allowed and the `Reach` of `seat` on the state as it is."""
    if not steps:
        return False
    jumps = reach.tables.jump
    car = state.cars[seat]
    for word in reach.tables.words[reach.here]:
        target = reach.target(word)
        if target is None:
            continue
        if jumps[target] is None:
            return True  # no landing to check: any step allowed may go there
        if any(lands(reach, step_gear(car, step), target) for step in steps):
            return True
    return False


@lru_cache(maxsize=128)
def rolls_of(die: str, brakes: int) -> dict[str, Roll]:
    """The actions `Roll(Step(die, brakes), word)` by word, made once (actions are frozen values;
    plain arguments hash quicker than a `Step`). Read-only."""
    step = known_step(die, brakes)
    return {word: Roll(step, word) for word in DIRECTIONS}


def _move(state: DirtState, seat: str, target: int, reach: Reach) -> None:
    """Put the car on `target` (its pose, its lane on a one-lane space) and keep `reach` following it."""
    car = state.cars[seat]
    tables = reach.tables
    car.space = reach.here = target
    car.status = "racing"
    car.pose = tables.pose[target]  # type: ignore[assignment]
    lane = tables.lane[target]
    if lane is not None:
        car.lane = lane
    reach.lane = car.lane
    state.turn_path.append(target)


def overspeed(state: DirtState, seat: str, gear: int, space: DirtSpace) -> str | None:
    """"knock_out" 3+ gears above the limit, "lost" 1 or 2 above, None within it (B8, B13.3)."""
    limit = space.limit
    if limit is None:
        return None
    if space.corner is not None and state.minus:  # "−1" tokens may lower a corner's limit (B10)
        limit = limit_for(state, seat, space)
        assert limit is not None
    if gear <= limit:
        return None
    return "knock_out" if gear - limit >= state.rules.overspeed_knockout_over else "lost"


def knock_out(state: DirtState, seat: str, reason: str, events: list[Event]) -> None:
    """The car leaves the rally (DNF, B13.3, B13.4, B13.5); its turn ends with no card."""
    car = state.cars[seat]
    car.status, car.reason, car.space = "out", reason, None
    events.append(ev("dirt_knocked_out", seat, reason=reason))
    advance(state, events)


def roll_step(state: DirtState, seat: str, action: Roll, events: list[Event], *, attack: bool = False) -> bool:
    """Roll the step's dice and move the car (B13.1); False when the turn is over. When the turn
    goes on (not in a time attack), the state's probe holds what the end-of-turn check worked out."""
    kept = state.probe
    target, reach, key = _checked(state, seat, action)
    state.probe = None  # checked: from here on the state changes
    rules = state.rules
    car = state.cars[seat]
    step = action.step
    gear = GEARS.get(step.die, car.gear)  # `moves.step_gear`
    dice = step.dice()
    shown = _roll_dice(state, rules, dice, target)
    state.hazards += shown
    _move(state, seat, target, reach)
    car.gear = gear
    stage = state.stage
    events.append(ev("dirt_roll", seat, die=step.die, brakes=step.brakes, hazards=shown, shown=state.hazards,
                     space=target, gear=gear, tile=stage.spaces[target].tile + 1, tiles=len(stage.tiles),
                     pose=car.pose))
    lost: str | None = None
    if reach.tables.special[target]:  # a limit, a shortcut or a jump: what entering it does
        going, lost = _enter(state, seat, gear, target, reach, events, action.land)
        if not going:
            return False
    if lost is None and state.hazards >= hazard_limit(state):
        if state.modules.get("sisu") and car.sisu:
            car.sisu = False  # A22: the loss of control is cancelled and ⚠ are ignored for the turn
            state.sisu_active = True
            state.hazards -= shown
            events.append(ev("dirt_sisu", seat))
        else:
            lost = "hazards"
    if reach.tables.finish[reach.here]:
        finish(state, seat, lost, events)
        return False
    if lost is not None:
        lose_control(state, seat, lost, events)
        return False
    if not attack:
        after = _key_after(key, gear, dice)
        steps = steps_of(after)
        if not _can_roll_on(state, seat, reach, steps):
            end_turn(state, seat, events)  # nothing more can be played: the move is over
            return False
        if isinstance(kept, Probe) and kept.reach is reach:  # the check used it: renewed, not made anew
            kept.renew(after, steps, state.turn_dice)
            state.probe = kept
        else:
            state.probe = Probe(seat, after, steps, reach, state.turn_dice)  # for the next question
    return True


def _enter(state: DirtState, seat: str, gear: int, target: int, reach: Reach,
           events: list[Event], land: str = "") -> tuple[bool, str | None]:
    """What entering `target` in `gear` does beyond moving there: over its limit a knock-out or a
    loss of control (B8, B13.3), a shortcut's token (B10, B13.8.5), a jump's flight and landing
    (B13.5). (False, _) when the car is out, else (True, the cause of a loss of control or None)."""
    car = state.cars[seat]
    spaces = state.stage.spaces
    space = spaces[target]
    lost: str | None = None
    over = overspeed(state, seat, gear, space)
    if over == "knock_out":
        knock_out(state, seat, "overspeed", events)
        return False, None
    if over == "lost":
        lost = "overspeed"
    if space.kind is SpaceKind.SHORTCUT:
        shortcut_token(state, seat, space.tile, events)  # drawn before a loss-of-control token (B13.8.5)
        if wrecked(state, seat):
            knock_out(state, seat, "damage", events)
            return False, None
    if space.jump is not None and gear >= space.jump:
        if gear - space.jump >= state.rules.jump_knockout_over:
            knock_out(state, seat, "jump", events)
            return False, None
        spot = landing_of(reach, target, car.lane, land)
        assert spot is not None, "checked by check_roll"
        _move(state, seat, spot, reach)
        events.append(ev("dirt_jump", seat, gear=gear, space=spot))
        if gear > space.jump:
            lost = lost or "jump"  # B13.5: one gear above flies and loses control on landing
        over = overspeed(state, seat, gear, spaces[spot])
        if over == "knock_out":
            knock_out(state, seat, "overspeed", events)
            return False, None
        if over == "lost":
            lost = lost or "overspeed"
    return True, lost


def _key_after(key: tuple, gear: int, dice: tuple[str, ...]) -> tuple:
    """The `dice_key` after a step that rolled `dice` and put the car in `gear`, from the one before
    it, when the turn goes on: only the gear and the dice used change. A shortcut's token changes
    no part of it: the key counts the tokens in effect, and a token drawn on a shortcut acts from
    the driver's next turn (B10: counted in `fresh` too, `damage.shortcut_token`), or goes on the
    tile (a "−1"); the round's first turn and the finish stay as they were (a finish ends the turn)."""
    return (key[0], gear, key[2] + dice) + key[3:]


def _roll_dice(state: DirtState, rules: DirtRuleset, dice: tuple[str, ...], target: int) -> int:
    """Roll a step's dice onto `target` (each noted in the turn's dice); the ⚠ they show that
    count (none while SISU cancels them, A22). Each die as `dice.roll` rolls it, its stream and
    faces looked up here (speed: one call fewer per die)."""
    shown = 0
    source, faces, hazard_faces, noted = state.dice, rules.faces, rules.hazard_faces, state.turn_dice
    counts = not state.sisu_active
    for die in dice:
        hazard = source.roll(STREAMS[die], faces, hazard_faces[die])
        noted.append((die, hazard, target))
        if hazard and counts:
            shown += 1
    return shown


def finish(state: DirtState, seat: str, lost: str | None, events: list[Event]) -> None:
    """Crossing the finish line ends the turn with the card of the gear (B3, B13.3: also with a loss
    of control, which still draws a damage token; a 4th token waits for the stage end, B13.8.9)."""
    car = state.cars[seat]
    car.cards.append(state.rules.card_seconds(car.gear))
    car.status = "finished"
    state.someone_finished = True
    if lost is not None:
        events.append(ev("dirt_lost_control", seat, cause=lost, gear=car.gear))
        damage_token(state, seat, events)
    events.append(ev("dirt_finish", seat, gear=car.gear, seconds=sum(car.cards) - car.seconds_tokens))
    advance(state, events)


def lose_control(state: DirtState, seat: str, cause: str, events: list[Event]) -> None:
    """B13.3: the "0" side card, gear 0, one damage token; the turn ends."""
    car = state.cars[seat]
    events.append(ev("dirt_lost_control", seat, cause=cause, gear=car.gear))
    car.cards.append(state.rules.zero_side_seconds)
    car.gear = 0
    damage_token(state, seat, events)
    if wrecked(state, seat):
        knock_out(state, seat, "damage", events)
        return
    events.append(ev("dirt_turn_end", seat, seconds=state.rules.zero_side_seconds, gear=0, total=stage_time(car)))
    advance(state, events)


def time_attack(state: DirtState, seat: str, action: Attack, events: list[Event]) -> None:
    """B13.1, B13.8.7 (A18): ≥ 2 dice planned at the start of a turn, checked whole as if no ⚠
    showed (and not past the finish line), then resolved die by die, stopping where the turn ends;
    one second token per die of the group, all rolled at once (A18.4: even when the move stops
    at a loss of control before the last die; B13.8.7: brake dice count)."""
    rules = state.rules
    if state.turn_dice:
        raise NotAllowed(msg("dirt.attack_mid_turn"))
    count = sum(len(step.dice()) for step, _ in action.steps)
    if count < rules.attack_min_dice:
        raise NotAllowed(msg("dirt.attack_too_few", n=rules.attack_min_dice))
    dry = state.clone()  # the whole attack checked on a copy: `state` changes only once it passed
    dry.dice = CleanDice()
    trial: list[Event] = []
    for i, (step, to) in enumerate(action.steps):
        if not roll_step(dry, seat, Roll(step, to), trial, attack=True):
            if dry.cars[seat].status == "finished" and i < len(action.steps) - 1:
                raise NotAllowed(msg("dirt.attack_past_finish", n=i + 1))
            break
    earned = rules.attack_seconds_per_die * count
    state.cars[seat].seconds_tokens += earned
    events.append(ev("dirt_attack", seat, dice=count, seconds=earned))
    for step, to in action.steps:
        if not roll_step(state, seat, Roll(step, to), events, attack=True):
            return
    end_turn(state, seat, events)
