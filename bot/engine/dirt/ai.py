"""The DIRT AI: legal, sensible driving — it brakes for corners, keeps off the
damage bag's shortcuts and stops before its luck runs out.

Speed caps: the highest gear a car may enter each space in and still meet every limit ahead when
it drops one gear per space (a gear die one below, B6.2), computed once per stage and per set of
"−1" tokens in effect for the driver (B10), from the finish backwards: the space's own limit (its
corner limit lowered by the tokens; a jump's gear, so a jump is taken exactly or not at all, B13.5)
and one more than the best cap among its forward neighbours. Each step the AI plays the highest gear
that keeps under the cap of the space it enters (inside or outside line, whichever allows more),
preferring normal spaces to slides and shortcuts; it stops when no safe step is left or when the
next die's exact chance of a loss of control (B13.1) is above its risk. A turn not begun always
rolls (B7: at least one space), the safest step first.

Speed: the best roll is remembered on the few plain values it depends on (`_best_known`:
the stage's name, the car's space and lane, the other cars near, the dice key), never on a state;
the risk test is cached on its numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Action, Roll, Spare, Stop
from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.move_odds import loss_above
from bot.engine.dirt.moves import dice_key, steps_of
from bot.engine.dirt.odds import next_die_odds
from bot.engine.dirt.probe import probe_of
from bot.engine.dirt.reach import Reach
from bot.engine.dirt.ruleset import load_ruleset
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.stages.model import SpaceKind
from bot.engine.dirt.state import DirtState
from bot.engine.dirt.turn import GEARS, lands, overspeed, rolls_of

RISK = 0.15  # the largest chance of a loss of control the AI takes for one more step
TOP_GEAR = 6


@lru_cache(maxsize=256)
def _caps(stage_name: str, lowered: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """Per space, the highest gear to enter it in; `lowered`: (tile, tokens) of "−1" in effect."""
    stage = load_stage(stage_name)
    minus = dict(lowered)
    caps = [TOP_GEAR] * len(stage.spaces)
    for space in sorted(stage.spaces, key=lambda s: -s.front):
        ahead = [caps[t] + 1 for t in space.forward if stage.spaces[t].kind is not SpaceKind.SHORTCUT]
        cap = min(TOP_GEAR, max(ahead)) if ahead else TOP_GEAR
        if space.limit is not None:
            cap = min(cap, space.limit - (minus.get(space.tile, 0) if space.corner is not None else 0))
        if space.jump is not None:
            cap = min(cap, space.jump)
        caps[space.id] = max(cap, 0)
    return tuple(caps)


def caps_for(state: DirtState, seat: str) -> tuple[int, ...]:
    """The caps of the stage for `seat`, with the "−1" tokens that lower its limits (B13.8.4)."""
    if not state.minus:
        return _caps(state.stages[state.stage_index], ())
    lowered = []
    for tile, drawers in sorted(state.minus.items()):
        count = sum(1 for d in drawers if d != seat)
        if count:
            lowered.append((tile, count))
    return _caps(state.stages[state.stage_index], tuple(lowered))


def choose(state: DirtState, seat: str, risk: float = RISK) -> Action:
    """The AI's action for `seat`, whose turn it is: among `rally.legal_actions`, the best of the
    legal rolls (`_best`, met in `roll_targets`' order), or Stop or Spare."""
    if state.over or state.turn >= len(state.order) or state.order[state.turn] != seat:  # `to_act`, inline
        return Stop()  # no legal action: nothing to weigh
    if not state.turn_dice and state.cars[seat].tokens.get("coast", 0) and engine.can_spare(state, seat):
        return Spare()
    best = _best_known(state, seat)
    if best is None:
        return Stop()  # B7: with no step possible, stopping is allowed
    roll, safe, target = best
    if state.turn_path:  # as `legal_actions`: Stop once a space was played this turn
        if not safe:
            return Stop()
        if _too_risky(state, seat, roll, target, risk):
            return Stop()
    return roll


def _too_risky(state: DirtState, seat: str, roll: Roll, target: int, risk: float) -> bool:
    """Whether the chance that `roll` (onto space `target`) loses control is above `risk`, that
    chance as `/odds` tells it (`move_odds.loss_above`: the move played with the draws that
    settle it). Where the ⚠ limit is the only way to lose control (`_more_than_hazards`), the ⚠ odds
    (`odds.next_die_odds`, cached) are that same number; where other ways add to it (no SISU to
    cancel a loss), ⚠ odds already above `risk` say "too risky" too. Only the rest plays the move:
    several times quicker (bench/engine_dirt.py)."""
    step = roll.step
    hazards = _hazard_odds(state.ruleset, state.leading, state.hazards, step.die, step.brakes)
    if not _more_than_hazards(state, seat, GEARS.get(step.die, state.cars[seat].gear), target):
        return hazards > risk
    if hazards > risk and not _sisu(state, seat):
        return True
    return loss_above(state, seat, roll, risk)


def _sisu(state: DirtState, seat: str) -> bool:
    """Whether SISU cancels, or may cancel, a loss of control of `seat` now (A22)."""
    return state.sisu_active or bool(state.modules.get("sisu") and state.cars[seat].sisu)


def _more_than_hazards(state: DirtState, seat: str, gear: int, target: int) -> bool:
    """Whether entering `target` in `gear` could lose control otherwise than by the ⚠ limit, or a
    loss could be cancelled: SISU (A22); a shortcut (its token, B10), a jump taken (B13.5) or a space
    over its limit (B8, B13.3), as `turn.roll_step` and `turn._enter` decide it. Otherwise the
    step's only loss is its ⚠ reaching the limit (B13.1)."""
    if _sisu(state, seat):
        return True
    if not state.stage.tables.special[target]:  # `roll_step` skips `_enter`
        return False
    space = state.stage.spaces[target]
    return (space.kind is SpaceKind.SHORTCUT or (space.jump is not None and gear >= space.jump)
            or overspeed(state, seat, gear, space) is not None)


#: `_best` by what it depends on with no "−1" token in play (`_best_known`); bounded by `MEMO_SIZE`
_BEST: dict[tuple, tuple[Roll, bool, int] | None] = {}
MEMO_SIZE = 20_000  # about 10 MB at most


def _best_known(state: DirtState, seat: str) -> tuple[Roll, bool, int] | None:
    """`_best`, remembered on what it depends on (speed): the stage, the car's space
    and lane, the other cars on the spaces a step could reach or be blocked by (`tables.near`) and
    the dice (`dice_key`). With "−1" tokens in play (they change targets and caps) it is worked
    out each time. The dice key, the steps and the other cars' places come from the state's probe
    when it has them (`probe`: the end-of-turn check of the step before worked them out)."""
    probe = probe_of(state, seat)
    if probe is None:
        key = dice_key(state, seat)
        steps = steps_of(key)
    else:
        key, steps = probe.key, probe.steps
    if not steps:
        return None
    if state.minus:
        return _best(state, seat, steps, Reach(state, seat) if probe is None else probe.reach)
    car = state.cars[seat]
    if probe is None:
        tables = state.stage.tables
        others: Iterable[int | None] = [c.space for s, c in state.cars.items() if c.status == "racing" and s != seat]
    else:
        tables, others = probe.reach.tables, probe.reach.others
    here = tables.grid_front if car.space is None else car.space  # as `Reach`, without making one
    near = tables.near[here].intersection(others)
    memo = (state.stages[state.stage_index], here, car.lane, near, key)
    try:
        return _BEST[memo]
    except KeyError:
        pass
    if len(_BEST) >= MEMO_SIZE:
        _BEST.clear()
    best = _BEST[memo] = _best(state, seat, steps, Reach(state, seat) if probe is None else probe.reach)
    return best


def _best(state: DirtState, seat: str, steps: tuple[Step, ...], reach: Reach) -> tuple[Roll, bool, int] | None:
    """The first of the best legal rolls, whether it is safe and its target space; None when no
    roll is legal.

    The rolls are met in `roll_targets`' order (steps first, then the words) and ranked: safe (in a
    gear within the cap of its target) first, then onto a normal space, then the highest gear when
    safe (the lowest when not), the highest cap, the fewest brake dice. Worked out without making
    the list of rolls (speed)."""
    targets = reach.targets()
    if not targets:
        return None
    caps = caps_for(state, seat)
    plain, jumps = reach.tables.plain, reach.tables.jump
    scored = [(word, target, caps[target], plain[target]) for word, target in targets]
    gear = state.cars[seat].gear
    best_key: tuple | None = None
    best: tuple[Step, str, int] | None = None
    for step in steps:
        moved = GEARS.get(step.die, gear)  # the step's gear (`moves.step_gear`)
        brakes = -step.brakes
        for word, target, cap, normal in scored:
            if jumps[target] is not None and not lands(reach, moved, target):  # only a jump has a landing
                continue
            safe = moved <= cap
            key = (safe, normal, moved if safe else -moved, cap, brakes)
            if best_key is None or key > best_key:
                best_key, best = key, (step, word, target)
    if best is None or best_key is None:
        return None
    step, word, target = best
    return rolls_of(step.die, step.brakes)[word], best_key[0], target


@lru_cache(maxsize=1024)
def _hazard_odds(ruleset: str, leading: bool, shown: int, die: str, brakes: int) -> float:
    """The step's exact chance that its ⚠ reach the limit (B13.1), with `shown` ⚠ out against the
    limit of the column in use (`moves.hazard_limit`). Cached: a pure function of these values; the
    step by its die and brake dice, which hash quicker."""
    rules = load_ruleset(ruleset)
    return float(next_die_odds(rules, rules.column(leading).hazard_limit, shown, Step(die, brakes)))
