"""Who plays next (RULES A4 staggered start, A5 order of play) and the start of a turn (A6.1,
A11.6 resuming, A13.5 no move possible)."""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.rallyman.dirt import note_corner_arrival
from bot.engine.rallyman.moves.by_die import any_die_move
from bot.engine.rallyman.stages.model import START
from bot.engine.rallyman.state import FINISHED, OUT, RACING, WAITING, Car, Card, GameState, TurnState


def road_order(state: GameState, indices: list[int]) -> list[int]:
    """Cars furthest along first; same space: higher gear, then first arrived (A5.1, A5.2)."""
    stage = state.stage

    def key(i: int):
        car = state.cars[i]
        progress = stage.spaces[car.position].progress if car.position >= 0 else 0.0
        gear = 0 if car.pose != "normal" else car.gear
        return (-progress, -gear, car.arrived)

    return sorted(indices, key=key)


def _round_queue(state: GameState) -> list[int]:
    """The order of the round about to start, with the staggered entry of new cars (A4.2, A4.3)."""
    n = len(state.cars)
    k = state.round
    on_road = [i for i, c in enumerate(state.cars) if c.status == RACING]
    if state.rules.stagger == "interleaved" and k <= n:
        entering = [k - 1] if state.cars[k - 1].status == WAITING else []
        return road_order(state, on_road) + entering
    waiting = [i for i, c in enumerate(state.cars) if c.status == WAITING]
    if state.rules.stagger == "interleaved":
        return road_order(state, on_road) + waiting
    return road_order(state, on_road)


def consecutive_entry(n: int) -> list[int]:
    """FR variant (AMB-1): driver 1 plays n turns in a row, driver 2 n−1, … driver n one."""
    return [i for i in range(n) for _ in range(n - i)]


def next_turn(state: GameState, events: list[Event]) -> None:
    """Hand the turn to the next car able to play; rounds are recomputed when one ends."""
    for _ in range(10 * len(state.cars) + 10):
        ci = _pop_next(state)
        if ci is None:
            state.turn = None
            if not state.entry and all(c.status in (FINISHED, OUT) for c in state.cars):
                events.append(Event("stage_over", None, {}))
            return
        if _start_turn(state, ci, events):
            return
    raise AssertionError("no car could take a turn: every car is blocked")  # pragma: no cover


def _pop_next(state: GameState) -> int | None:
    # `entry` and `queue` are replaced, never changed in place: a forked state shares them
    while True:
        while state.entry:
            ci = state.entry[0]
            state.entry = state.entry[1:]
            if state.cars[ci].status in (RACING, WAITING):
                return ci
        while state.queue:
            ci = state.queue[0]
            state.queue = state.queue[1:]
            if state.cars[ci].status in (RACING, WAITING):
                return ci
        if all(c.status in (FINISHED, OUT) for c in state.cars):
            return None
        state.round += 1
        state.queue = _round_queue(state)


def _start_turn(state: GameState, ci: int, events: list[Event]) -> bool:
    """Begin car `ci`'s turn; False when it could not move at all (A13.5) and the turn is done."""
    car = state.own(ci)  # the car whose turn starts may be shared with the state forked from
    if car.status == WAITING:
        car.status = RACING
        car.position = START
    if car.resume is not None:  # A11.6: back on the road, facing forward, in gear 0
        state.arrival += 1
        car.position = car.resume
        car.arrived = state.arrival
        car.resume = None
        car.pose = "normal"
        car.corner_dirt = None  # back on the road: a new arrival (A8.5)
        note_corner_arrival(state, car)
        events.append(Event("back_on_road", car.id, {}))
    state.turn = TurnState.begin(ci, car.gear)
    events.append(Event("turn", car.id, {"name": car.name, "round": state.round}))
    if can_move(state, car):
        return True
    stand_still(state, car, events)
    return False


def can_move(state: GameState, car: Car) -> bool:
    """Whether any die could legally move the car one space now (A13.5): some move of
    `die_moves`, looked for without making the moves one by one."""
    return any_die_move(state, car, state.current_turn())


def stand_still(state: GameState, car: Car, events: list[Event]) -> None:
    """The car does not move this turn (A13.5): a copy of the top card, which may itself be such
    a copy (a second turn without a move keeps the gear: the car must not fall to gear 0 in a
    corner that needs a higher one); after neutral/spare, 60 s in gear 0 (OPEN-12). The turn is
    over; the caller hands it on."""
    top = car.pile[-1] if car.pile else None
    if top is not None and top.kind in ("gear", "nomove"):
        card = Card("nomove", top.gear, top.seconds)
    else:
        card = Card("nomove", 0, state.rules.no_move_neutral_seconds)
    car.pile.append(card)
    events.append(Event("no_move", car.id, {"seconds": card.seconds}))
    state.last_path = []
    state.last_driver = state.current_turn().car
    state.turn = None
