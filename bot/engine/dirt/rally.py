"""A DIRT rally as a pure function of its actions (RULES Part B with the B13 defaults): the public
API the `Game` protocol wrapper, the board and the AI use.

`apply(state, seat, action)` plays the action on the state it is given (third pass: no
copy per action, as python-chess pushes a move onto its board and OpenSpiel's `apply_action`
changes its state) and returns that state with the events, or raises `NotAllowed` with a `dirt.*`
message and the state exactly as it was: every refusal comes before the first change. A caller
that keeps the state before an action clones it first (`DirtState.clone`; the `Game` adapter,
`protocol.Dirt.apply`, does so once per command). Every number comes from the ruleset
(data/dirt/rulesets/).

Readings of what the rules leave open (beyond B13), each small and local:
- a step whose target has no word (a one-lane point) is played with no direction; no word keeps
  the car's lane when that target is free, else takes the only free normal target;
- a jump lands straight on in the car's lane when free, else on the free diagonal (B13.5);
- a time attack is the whole turn (A18.1: not mixed with rolling one by one): it is refused once
  a die was rolled this turn, and the turn ends after it;
- when no step is possible any more, the turn ends by itself with the card of its gear;
- spare tire (A14 transposed, B13.6): `Spare` at the start of a turn in gear 0 or 1 removes one
  coast-die token for the ruleset's spare card (60 s) and restarts from gear 0; between stages
  with no assistance it is used by itself on a car holding a coast-die token (A14.2, no minute);
- SISU (A22 transposed, module `sisu`, default off): used by itself at the driver's first loss of
  control by ⚠ (never for a speed limit or a jump); ⚠ are then ignored for the rest of the turn;
- a brake-die token drawn on a shortcut goes on the dashboard like a coast-die token (the
  shortcut side of that kind is not in the known pages);
- finished cars leave the track (they block nobody in the run-off).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from bot.engine.core.dice import DiceSource
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.dirt.actions import DIRECTIONS, Action, Attack, Retire, Roll, Spare, Stop, Timeout
from bot.engine.dirt.course import ACTIVE, advance, end_turn, results, start_stage
from bot.engine.dirt.dice_rules import Step, allowed_words
from bot.engine.dirt.events import ev
from bot.engine.dirt.moves import hazard_limit
from bot.engine.dirt.odds import DirtOdds, plan_odds
from bot.engine.dirt.parse import decode, encode, label, parse
from bot.engine.dirt.public import Shown
from bot.engine.dirt.ruleset import load_ruleset
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.state import Car, DirtState
from bot.engine.dirt.turn import can_roll, legal_rolls, roll_step, time_attack

MODULES = ("sisu",)

__all__ = [
    "DIRECTIONS", "MODULES", "Action", "Attack", "Car", "DirtOdds", "DirtState", "Retire", "Roll", "Spare", "Step",
    "Stop", "Timeout", "apply", "can_spare", "decode", "encode", "finished", "label", "legal_actions", "new_rally",
    "parse", "results", "to_act", "turn_odds",
]


def new_rally(seats: Sequence[tuple[str, str]], stages: Sequence[str], *, dice: DiceSource,
              assistance: Sequence[bool] = (), ruleset: str = "provisional",
              modules: Mapping[str, bool] | None = None) -> tuple[DirtState, list[Event]]:
    """A rally of one or more stages (B2) for `seats` in start order (B2: the first player first)."""
    if not seats:
        raise ValueError("a rally needs at least one seat")
    if len({s for s, _ in seats}) != len(seats):
        raise ValueError("the same seat twice")
    if not stages:
        raise ValueError("a rally needs at least one stage")
    load_ruleset(ruleset)
    for name in stages:
        load_stage(name)
    unknown = set(modules or {}) - set(MODULES)
    if unknown:
        raise ValueError(f"unknown DIRT module {sorted(unknown)[0]!r} (known: {', '.join(MODULES)})")
    state = DirtState(seats=[(str(s), str(n)) for s, n in seats], stages=list(stages),
                      assistance=[bool(a) for a in assistance],
                      modules={m: bool((modules or {}).get(m)) for m in MODULES},
                      ruleset=ruleset, dice=dice, cars={s: Car() for s, _ in seats},
                      start_order=[s for s, _ in seats])
    events: list[Event] = []
    start_stage(state, events)
    return state, events


def to_act(state: DirtState) -> str | None:
    return state.to_act()


def finished(state: Shown) -> bool:
    return state.over


def _name(state: DirtState, seat: str) -> str:
    return dict(state.seats).get(seat, seat)


def _can_stop(state: DirtState, seat: str) -> bool:
    """B7: at least one space per turn if possible."""
    return bool(state.turn_path) or not can_roll(state, seat)


def can_spare(state: DirtState, seat: str) -> bool:
    """Whether `seat` may use its spare tire now. A14.1 transposed: at the start of a turn, in gear
    0 or 1, with a coast-die token to remove."""
    car = state.cars[seat]
    return not state.turn_dice and car.spare and car.gear <= 1 and car.tokens["coast"] - state.fresh["coast"] > 0


def legal_actions(state: DirtState, seat: str | None) -> list[Action]:
    """Every Roll (step × direction) allowed now, then Stop and Spare when allowed; [] for a seat
    that is not to act (seat None: the seat to act's)."""
    current = state.to_act()
    if current is None or (seat is not None and seat != current):
        return []
    rolls = legal_rolls(state, current)
    actions: list[Action] = list(rolls)
    if state.turn_path or not rolls:  # B7: at least one space per turn if possible
        actions.append(Stop())
    if can_spare(state, current):
        actions.append(Spare())
    return actions


def apply(state: DirtState, seat: str | None, action: Action) -> tuple[DirtState, list[Event]]:
    """Play `action` by `seat` (None: the rally itself) on `state` itself; the state and the events.
    A refusal raises before anything changes (each check below comes before its action's first
    change: `roll_step` and `time_attack` check first too)."""
    if state.over:
        raise NotAllowed(msg("dirt.rally_over"))
    current = state.to_act()
    assert current is not None, "a rally not over always has a seat to act"
    events: list[Event] = []
    if type(action) is Roll and seat == current:  # the common case first: the driver's next step
        roll_step(state, current, action, events)  # it uses the state's probe and drops it once checked
        return state, events
    state.probe = None  # what was worked out for the state as it was (`probe`): any action may change it
    if isinstance(action, Retire):
        if seat is not None and seat != action.seat:
            raise NotAllowed(msg("dirt.retire_other"))
        if action.seat not in state.cars:
            raise NotAllowed(msg("dirt.not_a_driver"))
        if state.cars[action.seat].status not in (*ACTIVE, "finished"):
            raise NotAllowed(msg("dirt.already_out"))
        car = state.cars[action.seat]
        car.status, car.reason, car.space = "retired", "retired", None
        events.append(ev("dirt_retired", action.seat))
        if action.seat == current:
            advance(state, events)
        elif not any(state.cars[s].status in ACTIVE for s in state.start_order):
            advance(state, events)
        return state, events
    if isinstance(action, Timeout):
        if seat is not None:
            raise NotAllowed(msg("dirt.timeout_rally_only"))
        end_turn(state, current, events)
        return state, events
    if seat != current:
        raise NotAllowed(msg("dirt.not_your_turn", name=_name(state, current)))
    if isinstance(action, Roll):
        roll_step(state, current, action, events)
    elif isinstance(action, Attack):
        time_attack(state, current, action, events)
    elif isinstance(action, Stop):
        if not _can_stop(state, current):
            steps = [r.step for r in legal_rolls(state, current)]
            raise NotAllowed(msg("dirt.must_move", allowed=allowed_words(steps)))
        end_turn(state, current, events)
    elif isinstance(action, Spare):
        if not can_spare(state, current):
            raise NotAllowed(msg("dirt.no_spare"))
        car = state.cars[current]
        car.spare = False
        car.tokens["coast"] -= 1
        car.cards.append(state.rules.spare_card_seconds)
        car.gear = 0
        events.append(ev("dirt_spare", current, seconds=state.rules.spare_card_seconds))
    else:
        raise NotAllowed(msg("dirt.bad_words", text=str(action)[:40]))
    return state, events


def turn_odds(state: DirtState, seat: str, steps: Sequence[Step]) -> DirtOdds:
    """Exact odds that rolling `steps` from here makes the turn's ⚠ reach the limit (B13.1); none
    while SISU has cancelled them for the turn (A22)."""
    if state.sisu_active:
        return DirtOdds(Fraction(0), tuple(Fraction(0) for _ in steps))
    shown = state.hazards if state.to_act() == seat else 0
    return plan_odds(state.rules, hazard_limit(state) if state.to_act() == seat else
                     state.rules.column(False).hazard_limit, shown, steps)
